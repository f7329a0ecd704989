#include "engine/analysis/framework_op_stats.h"

#include <algorithm>

#include "core/query/hierarchy.h"
#include "core/query/launches.h"
#include "engine/analysis/framework_op_xplane.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"

namespace strata {

bool is_framework_op_category(std::string_view cat) { return cat == "cpu_op" || cat == "Operator"; }

bool is_kernel_category(std::string_view cat) { return cat == "kernel" || cat == "Kernel"; }

TimeNs framework_op_self(const TraceStore& s, uint32_t op, const std::vector<uint8_t>& is_op) {
  // Host time of the framework ops nested nearest to `op`: what its self time leaves out.
  auto nested = [&](auto&& self, uint32_t e) -> TimeNs {
    TimeNs sum = 0;
    uint64_t n = 0;
    for (uint32_t c : children_of(s, e, SIZE_MAX, &n))
      sum += is_op[c] ? s.events.dur[c] : self(self, c);
    return sum;
  };
  return std::max<TimeNs>(0, s.events.dur[op] - nested(nested, op));
}

DeviceLaunches device_launches(const TraceStore& s) {
  std::vector<uint8_t> op_cat(s.strings.size(), 0);
  for (StrId id = 0; id < s.strings.size(); ++id)
    op_cat[id] = is_framework_op_category(s.strings.get(id));
  std::vector<uint32_t> ops;
  for (uint32_t e = 0; e < s.events.size(); ++e)
    if (op_cat[s.events.cat[e]]) ops.push_back(e);
  return device_launches(s, std::move(ops));
}

DeviceLaunches device_launches(const TraceStore& s, std::vector<uint32_t> framework_ops) {
  DeviceLaunches d;
  d.owner.assign(s.events.size(), kNone);
  d.framework_ops = std::move(framework_ops);
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

FrameworkOpRow& FrameworkOpRows::of(std::string_view name) {
  auto [it, added] = index.emplace(std::string(name), rows.size());
  if (added) {
    rows.emplace_back();
    rows.back().name = std::string(name);
  }
  return rows[it->second];
}

void add_host_framework_ops(const TraceStore& s, const std::vector<uint32_t>& ops,
                            bool with_launches, FrameworkOpRows* rows,
                            const std::vector<uint32_t>& row_of_op) {
  std::vector<uint8_t> is_op(s.events.size(), 0);
  for (uint32_t e : ops) is_op[e] = 1;
  DeviceLaunches d;
  if (with_launches) d = device_launches(s, ops);
  // Row per event name, looked up once per name.
  std::vector<uint32_t> row_of_name(s.strings.size(), kNone);
  auto row_of = [&](StrId name) -> FrameworkOpRow& {
    uint32_t& r = row_of_name[name];
    if (r == kNone) {
      rows->of(s.strings.get(name));
      r = static_cast<uint32_t>(rows->index[std::string(s.strings.get(name))]);
    }
    return rows->rows[r];
  };
  std::vector<uint32_t> row_of_event;  // per store event its row, when rows are given
  if (!row_of_op.empty()) {
    row_of_event.assign(s.events.size(), kNone);
    for (size_t i = 0; i < ops.size(); ++i) row_of_event[ops[i]] = row_of_op[i];
  }
  auto row_of_owner = [&](uint32_t e) -> FrameworkOpRow& {
    return row_of_event.empty() ? row_of(s.events.name[e]) : rows->rows[row_of_event[e]];
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    const uint32_t e = ops[i];
    FrameworkOpRow& r = row_of_owner(e);
    ++r.count;
    r.host_total += s.events.dur[e];
    r.host_self += framework_op_self(s, e, is_op);
    if (with_launches) {
      r.device_total += d.launched_ns[i];
      r.device_count += d.launched_count[i];
    }
    const uint32_t track = s.events.track[e];
    if (std::find(r.tracks.begin(), r.tracks.end(), track) == r.tracks.end())
      r.tracks.push_back(track);
  }
  if (!with_launches) return;
  for (uint32_t k = 0; k < s.events.size(); ++k)
    if (d.owner[k] != kNone) row_of_owner(d.owner[k]).device_self += s.events.dur[k];
}

bool framework_op_stats_available(const Engine& engine, std::string* why) {
  const TraceStore& s = *engine.store();
  if (s.xspace) return framework_op_xplane_available(s, why);
  for (StrId id = 0; id < s.strings.size(); ++id)
    if (is_framework_op_category(s.strings.get(id))) return true;
  *why = "The trace has no framework ops (PyTorch profiler cpu_op events).";
  return false;
}

AnalysisTable framework_op_stats_run(const Engine& engine, const QueryArgs& args) {
  if (engine.store()->xspace) return framework_op_xplane_run(engine, args);
  return framework_op_stats_table(
      *engine.store(), store_to_display(engine.display_tracks(), engine.store()->tracks.size()));
}

AnalysisTable framework_op_stats_table(const TraceStore& s,
                                       const std::vector<uint32_t>& display_of) {
  std::vector<uint32_t> ops = device_launches(s).framework_ops;
  FrameworkOpRows rows;
  add_host_framework_ops(s, ops, true, &rows);
  return framework_op_table(std::move(rows.rows), display_of, false);
}

namespace {

std::vector<AnalysisColumn> framework_op_columns(bool xplane) {
  if (!xplane)
    return {
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
  return {
      {"op", "Framework op", AnalysisUnit::kText,
       "The framework op's name, as XProf's TensorFlow Stats: a TensorFlow op's full name "
       "without its type (model/dense/MatMul), a JAX op's full name; an XLA op that names no "
       "framework op is a row of its own."},
      {"type", "Type", AnalysisUnit::kText,
       "Its type, as XProf's: a TensorFlow op's (MatMul) or a JAX op's (dot_general), Dataset "
       "for tf.data iterators, Unknown for a name that parses as neither."},
      {"count", "Count", AnalysisUnit::kCount,
       "Its events on the host threads, else (device only) XProf's occurrences: the most "
       "occurrences of any one of its device ops."},
      {"host_total", "Host total", AnalysisUnit::kNs,
       "Its time on the host threads, including the framework ops nested in it."},
      {"host_self", "Host self", AnalysisUnit::kNs,
       "Host time minus the framework ops nested in it on the same thread."},
      {"host_self_pct", "Host self %", AnalysisUnit::kPercent,
       "Its host self time as a share of all framework ops' host self time."},
      {"device_total", "Device total", AnalysisUnit::kNs,
       "Device time of the device ops of this framework op (XLA ops by their tf_op, summed over "
       "every XLA Ops event, nested ones too, as XProf's total time), or of the kernels and "
       "memcpys it launched."},
      {"device_self", "Device self", AnalysisUnit::kNs,
       "Device self time: XLA ops' time minus the ops nested in them, or what its own runtime "
       "calls launched."},
      {"device_self_pct", "Device self %", AnalysisUnit::kPercent,
       "Its device self time as a share of all device self time in the table (the device's busy "
       "time)."},
      {"launches", "Device events", AnalysisUnit::kCount,
       "Its device events: XLA op events, or kernels and memcpys launched."},
      {"avg_host", "Avg host", AnalysisUnit::kNs, "Host total / count."},
  };
}

AnalysisCell pct(TimeNs part, TimeNs all, const char* what) {
  return all > 0 ? AnalysisCell::of(100.0 * static_cast<double>(part) / static_cast<double>(all))
                 : AnalysisCell::empty(what);
}

}  // namespace

AnalysisTable framework_op_table(std::vector<FrameworkOpRow> rows,
                                 const std::vector<uint32_t>& display_of, bool xplane) {
  AnalysisTable t;
  t.title = "Framework Op Stats";
  TimeNs all_host_self = 0, all_device = 0;
  for (const FrameworkOpRow& r : rows) all_host_self += r.host_self, all_device += r.device_self;
  std::stable_sort(rows.begin(), rows.end(), [](const FrameworkOpRow& a, const FrameworkOpRow& b) {
    return a.device_self != b.device_self ? a.device_self > b.device_self
                                          : a.host_self > b.host_self;
  });
  t.columns = framework_op_columns(xplane);
  const char* no_host = "It ran on the device only: no event of it on the host threads.";
  for (const FrameworkOpRow& r : rows) {
    AnalysisRow row;
    const std::string& name = r.name;
    const bool host = r.count > 0 || !xplane;
    auto host_ns = [&](TimeNs v) {
      return host ? AnalysisCell::of(static_cast<double>(v)) : AnalysisCell::empty(no_host);
    };
    const uint64_t count = r.count > 0 || !xplane ? r.count : r.device_occurrences;
    row.cells = {AnalysisCell::of(name)};
    if (xplane) row.cells.push_back(AnalysisCell::of(r.type));
    row.cells.insert(
        row.cells.end(),
        {AnalysisCell::of(static_cast<double>(count)), host_ns(r.host_total), host_ns(r.host_self),
         host ? pct(r.host_self, all_host_self, "The framework ops took no host time.")
              : AnalysisCell::empty(no_host),
         AnalysisCell::of(static_cast<double>(r.device_total)),
         AnalysisCell::of(static_cast<double>(r.device_self)),
         pct(r.device_self, all_device, "No framework op has device time."),
         AnalysisCell::of(static_cast<double>(r.device_count)),
         host && r.count > 0
             ? AnalysisCell::of(static_cast<double>(r.host_total) / static_cast<double>(r.count))
             : AnalysisCell::empty(no_host)});
    row.link.name = r.link_name.empty() ? name : r.link_name;
    if (xplane) row.link.framework_op = name;
    for (uint32_t track : r.tracks)
      if (track < display_of.size() && display_of[track] != kNone)
        row.link.tracks.push_back(display_of[track]);
    if (row.link.tracks.size() != r.tracks.size()) row.link.tracks.clear();
    std::sort(row.link.tracks.begin(), row.link.tracks.end());
    t.rows.push_back(std::move(row));
  }
  if (!xplane) {
    if (all_device == 0)
      t.notes.push_back(
          "No device time: the trace has no correlation flows from runtime calls to GPU work.");
    t.notes.push_back(
        "Device time counts the kernels, memcpys and memsets launched through the runtime "
        "calls' correlation flows (ac2g).");
  }
  return t;
}

}  // namespace strata
