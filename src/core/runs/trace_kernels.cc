// The Kernel and Distributed views from a Chrome/Kineto trace.
//
// Kernels: every event of category "kernel" (memcpy / memset are not kernels, as in
// tb_plugin's kernel view, profiler/kernel_parser.py), grouped by name: count, total, min, avg,
// max; core type "GPU". by_op_type groups kernels by the operator that launched them
// (tb_plugin's "Group By Kernel Properties + Op Name" idea), "(unknown)" when the launch is not
// in the trace.
// Distributed, per trace (= per rank): HTA's temporal breakdown / comm-comp overlap
// (facebookresearch/HolisticTraceAnalysis, hta/analyzers/breakdown_analysis.py) splits GPU time
// into computation (kernels that are not communication), communication (NCCL kernels) and idle;
// the tb_plugin's distributed view (profiler/overall_parser.py, communication.py) shows
// computation, overlapping, communication and other per worker. Here: compute = union of the
// compute kernels' intervals, communication = union of NCCL/RCCL/HCCL kernels', overlap =
// their intersection, span = first to last device activity (kernels, memcpy, memset), free =
// span - (compute ∪ communication). memcpy/memset time therefore lands in free (HTA reports it
// as its own "memory" category; the four bars here have no place for it). The transfer /
// synchronisation split needs the peers' timing (tb_plugin matches collectives across
// workers): missing here.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/runs/run_stats.h"
#include "core/runs/runs_util.h"
#include "core/runs/trace_model.h"
#include "protocol/reply_keys_runs.h"

namespace strata::runs {
namespace {

using Interval = std::pair<TimeNs, TimeNs>;

// Sorts and merges in place; returns the covered length.
TimeNs merge(std::vector<Interval>* v) {
  std::sort(v->begin(), v->end());
  size_t w = 0;
  for (const Interval& x : *v) {
    if (w > 0 && x.first <= (*v)[w - 1].second) {
      (*v)[w - 1].second = std::max((*v)[w - 1].second, x.second);
    } else {
      (*v)[w++] = x;
    }
  }
  v->resize(w);
  TimeNs len = 0;
  for (const Interval& x : *v) len += x.second - x.first;
  return len;
}

// Length of the intersection of two merged interval lists.
TimeNs intersection(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  TimeNs len = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    TimeNs lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) len += hi - lo;
    if (a[i].second < b[j].second)
      ++i;
    else
      ++j;
  }
  return len;
}

}  // namespace

bool is_communication_kernel(std::string_view name) {
  return icontains(name, "nccl") || icontains(name, "rccl") || icontains(name, "hccl");
}

KernelTable trace_kernel_table(const TraceStore& s) {
  KernelTable out;
  const TraceModel m = build_trace_model(s, RecordLookup());
  const EventColumns& ev = s.events;
  std::unordered_map<StrId, size_t> by_name;
  std::unordered_map<std::string, size_t> by_op;
  std::vector<DurStats> kstats, ostats;
  DurStats all;
  std::vector<uint32_t> order;
  for (size_t i = 0; i < ev.size(); ++i)
    if (m.role[i] == Role::kKernel) order.push_back(uint32_t(i));
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return ev.start[a] != ev.start[b] ? ev.start[a] < ev.start[b] : a < b;
  });
  out.details.reserve(order.size());
  for (uint32_t i : order) {
    const double us = double(ev.dur[i]) / 1000.0;
    auto [it, fresh] = by_name.try_emplace(ev.name[i], out.rows.size());
    if (fresh) {
      out.rows.push_back({std::string(s.strings.get(ev.name[i])), "GPU", 0, 0, 0, 0, 0});
      kstats.emplace_back();
    }
    kstats[it->second].add(us);
    all.add(us);
    uint32_t launch = m.launcher[i];
    uint32_t op = launch != kNone ? m.op_anc[launch] : kNone;
    std::string op_name = op != kNone ? std::string(s.strings.get(ev.name[op])) : "(unknown)";
    auto [oi, ofresh] = by_op.try_emplace(op_name, out.by_op_type.size());
    if (ofresh) {
      out.by_op_type.push_back({op_name, "GPU", 0, 0, 0, 0, 0});
      ostats.emplace_back();
    }
    ostats[oi->second].add(us);

    KernelDetail d;
    d.name = out.rows[it->second].name;
    d.type = std::string(s.strings.get(ev.cat[i]));
    d.core_type = "GPU";
    // The step a kernel belongs to is the one its launch happened in (the GPU may run it after
    // the host moved on); without a launch, the step its start falls in.
    d.step = std::string(step_at(s, m, launch != kNone ? ev.start[launch] : ev.start[i]));
    d.start_us = double(ev.start[i] - s.start_ns) / 1000.0;
    d.duration_us = us;
    out.details.push_back(std::move(d));
  }
  for (size_t k = 0; k < out.rows.size(); ++k) {
    KernelRow& r = out.rows[k];
    r.count = kstats[k].count;
    r.total_us = kstats[k].total;
    r.min_us = kstats[k].min;
    r.avg_us = kstats[k].avg();
    r.max_us = kstats[k].max;
  }
  auto fill = [](KernelGroup* g, const DurStats& st) {
    g->count = st.count;
    g->total_us = st.total;
    g->min_us = st.min;
    g->avg_us = st.avg();
    g->max_us = st.max;
  };
  for (size_t k = 0; k < out.by_op_type.size(); ++k) fill(&out.by_op_type[k], ostats[k]);
  if (all.count) {
    out.by_core_type.push_back({"GPU", "", 0, 0, 0, 0, 0});
    fill(&out.by_core_type.back(), all);
  }
  auto by_total = [](const auto& a, const auto& b) { return a.total_us > b.total_us; };
  std::stable_sort(out.rows.begin(), out.rows.end(), by_total);
  std::stable_sort(out.by_op_type.begin(), out.by_op_type.end(), by_total);
  out.missing = {std::string(protocol::keys::runs_kernel_detail::kWaitUs),
                 std::string(protocol::keys::runs_kernel_detail::kBlockDim)};
  return out;
}

DistributedRow trace_distributed(const TraceStore& s, int card) {
  DistributedRow r;
  r.card = card;
  const TraceModel m = build_trace_model(s, RecordLookup());
  const EventColumns& ev = s.events;
  std::vector<Interval> comp, comm;
  TimeNs lo = 0, hi = 0;
  bool any = false;
  std::unordered_map<StrId, size_t> ops;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (!is_device(m.role[i])) continue;
    const TimeNs a = ev.start[i], b = a + ev.dur[i];
    lo = any ? std::min(lo, a) : a;
    hi = any ? std::max(hi, b) : b;
    any = true;
    if (m.role[i] != Role::kKernel) continue;
    if (is_communication_kernel(s.strings.get(ev.name[i]))) {
      comm.push_back({a, b});
      // The comm op table: by the launching operator ("nccl:all_reduce", "c10d::allreduce_")
      // when known, else by the kernel's name.
      uint32_t launch = m.launcher[i];
      uint32_t op = launch != kNone ? m.op_anc[launch] : kNone;
      StrId key = op != kNone ? ev.name[op] : ev.name[i];
      auto [it, fresh] = ops.try_emplace(key, r.comm_ops.size());
      if (fresh) {
        CommOpRow o;
        o.name = std::string(s.strings.get(key));
        r.comm_ops.push_back(std::move(o));
      }
      ++r.comm_ops[it->second].calls;
      r.comm_ops[it->second].elapse_us += double(b - a) / 1000.0;
    } else {
      comp.push_back({a, b});
    }
  }
  const TimeNs c = merge(&comp), k = merge(&comm), o = intersection(comp, comm);
  r.compute_us = double(c) / 1000.0;
  r.communication_us = double(k) / 1000.0;
  r.overlap_us = double(o) / 1000.0;
  r.span_us = any ? double(hi - lo) / 1000.0 : 0.0;
  r.free_us = any ? double((hi - lo) - (c + k - o)) / 1000.0 : 0.0;
  std::sort(r.comm_ops.begin(), r.comm_ops.end(),
            [](const CommOpRow& x, const CommOpRow& y) { return x.elapse_us > y.elapse_us; });
  return r;
}

}  // namespace strata::runs
