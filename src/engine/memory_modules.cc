#include "engine/memory_modules.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/base/json_writer.h"
#include "core/formats/xplane/xla_module_name.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/memory_viewer/heap_replay.h"
#include "engine/graph_session.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_memory.h"

namespace strata {

namespace {

constexpr std::string_view kDevicePrefix = "/device:";
constexpr std::string_view kXlaOpsLine = "XLA Ops";

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// The track named `line` in process `plane` (by its name), or kNone.
uint32_t line_of(const TraceStore& s, uint32_t process, std::string_view line) {
  for (uint32_t t : s.processes[process].tracks)
    if (s.strings.get(s.tracks[t].name) == line) return t;
  return kNone;
}

uint32_t process_named(const TraceStore& s, std::string_view plane) {
  for (uint32_t p = 0; p < s.processes.size(); ++p)
    if (s.strings.get(s.processes[p].name) == plane) return p;
  return kNone;
}

void append_runs(const TraceStore& s, uint32_t process, std::vector<XlaModuleRun>* out) {
  const uint32_t t = line_of(s, process, kXlaModulesLine);
  if (t == kNone || s.tracks[t].rows.size() < 2) return;
  const Track& tr = s.tracks[t];
  const std::string plane(s.strings.get(s.processes[process].name));
  TimeNs previous_end = 0;
  bool first = true;
  for (uint32_t e = tr.rows[0]; e < tr.rows[1]; ++e) {
    XlaModuleRun r;
    r.event = e;
    r.plane = plane;
    r.start = s.events.start[e];
    r.end = r.start + s.events.dur[e];
    // The first run's window reaches back to the trace's start: what was allocated before
    // any program ran was allocated for it.
    r.window_start = first ? std::min(r.start, s.start_ns) : std::min(previous_end, r.start);
    first = false;
    previous_end = std::max(previous_end, r.end);
    const std::string_view name = s.strings.get(s.events.name[e]);
    std::string_view module, program;
    if (split_module_name(name, &module, &program)) {
      r.module = std::string(module);
      r.program = std::string(program);
    } else {
      // GPU rows name the module only: its HloProto gives the program.
      r.module = std::string(name);
      int64_t id = 0;
      if (s.xspace && s.xspace->hlo_ops.program_of(name, &id))
        r.program = std::to_string(static_cast<uint64_t>(id));
    }
    out->push_back(std::move(r));
  }
}

namespace run_key = protocol::keys::memory_xla_run;
using protocol::append_key;

// A run's fields inside an object just opened (the caller closes it).
void append_run_fields(std::string* o, const XlaModuleRun& r, const GraphSession* g,
                       TimeNs origin) {
  append_key(o, run_key::kModule);
  json_append_string(o, r.module);
  append_key(o, run_key::kProgramId);
  json_append_string(o, r.program);
  append_key(o, run_key::kPlane);
  json_append_string(o, r.plane);
  append_key(o, run_key::kStartRelNs);
  json_append_number(o, static_cast<double>(r.start - origin));
  append_key(o, run_key::kEndRelNs);
  json_append_number(o, static_cast<double>(r.end - origin));
  append_key(o, run_key::kWindowStartRelNs);
  json_append_number(o, static_cast<double>(r.window_start - origin));
  const int32_t gm = g ? graph_module_of(*g, r.module, r.program) : -1;
  const bool assigned = gm >= 0 && !g->module(static_cast<uint32_t>(gm))->buffer_assignment.empty();
  append_key(o, run_key::kGraphModule);
  *o += std::to_string(gm);
  append_key(o, run_key::kBufferAssignment);
  *o += assigned ? "true" : "false";
  append_key(o, run_key::kWhy);
  json_append_string(o, assigned  ? ""
                        : gm >= 0 ? "its HloProto has no buffer assignment"
                                  : "no HLO module of that name or program in the profile");
}

}  // namespace

std::string memory_device_plane(std::string_view device) {
  if (device.starts_with(kDevicePrefix)) return std::string(device);
  // An allocator named after its device: KIND_N or KIND_N_<allocator> ("GPU_0_bfc").
  const size_t kind_end = device.find('_');
  if (kind_end == std::string_view::npos || kind_end == 0) return {};
  const std::string_view kind = device.substr(0, kind_end);
  if (!std::all_of(kind.begin(), kind.end(),
                   [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }))
    return {};
  std::string_view rest = device.substr(kind_end + 1);
  const std::string_view number = rest.substr(0, rest.find('_'));
  if (!all_digits(number)) return {};
  return std::string(kDevicePrefix) + std::string(kind) + ':' + std::string(number);
}

std::vector<XlaModuleRun> xla_module_runs(const TraceStore& s, std::string_view plane) {
  std::vector<XlaModuleRun> out;
  if (!plane.empty()) {
    const uint32_t p = process_named(s, plane);
    if (p != kNone) append_runs(s, p, &out);
    return out;
  }
  for (uint32_t p = 0; p < s.processes.size(); ++p) append_runs(s, p, &out);
  std::stable_sort(out.begin(), out.end(),
                   [](const XlaModuleRun& a, const XlaModuleRun& b) { return a.start < b.start; });
  return out;
}

const XlaModuleRun* xla_run_at(const std::vector<XlaModuleRun>& runs, TimeNs t, bool* during) {
  // The first run ending at or after t: t is inside it or in the gap before it.
  const auto it = std::lower_bound(runs.begin(), runs.end(), t,
                                   [](const XlaModuleRun& r, TimeNs v) { return r.end < v; });
  if (it == runs.end()) return nullptr;
  *during = it->start <= t;
  return &*it;
}

std::string xla_op_at(const TraceStore& s, std::string_view plane, TimeNs t) {
  const uint32_t p = process_named(s, plane);
  const uint32_t track = p == kNone ? kNone : line_of(s, p, kXlaOpsLine);
  if (track == kNone || s.tracks[track].rows.size() < 2) return {};
  const Track& tr = s.tracks[track];
  const TimeNs* start = s.events.start.data();
  // The top row is sorted by start: the last op starting at or before t, if it still runs.
  const uint32_t* first = &tr.rows[0];
  uint32_t lo = *first, hi = tr.rows[1];
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (start[mid] <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == *first) return {};
  const uint32_t e = lo - 1;
  if (start[e] + s.events.dur[e] < t) return {};
  const std::string_view name = s.strings.get(s.events.name[e]);
  return std::string(name.substr(0, name.find("::")));  // nested ops: the outer one
}

int32_t graph_module_of(const GraphSession& g, std::string_view module, std::string_view program) {
  const auto n = static_cast<uint32_t>(g.module_count());
  if (all_digits(program))
    for (uint32_t i = 0; i < n; ++i)
      if (g.module(i)->program_id >= 0 &&
          std::to_string(static_cast<uint64_t>(g.module(i)->program_id)) == program)
        return static_cast<int32_t>(i);
  int32_t named = -1;
  for (uint32_t i = 0; i < n; ++i) {
    if (g.module(i)->module_name != module) continue;
    if (!g.module(i)->buffer_assignment.empty()) return static_cast<int32_t>(i);
    if (named < 0) named = static_cast<int32_t>(i);
  }
  return named;
}

int64_t heap_point_of(const GraphSession& g, uint32_t module, std::string_view op) {
  if (op.empty()) return -1;
  std::string error;
  const memview::MemoryModel* mm = g.memory_model(module, &error);
  if (!mm) return -1;
  const int64_t color = mm->colors.empty() ? 0 : mm->colors[0];
  const memview::HeapProfile* p = g.heap_profile(module, color, &error);
  if (!p || p->trace < 0) return -1;
  const auto& events = mm->assignment.traces[static_cast<size_t>(p->trace)].events;
  int64_t first = -1, last_alloc = -1;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].instruction_name != op) continue;
    if (first < 0) first = static_cast<int64_t>(i);
    if (events[i].kind == hlo::HeapEventKind::kAlloc) last_alloc = static_cast<int64_t>(i);
  }
  return last_alloc >= 0 ? last_alloc : first;
}

bool memory_window_peak(const MemorySeries& series, TimeNs t0, TimeNs t1, double* bytes,
                        TimeNs* at) {
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<double>& v = pass ? series.reserved : series.allocated;
    // The sample in effect at t0, then every one up to t1.
    size_t i = static_cast<size_t>(std::upper_bound(series.ts.begin(), series.ts.end(), t0) -
                                   series.ts.begin());
    if (i > 0) --i;
    bool found = false;
    for (; i < series.size() && series.ts[i] <= t1; ++i) {
      if (std::isnan(v[i]) || (found && v[i] <= *bytes)) continue;
      found = true;
      *bytes = v[i];
      *at = std::max(series.ts[i], t0);
    }
    if (found) return true;
  }
  return false;
}

void append_live_module(std::string* o, const TraceStore& s, const GraphSession* g,
                        const std::string& device, TimeNs t, TimeNs origin) {
  const std::string plane = memory_device_plane(device);
  if (plane.empty()) return;
  const std::vector<XlaModuleRun> runs = xla_module_runs(s, plane);
  bool during = false;
  const XlaModuleRun* r = xla_run_at(runs, t, &during);
  if (!r) return;
  append_key(o, protocol::keys::memory_live::kModule);
  append_key(o, run_key::kDevice, '{');
  json_append_string(o, device);
  append_run_fields(o, *r, g, origin);
  append_key(o, run_key::kDuring);
  *o += during ? "true" : "false";
  // The op running at t, and where the heap simulator is then: only inside the run.
  const std::string op = during ? xla_op_at(s, plane, t) : std::string();
  const int32_t gm = g ? graph_module_of(*g, r->module, r->program) : -1;
  append_key(o, run_key::kOp);
  json_append_string(o, op);
  append_key(o, run_key::kPoint);
  *o += std::to_string(gm >= 0 ? heap_point_of(*g, static_cast<uint32_t>(gm), op) : -1);
  *o += '}';
}

std::string memory_module_json(const TraceStore& s, const MemoryData& m, const GraphSession* g,
                               std::string_view module, std::string_view program, TimeNs origin) {
  namespace key = protocol::keys::memory_module;
  struct Found {
    XlaModuleRun run;
    std::string device;
    double peak = -1;
    TimeNs peak_at = 0;
  };
  std::vector<Found> found;
  for (const std::string& device : memory_devices(m)) {
    const std::string plane = memory_device_plane(device);
    const uint32_t series = memory_primary_series(m, device);
    if (plane.empty() || series == kNone) continue;
    for (XlaModuleRun& r : xla_module_runs(s, plane)) {
      if (r.module != module || (!program.empty() && !r.program.empty() && r.program != program))
        continue;
      Found f{std::move(r), device};
      if (!memory_window_peak(m.series[series], f.run.window_start, f.run.end, &f.peak, &f.peak_at))
        f.peak = -1;
      found.push_back(std::move(f));
    }
  }
  std::string o;
  append_key(&o, key::kModule, '{');
  json_append_string(&o, module);
  append_key(&o, key::kProgramId);
  json_append_string(&o, program);
  append_key(&o, key::kRuns);
  o += std::to_string(found.size());
  if (found.empty()) {
    append_key(&o, key::kWhy);
    json_append_string(&o, "no run of this module on a device whose memory the profile records");
    return o + '}';
  }
  size_t first = 0, peak = 0;
  for (size_t i = 1; i < found.size(); ++i) {
    if (found[i].run.start < found[first].run.start) first = i;
    if (found[i].peak > found[peak].peak) peak = i;
  }
  auto run = [&](std::string_view k, const Found& f) {
    append_key(&o, k);
    append_key(&o, run_key::kDevice, '{');
    json_append_string(&o, f.device);
    append_run_fields(&o, f.run, g, origin);
    append_key(&o, run_key::kPeakBytes);
    json_append_number(&o, std::max(0.0, f.peak));
    append_key(&o, run_key::kPeakRelNs);
    json_append_number(&o, static_cast<double>((f.peak >= 0 ? f.peak_at : f.run.start) - origin));
    o += '}';
  };
  run(key::kFirst, found[first]);
  run(key::kPeak, found[peak]);
  return o + '}';
}

}  // namespace strata
