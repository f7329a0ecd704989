#include "engine/analysis/framework_op_stats.h"

#include <algorithm>
#include <unordered_map>

#include "core/query/hierarchy.h"
#include "core/query/launches.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"

namespace strata {

namespace {

bool is_cpu_op(const TraceStore& s, uint32_t e) {
  return is_framework_op_category(s.strings.get(s.events.cat[e]));
}

// Host time of the framework ops nested in `op` nearest to it (through other slices such as
// Python frames or runtime calls in between): what its self time leaves out.
TimeNs nested_op_time(const TraceStore& s, uint32_t op) {
  TimeNs sum = 0;
  uint64_t n = 0;
  for (uint32_t c : children_of(s, op, SIZE_MAX, &n))
    sum += is_cpu_op(s, c) ? s.events.dur[c] : nested_op_time(s, c);
  return sum;
}

struct FrameworkOpRow {
  StrId name = 0;
  uint64_t count = 0, device_count = 0;
  TimeNs host_total = 0, host_self = 0, device_total = 0, device_self = 0;
  std::vector<uint32_t> tracks;  // store tracks of its events
};

}  // namespace

bool is_framework_op_category(std::string_view cat) { return cat == "cpu_op" || cat == "Operator"; }

bool is_kernel_category(std::string_view cat) { return cat == "kernel" || cat == "Kernel"; }

DeviceLaunches device_launches(const TraceStore& s) {
  DeviceLaunches d;
  d.owner.assign(s.events.size(), kNone);
  std::vector<uint8_t> op_cat(s.strings.size(), 0);
  for (StrId id = 0; id < s.strings.size(); ++id)
    op_cat[id] = is_framework_op_category(s.strings.get(id));
  for (uint32_t e = 0; e < s.events.size(); ++e)
    if (op_cat[s.events.cat[e]]) d.framework_ops.push_back(e);
  d.launched_count.assign(d.framework_ops.size(), 0);
  d.launched_ns.assign(d.framework_ops.size(), 0);
  // Deepest ops first: a device event goes to the first (innermost) op that launched it.
  std::vector<size_t> order(d.framework_ops.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return s.events.depth[d.framework_ops[a]] > s.events.depth[d.framework_ops[b]];
  });
  for (size_t i : order) {
    const Launched l = launched_by(s, d.framework_ops[i], SIZE_MAX);
    d.launched_count[i] = l.count;
    d.launched_ns[i] = l.total_ns;
    for (uint32_t k : l.events)
      if (d.owner[k] == kNone) d.owner[k] = d.framework_ops[i];
  }
  return d;
}

bool framework_op_stats_available(const Engine& engine, std::string* why) {
  const TraceStore& s = *engine.store();
  for (StrId id = 0; id < s.strings.size(); ++id)
    if (is_framework_op_category(s.strings.get(id))) return true;
  *why = "The trace has no framework ops (PyTorch profiler cpu_op events).";
  return false;
}

AnalysisTable framework_op_stats_run(const Engine& engine, const QueryArgs&) {
  return framework_op_stats_table(
      *engine.store(), store_to_display(engine.display_tracks(), engine.store()->tracks.size()));
}

AnalysisTable framework_op_stats_table(const TraceStore& s,
                                       const std::vector<uint32_t>& display_of) {
  AnalysisTable t;
  t.title = "Framework Op Stats";
  const DeviceLaunches d = device_launches(s);
  std::unordered_map<StrId, size_t> index;
  std::vector<FrameworkOpRow> rows;
  TimeNs all_host_self = 0, all_device = 0;
  for (size_t i = 0; i < d.framework_ops.size(); ++i) {
    const uint32_t e = d.framework_ops[i];
    auto [it, added] = index.emplace(s.events.name[e], rows.size());
    if (added) {
      rows.emplace_back();
      rows.back().name = s.events.name[e];
    }
    FrameworkOpRow& r = rows[it->second];
    const TimeNs self = std::max<TimeNs>(0, s.events.dur[e] - nested_op_time(s, e));
    ++r.count;
    r.host_total += s.events.dur[e];
    r.host_self += self;
    r.device_total += d.launched_ns[i];
    r.device_count += d.launched_count[i];
    all_host_self += self;
    const uint32_t track = s.events.track[e];
    if (std::find(r.tracks.begin(), r.tracks.end(), track) == r.tracks.end())
      r.tracks.push_back(track);
  }
  for (uint32_t k = 0; k < s.events.size(); ++k) {
    if (d.owner[k] == kNone) continue;
    rows[index[s.events.name[d.owner[k]]]].device_self += s.events.dur[k];
    all_device += s.events.dur[k];
  }
  std::stable_sort(rows.begin(), rows.end(), [](const FrameworkOpRow& a, const FrameworkOpRow& b) {
    return a.device_self != b.device_self ? a.device_self > b.device_self
                                          : a.host_self > b.host_self;
  });
  t.columns = {
      {"op", "Framework op", AnalysisUnit::kText, "The op's name (PyTorch cpu_op events)."},
      {"count", "Count", AnalysisUnit::kCount, "How many times it ran."},
      {"host_total", "Host total", AnalysisUnit::kNs,
       "Its host (CPU) time, including the framework ops nested in it."},
      {"host_self", "Host self", AnalysisUnit::kNs,
       "Host time minus the framework ops nested in it (runtime calls count as its own)."},
      {"host_self_pct", "Host self %", AnalysisUnit::kPercent,
       "Its host self time as a share of all framework ops' host self time."},
      {"device_total", "Device total", AnalysisUnit::kNs,
       "GPU time of the kernels, memcpys and memsets it launched, itself or through the ops "
       "nested in it (runtime calls' correlation flows)."},
      {"device_self", "Device self", AnalysisUnit::kNs,
       "GPU time of what its own runtime calls launched (not through nested ops)."},
      {"device_self_pct", "Device self %", AnalysisUnit::kPercent,
       "Its device self time as a share of all device time launched by framework ops."},
      {"launches", "Device events", AnalysisUnit::kCount,
       "Kernels, memcpys and memsets it launched (with nested ops)."},
      {"avg_host", "Avg host", AnalysisUnit::kNs, "Host total / count."},
  };
  for (const FrameworkOpRow& r : rows) {
    AnalysisRow row;
    const std::string name(s.strings.get(r.name));
    auto pct = [](TimeNs part, TimeNs all, const char* what) {
      return all > 0
                 ? AnalysisCell::of(100.0 * static_cast<double>(part) / static_cast<double>(all))
                 : AnalysisCell::empty(what);
    };
    row.cells = {
        AnalysisCell::of(name),
        AnalysisCell::of(static_cast<double>(r.count)),
        AnalysisCell::of(static_cast<double>(r.host_total)),
        AnalysisCell::of(static_cast<double>(r.host_self)),
        pct(r.host_self, all_host_self, "The framework ops took no host time."),
        AnalysisCell::of(static_cast<double>(r.device_total)),
        AnalysisCell::of(static_cast<double>(r.device_self)),
        pct(r.device_self, all_device, "No framework op launched device work."),
        AnalysisCell::of(static_cast<double>(r.device_count)),
        AnalysisCell::of(static_cast<double>(r.host_total) / static_cast<double>(r.count))};
    row.link.name = name;
    for (uint32_t track : r.tracks)
      if (track < display_of.size() && display_of[track] != kNone)
        row.link.tracks.push_back(display_of[track]);
    if (row.link.tracks.size() != r.tracks.size()) row.link.tracks.clear();
    std::sort(row.link.tracks.begin(), row.link.tracks.end());
    t.rows.push_back(std::move(row));
  }
  if (all_device == 0)
    t.notes.push_back(
        "No device time: the trace has no correlation flows from runtime calls to GPU work.");
  t.notes.push_back(
      "Device time counts the kernels, memcpys and memsets launched through the runtime calls' "
      "correlation flows (ac2g).");
  return t;
}

}  // namespace strata
