#include "engine/compare/op_diff.h"

#include <unordered_map>

#include "core/analysis/gpu_work.h"
#include "core/diff/keyed_diff.h"
#include "core/query/hierarchy.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/analysis/framework_op_xplane.h"
#include "engine/analysis/op_metrics.h"

namespace strata {

namespace {

void add(KeyedEvents* k, uint32_t e, std::string_view name) {
  k->events.push_back(e);
  k->names.push_back(name);
}

bool is_slice(char phase) { return phase == 'X' || phase == 'B'; }

}  // namespace

KeyedEvents op_events(const TraceStore& s, OpDiffKey key) {
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

namespace {

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
  const KeyedEvents k = op_events(s, key);
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
  // The shared keyed diff (core/diff/keyed_diff.h) matches the names and orders them; the
  // figures stay here, one per side per name id.
  KeyedJoin join;
  std::vector<OpDiffSide> fa, fb;
  auto take = [&](DiffSide side, std::vector<std::pair<std::string, OpDiffSide>> figures) {
    std::vector<OpDiffSide>& f = side == DiffSide::kA ? fa : fb;
    for (auto& [name, fig] : figures) {
      const uint32_t id = join.add(side, name);
      if (id >= f.size()) f.resize(id + 1);
      f[id] = fig;
    }
  };
  take(DiffSide::kA, op_figures(a, key));
  take(DiffSide::kB, op_figures(b, key));
  fa.resize(join.size());
  fb.resize(join.size());
  const KeyedDiff k = split_keys(
      join, [&](uint32_t id) { return same(fa[id], fb[id]); },
      [&](uint32_t id) { return static_cast<double>(magnitude(fb[id].total - fa[id].total)); },
      [&](uint32_t id) { return static_cast<double>(fa[id].total); },
      [&](uint32_t id) { return static_cast<double>(fb[id].total); });
  auto rows = [&](const std::vector<uint32_t>& ids, std::vector<OpDiffRow>* out) {
    for (uint32_t id : ids) out->push_back(OpDiffRow{join.key(id), fa[id], fb[id]});
  };
  rows(k.changed, &d.changed);
  rows(k.added, &d.added);
  rows(k.removed, &d.removed);
  d.unchanged = k.unchanged;
  return d;
}

}  // namespace strata
