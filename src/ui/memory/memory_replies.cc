// Reading the engine's memory replies (JSON) into MemoryView's plain vectors.
#include <cmath>
#include <cstdlib>

#include "core/formats/json/json_flat.h"
#include "ui/memory/memory_view.h"

namespace strata {

namespace {

void read_alloc(MemoryView::Alloc* a, const std::string& key, const JsonLine& l) {
  if (key == "name")
    a->name = l.value;
  else if (key == "shape")
    a->shape = l.value;
  else if (key == "region")
    a->region = l.value;
  else if (key == "bytes")
    a->bytes = json_number(l);
  else if (key == "allocNs")
    a->alloc_t = json_number(l);
  else if (key == "releaseNs")
    a->release_t = json_number(l);
}

void memory_read_summary(MemoryView* m, const std::vector<JsonLine>& lines) {
  m->devices.clear();
  m->sources.clear();
  m->warnings.clear();
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] == "sources" && l.depth == 1) m->sources.push_back(l.value);
    if (k[0] == "warnings" && l.depth == 1) m->warnings.push_back(l.value);
    if (k[0] != "devices") return;
    if (l.depth == 1) m->devices.emplace_back();
    if (l.depth < 2 || m->devices.empty()) return;
    MemoryView::Device& d = m->devices.back();
    if (l.depth == 2) {
      if (k[2] == "name")
        d.name = l.value;
      else if (k[2] == "primary")
        d.primary = l.value;
      else if (k[2] == "peakBytes")
        d.peak = json_number(l);
      else if (k[2] == "startRelNs")
        d.start = json_number(l);
      else if (k[2] == "endRelNs")
        d.end = json_number(l);
      else if (k[2] == "peakRelNs")
        d.peak_t = json_number(l);
      else if (k[2] == "peakIsReserved")
        d.peak_reserved = l.value == "true";
      else if (k[2] == "noAddr")
        d.no_addr = l.value == "true";
      else if (k[2] == "samples")
        d.samples = static_cast<int>(json_number(l));
      else if (k[2] == "allocations")
        d.allocations = static_cast<int>(json_number(l));
      else if (k[2] == "unreleased")
        d.unreleased = static_cast<int>(json_number(l));
    } else if (k[2] == "series") {
      if (l.depth == 3) d.series.emplace_back();
      if (l.depth != 4 || d.series.empty()) return;
      MemoryView::Series& s = d.series.back();
      if (k[4] == "component")
        s.component = l.value;
      else if (k[4] == "samples")
        s.samples = static_cast<int>(json_number(l));
      else if (k[4] == "peakAllocated")
        s.peak_alloc = json_number(l);
      else if (k[4] == "peakAllocatedRelNs")
        s.peak_alloc_t = json_number(l);
      else if (k[4] == "peakReserved")
        s.peak_resv = json_number(l);
      else if (k[4] == "peakReservedRelNs")
        s.peak_resv_t = json_number(l);
    }
  });
}

void memory_read_range(MemoryView* m, const std::vector<JsonLine>& lines) {
  m->lines.clear();
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (l.depth == 0 && k[0] == "t0") m->reply_t0 = json_number(l);
    if (l.depth == 0 && k[0] == "t1") m->reply_t1 = json_number(l);
    if (k[0] != "series") return;
    if (l.depth == 1) m->lines.emplace_back();
    if (l.depth < 2 || m->lines.empty()) return;
    MemoryView::Line& s = m->lines.back();
    if (l.depth == 2 && k[2] == "component") s.component = l.value;
    if (l.depth != 3) return;
    const float v = static_cast<float>(json_number(l));  // null → NaN
    if (k[2] == "amin")
      s.amin.push_back(v);
    else if (k[2] == "amax")
      s.amax.push_back(v);
    else if (k[2] == "rmin")
      s.rmin.push_back(v);
    else if (k[2] == "rmax")
      s.rmax.push_back(v);
  });
}

void memory_read_live(MemoryView* m, const std::vector<JsonLine>& lines) {
  m->live_top.clear();
  m->live_groups.clear();
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (l.depth == 0 && k[0] == "bytes") m->live_bytes = json_number(l);
    if (l.depth == 0 && k[0] == "count") m->live_count = static_cast<int>(json_number(l));
    if (k[0] == "top") {
      if (l.depth == 1)
        m->live_top.emplace_back();
      else if (l.depth == 2 && !m->live_top.empty())
        read_alloc(&m->live_top.back(), k[2], l);
    } else if (k[0] == "groups") {
      if (l.depth == 1) m->live_groups.emplace_back();
      if (l.depth != 2 || m->live_groups.empty()) return;
      MemoryView::Group& g = m->live_groups.back();
      if (k[2] == "key")
        g.key = l.value;
      else if (k[2] == "bytes")
        g.bytes = json_number(l);
      else if (k[2] == "count")
        g.count = static_cast<int>(json_number(l));
      else if (k[2] == "share")
        g.share = json_number(l);
      else if (k[2] == "beforeTrace")
        g.before_trace = l.value == "true";
    }
  });
}

void memory_read_allocs(MemoryView* m, const std::vector<JsonLine>& lines) {
  m->allocs.clear();
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] != "rows") return;
    if (l.depth == 1)
      m->allocs.emplace_back();
    else if (l.depth == 2 && !m->allocs.empty())
      read_alloc(&m->allocs.back(), k[2], l);
  });
  m->order_dirty = true;
}

}  // namespace

bool memory_view_result(MemoryView* m, uint32_t id, const char* json) {
  if (id != m->summary_query && id != m->range_query && id != m->live_query &&
      id != m->allocs_query)
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
  } else {
    memory_read_allocs(m, lines);
  }
  return true;
}

}  // namespace strata
