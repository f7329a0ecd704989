// Reading the engine's memory replies (JSON) into MemoryView's plain vectors.
#include <cmath>
#include <cstdlib>

#include "core/formats/json/json_flat.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_memory.h"
#include "ui/memory/memory_view.h"

namespace strata {

namespace reply = protocol::keys;
namespace {

void read_alloc(MemoryView::Alloc* a, const std::string& key, const JsonLine& l) {
  if (key == reply::memory_alloc::kName)
    a->name = l.value;
  else if (key == reply::memory_alloc::kShape)
    a->shape = l.value;
  else if (key == reply::memory_alloc::kRegion)
    a->region = l.value;
  else if (key == reply::memory_alloc::kBytes)
    a->bytes = json_number(l);
  else if (key == reply::memory_alloc::kAllocNs)
    a->alloc_t = json_number(l);
  else if (key == reply::memory_alloc::kReleaseNs)
    a->release_t = json_number(l);
}

void read_run(MemoryView::XlaRun* r, const std::string& key, const JsonLine& l) {
  namespace run = reply::memory_xla_run;
  r->valid = true;
  if (key == run::kDevice)
    r->device = l.value;
  else if (key == run::kModule)
    r->module = l.value;
  else if (key == run::kProgramId)
    r->program = l.value;
  else if (key == run::kPlane)
    r->plane = l.value;
  else if (key == run::kWhy)
    r->why = l.value;
  else if (key == run::kOp)
    r->op = l.value;
  else if (key == run::kStartRelNs)
    r->start = json_number(l);
  else if (key == run::kEndRelNs)
    r->end = json_number(l);
  else if (key == run::kWindowStartRelNs)
    r->window_start = json_number(l);
  else if (key == run::kGraphModule)
    r->graph_module = static_cast<int>(json_number(l));
  else if (key == run::kBufferAssignment)
    r->buffer_assignment = l.value == "true";
  else if (key == run::kDuring)
    r->during = l.value == "true";
  else if (key == run::kPoint)
    r->point = static_cast<int64_t>(json_number(l));
  else if (key == run::kPeakBytes)
    r->peak_bytes = json_number(l);
  else if (key == run::kPeakRelNs)
    r->peak_t = json_number(l);
}

void memory_read_summary(MemoryView* m, const std::vector<JsonLine>& lines) {
  m->devices.clear();
  m->sources.clear();
  m->warnings.clear();
  namespace summary = reply::memory_summary;
  namespace dev = reply::memory_device;
  namespace series = reply::memory_device_series;
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] == summary::kSources && l.depth == 1) m->sources.push_back(l.value);
    if (k[0] == summary::kWarnings && l.depth == 1) m->warnings.push_back(l.value);
    if (k[0] != summary::kDevices) return;
    if (l.depth == 1) m->devices.emplace_back();
    if (l.depth < 2 || m->devices.empty()) return;
    MemoryView::Device& d = m->devices.back();
    if (l.depth == 2) {
      if (k[2] == dev::kName)
        d.name = l.value;
      else if (k[2] == dev::kPrimary)
        d.primary = l.value;
      else if (k[2] == dev::kPeakBytes)
        d.peak = json_number(l);
      else if (k[2] == dev::kStartRelNs)
        d.start = json_number(l);
      else if (k[2] == dev::kEndRelNs)
        d.end = json_number(l);
      else if (k[2] == dev::kPeakRelNs)
        d.peak_t = json_number(l);
      else if (k[2] == dev::kPeakIsReserved)
        d.peak_reserved = l.value == "true";
      else if (k[2] == dev::kCapacityBytes)
        d.capacity = json_number(l);
      else if (k[2] == dev::kPeakShare)
        d.peak_share = json_number(l);
      else if (k[2] == dev::kCapacitySource)
        d.capacity_source = l.value;
      else if (k[2] == dev::kCapacityWhy)
        d.capacity_why = l.value;
      else if (k[2] == dev::kNoAddr)
        d.no_addr = l.value == "true";
      else if (k[2] == dev::kSamples)
        d.samples = static_cast<int>(json_number(l));
      else if (k[2] == dev::kAllocations)
        d.allocations = static_cast<int>(json_number(l));
      else if (k[2] == dev::kUnreleased)
        d.unreleased = static_cast<int>(json_number(l));
    } else if (k[2] == dev::kSeries) {
      if (l.depth == 3) d.series.emplace_back();
      if (l.depth != 4 || d.series.empty()) return;
      MemoryView::Series& s = d.series.back();
      if (k[4] == series::kComponent)
        s.component = l.value;
      else if (k[4] == series::kSamples)
        s.samples = static_cast<int>(json_number(l));
      else if (k[4] == series::kPeakAllocated)
        s.peak_alloc = json_number(l);
      else if (k[4] == series::kPeakAllocatedRelNs)
        s.peak_alloc_t = json_number(l);
      else if (k[4] == series::kPeakReserved)
        s.peak_resv = json_number(l);
      else if (k[4] == series::kPeakReservedRelNs)
        s.peak_resv_t = json_number(l);
    }
  });
}

void memory_read_range(MemoryView* m, const std::vector<JsonLine>& lines) {
  namespace range = reply::memory_range;
  namespace line = reply::memory_range_series;
  m->lines.clear();
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (l.depth == 0 && k[0] == range::kT0) m->reply_t0 = json_number(l);
    if (l.depth == 0 && k[0] == range::kT1) m->reply_t1 = json_number(l);
    if (k[0] != range::kSeries) return;
    if (l.depth == 1) m->lines.emplace_back();
    if (l.depth < 2 || m->lines.empty()) return;
    MemoryView::Line& s = m->lines.back();
    if (l.depth == 2 && k[2] == line::kComponent) s.component = l.value;
    if (l.depth != 3) return;
    const float v = static_cast<float>(json_number(l));  // null → NaN
    if (k[2] == line::kAmin)
      s.amin.push_back(v);
    else if (k[2] == line::kAmax)
      s.amax.push_back(v);
    else if (k[2] == line::kRmin)
      s.rmin.push_back(v);
    else if (k[2] == line::kRmax)
      s.rmax.push_back(v);
  });
}

void memory_read_live(MemoryView* m, const std::vector<JsonLine>& lines) {
  namespace live = reply::memory_live;
  namespace group = reply::memory_group;
  m->live_top.clear();
  m->live_groups.clear();
  m->live_run = MemoryView::XlaRun{};
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] == live::kModule && l.depth == 1) read_run(&m->live_run, k[1], l);
    if (l.depth == 0 && k[0] == live::kBytes) m->live_bytes = json_number(l);
    if (l.depth == 0 && k[0] == live::kCount) m->live_count = static_cast<int>(json_number(l));
    if (k[0] == live::kTop) {
      if (l.depth == 1)
        m->live_top.emplace_back();
      else if (l.depth == 2 && !m->live_top.empty())
        read_alloc(&m->live_top.back(), k[2], l);
    } else if (k[0] == live::kGroups) {
      if (l.depth == 1) m->live_groups.emplace_back();
      if (l.depth != 2 || m->live_groups.empty()) return;
      MemoryView::Group& g = m->live_groups.back();
      if (k[2] == group::kKey)
        g.key = l.value;
      else if (k[2] == group::kBytes)
        g.bytes = json_number(l);
      else if (k[2] == group::kCount)
        g.count = static_cast<int>(json_number(l));
      else if (k[2] == group::kShare)
        g.share = json_number(l);
      else if (k[2] == group::kBeforeTrace)
        g.before_trace = l.value == "true";
    }
  });
}

void memory_read_allocs(MemoryView* m, const std::vector<JsonLine>& lines) {
  m->allocs.clear();
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] != reply::memory_allocs::kRows) return;
    if (l.depth == 1)
      m->allocs.emplace_back();
    else if (l.depth == 2 && !m->allocs.empty())
      read_alloc(&m->allocs.back(), k[2], l);
  });
  m->order_dirty = true;
}

// The memory_module reply: the run with the most memory is the one shown.
void memory_read_module(MemoryView* m, const std::vector<JsonLine>& lines) {
  namespace mod = reply::memory_module;
  m->focus_run = MemoryView::XlaRun{};
  m->focus_runs = 0;
  m->focus_why.clear();
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (l.depth == 0 && k[0] == mod::kRuns) m->focus_runs = static_cast<int>(json_number(l));
    if (l.depth == 0 && k[0] == mod::kWhy) m->focus_why = l.value;
    if (l.depth == 1 && k[0] == mod::kPeak) read_run(&m->focus_run, k[1], l);
  });
  m->focus_answered = true;
}

}  // namespace

bool memory_view_result(MemoryView* m, uint32_t id, const char* json) {
  if (id != m->summary_query && id != m->range_query && id != m->live_query &&
      id != m->allocs_query && id != m->focus_query)
    return false;
  std::vector<JsonLine> lines;
  std::string err;
  json_flatten(json, &lines, &err);
  if (id == m->summary_query) {
    memory_read_summary(m, lines);
    m->summary_ready = true;
    // Start on the device with the highest peak: where an OOM would strike first.
    m->device = 0;
    for (int i = 1; i < static_cast<int>(m->devices.size()); ++i)
      if (m->devices[i].peak > m->devices[m->device].peak) m->device = i;
  } else if (id == m->range_query) {
    memory_read_range(m, lines);
  } else if (id == m->live_query) {
    memory_read_live(m, lines);
  } else if (id == m->focus_query) {
    memory_read_module(m, lines);
  } else {
    memory_read_allocs(m, lines);
  }
  return true;
}

}  // namespace strata
