#include "engine/compare/op_diff.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/gpu_work.h"
#include "core/query/hierarchy.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/analysis/framework_op_xplane.h"
#include "engine/analysis/op_metrics.h"

namespace strata {

namespace {

// The events a key counts, each with the name it counts under (a view valid while the store
// is).
struct KeyedEvents {
  std::vector<uint32_t> events;
  std::vector<std::string_view> names;
};

void add(KeyedEvents* k, uint32_t e, std::string_view name) {
  k->events.push_back(e);
  k->names.push_back(name);
}

bool is_slice(char phase) { return phase == 'X' || phase == 'B'; }

KeyedEvents keyed_events(const TraceStore& s, OpDiffKey key) {
  KeyedEvents k;
  switch (key) {
    case OpDiffKey::kOperator:
      if (s.xspace) {
        for (uint32_t e : host_framework_op_events(s))
          add(&k, e, framework_op_name(s.strings.get(event_full_name(s, e))).name);
      } else {
        for (uint32_t e = 0; e < s.events.size(); ++e)
          if (is_framework_op_category(s.strings.get(s.events.cat[e])))
            add(&k, e, s.strings.get(s.events.name[e]));
      }
      break;
    case OpDiffKey::kKernel: {
      // xplane device streams and Ascend hardware streams (trace_view.json, the profiler's
      // db) carry no category: their compute and communication work, as the GPU breakdown
      // finds it; Kineto's kernels by category.
      const GpuWorkSet w = find_gpu_work(s);
      for (uint32_t e = 0; e < s.events.size(); ++e) {
        const bool work = w.work_of[e] == GpuWork::kCompute || w.work_of[e] == GpuWork::kComm;
        const StrId cat = s.events.cat[e];
        if (s.xspace || !cat ? work : is_kernel_category(s.strings.get(cat)))
          add(&k, e, s.strings.get(s.events.name[e]));
      }
      break;
    }
    case OpDiffKey::kXlaOp:
      for (const OpCore& c : op_cores(s))
        for (uint32_t t : c.tracks)
          for (uint32_t e = s.tracks[t].first_event;
               e < s.tracks[t].first_event + s.tracks[t].event_count; ++e)
            add(&k, e, s.strings.get(s.events.name[e]));
      break;
    case OpDiffKey::kCategory:
      for (uint32_t e = 0; e < s.events.size(); ++e)
        if (is_slice(s.events.phase[e])) add(&k, e, s.strings.get(s.events.cat[e]));
      break;
  }
  return k;
}

bool same(const OpDiffSide& x, const OpDiffSide& y) {
  return x.count == y.count && x.total == y.total && x.self == y.self;
}

TimeNs magnitude(TimeNs v) { return v < 0 ? -v : v; }

}  // namespace

const char* op_diff_key_name(OpDiffKey key) {
  switch (key) {
    case OpDiffKey::kOperator:
      return "operator";
    case OpDiffKey::kKernel:
      return "kernel";
    case OpDiffKey::kXlaOp:
      return "xla_op";
    case OpDiffKey::kCategory:
      return "category";
  }
  return "";
}

double OpDiffRow::delta_pct() const {
  return a.total > 0 ? 100.0 * static_cast<double>(delta()) / static_cast<double>(a.total) : 0;
}

std::vector<std::pair<std::string, OpDiffSide>> op_figures(const TraceStore& s, OpDiffKey key) {
  const KeyedEvents k = keyed_events(s, key);
  std::vector<std::pair<std::string, OpDiffSide>> out;
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < k.events.size(); ++i) {
    auto [it, added] = index.emplace(k.names[i], out.size());
    if (added) out.emplace_back(std::string(k.names[i]), OpDiffSide{});
    OpDiffSide& side = out[it->second].second;
    const uint32_t e = k.events[i];
    ++side.count;
    side.total += s.events.dur[e];
    side.self += self_time(s, e);
  }
  return out;
}

OpDiff diff_ops(const TraceStore& a, const TraceStore& b, OpDiffKey key) {
  OpDiff d;
  d.key = key;
  std::unordered_map<std::string, OpDiffSide> in_b;
  for (auto& [name, side] : op_figures(b, key)) in_b.emplace(std::move(name), side);
  for (auto& [name, side] : op_figures(a, key)) {
    auto it = in_b.find(name);
    OpDiffRow row;
    row.name = std::move(name);
    row.a = side;
    if (it == in_b.end()) {
      d.removed.push_back(std::move(row));
      continue;
    }
    row.b = it->second;
    in_b.erase(it);
    if (same(row.a, row.b))
      ++d.unchanged;
    else
      d.changed.push_back(std::move(row));
  }
  for (auto& [name, side] : in_b) {
    OpDiffRow row;
    row.name = name;
    row.b = side;
    d.added.push_back(std::move(row));
  }
  std::sort(d.changed.begin(), d.changed.end(), [](const OpDiffRow& x, const OpDiffRow& y) {
    const TimeNs mx = magnitude(x.delta()), my = magnitude(y.delta());
    return mx != my ? mx > my : x.name < y.name;
  });
  auto by_total = [](auto side) {
    return [side](const OpDiffRow& x, const OpDiffRow& y) {
      const TimeNs tx = (x.*side).total, ty = (y.*side).total;
      return tx != ty ? tx > ty : x.name < y.name;
    };
  };
  std::sort(d.added.begin(), d.added.end(), by_total(&OpDiffRow::b));
  std::sort(d.removed.begin(), d.removed.end(), by_total(&OpDiffRow::a));
  return d;
}

}  // namespace strata
