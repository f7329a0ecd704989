// The Diff view: two runs side by side.
//
// tb_plugin's diff (pytorch/kineto tb_plugin profiler/diffrun/tree.py, operator.py) aligns the
// two runs' operator trees node by node and, for the selected node, charts each child's time in
// both runs with the running sum of the differences; its table lists host, self host, device
// and self device durations of both runs with their differences. Here the alignment is by
// name: operators by (name, input shape) over the whole run, and a step's time by operator type
// (Ascend: kernel Type; Kineto: the step's top-level operators). Sequence alignment of the
// trees (which tells two calls of one name apart by position) is not done.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/diff/keyed_diff.h"
#include "core/runs/run_stats.h"
#include "core/runs/runs_util.h"

namespace strata::runs {
namespace {

double ratio(double b, double a) { return a != 0 ? b / a : kMissing; }

std::string_view bare_step(std::string_view s) {
  if (s.size() > 4 && iequals(s.substr(0, 4), "step")) s.remove_prefix(4);
  return s;
}

}  // namespace

std::vector<OperatorDiffRow> diff_operators(const OperatorTable& a, const OperatorTable& b) {
  // Keys joined by the shared keyed diff (core/diff/keyed_diff.h): A's in first-seen order,
  // then B's own; every key is listed (a side without it shows zeros), so no split here.
  KeyedJoin join;
  std::vector<OperatorDiffRow> out;
  auto row_for = [&](DiffSide side, const OperatorRow& r) -> OperatorDiffRow& {
    const uint32_t id = join.add(side, r.name + '\x1f' + r.input_shape);
    if (id == out.size()) {
      OperatorDiffRow d;
      d.name = r.name;
      d.input_shape = r.input_shape;
      out.push_back(std::move(d));
    }
    return out[id];
  };
  for (const OperatorRow& r : a.rows) {
    OperatorDiffRow& d = row_for(DiffSide::kA, r);
    d.a_calls += r.calls;
    d.a_host_us += or_zero(r.host_total_us);
    d.a_self_host_us += or_zero(r.host_self_us);
    d.a_device_us += or_zero(r.device_total_us);
    d.a_self_device_us += or_zero(r.device_self_us);
  }
  for (const OperatorRow& r : b.rows) {
    OperatorDiffRow& d = row_for(DiffSide::kB, r);
    d.b_calls += r.calls;
    d.b_host_us += or_zero(r.host_total_us);
    d.b_self_host_us += or_zero(r.host_self_us);
    d.b_device_us += or_zero(r.device_total_us);
    d.b_self_device_us += or_zero(r.device_self_us);
  }
  for (OperatorDiffRow& d : out) {
    d.host_diff_us = d.b_host_us - d.a_host_us;
    d.self_host_diff_us = d.b_self_host_us - d.a_self_host_us;
    d.device_diff_us = d.b_device_us - d.a_device_us;
    d.self_device_diff_us = d.b_self_device_us - d.a_self_device_us;
    d.host_ratio = ratio(d.b_host_us, d.a_host_us);
    d.self_host_ratio = ratio(d.b_self_host_us, d.a_self_host_us);
    d.device_ratio = ratio(d.b_device_us, d.a_device_us);
    d.self_device_ratio = ratio(d.b_self_device_us, d.a_self_device_us);
  }
  std::vector<uint32_t> ids(out.size());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
  order_by_change(
      join, &ids, [&](uint32_t id) { return std::fabs(out[id].device_diff_us); },
      [&](uint32_t id) { return std::fabs(out[id].host_diff_us); });
  std::vector<OperatorDiffRow> sorted;
  sorted.reserve(out.size());
  for (uint32_t id : ids) sorted.push_back(std::move(out[id]));
  return sorted;
}

StepDiff step_diff(const StepOpTimes& a, const StepOpTimes& b, std::string_view step) {
  StepDiff out;
  out.step = std::string(bare_step(step));
  KeyedJoin join;
  auto add = [&](const StepOpTimes& run, bool is_b) {
    for (const StepOpTimes::Entry& e : run.entries) {
      if (!out.step.empty() && bare_step(e.step) != out.step) continue;
      const uint32_t id = join.add(is_b ? DiffSide::kB : DiffSide::kA, e.op_type);
      if (id == out.rows.size()) {
        StepDiffRow r;
        r.op_type = e.op_type;
        out.rows.push_back(std::move(r));
      }
      StepDiffRow& r = out.rows[id];
      double& host = is_b ? r.b_host_us : r.a_host_us;
      if (!is_missing(e.host_us)) host = or_zero(host) + e.host_us;
      (is_b ? r.b_device_us : r.a_device_us) += e.device_us;
    }
  };
  add(a, false);
  add(b, true);
  bool any_device = false;
  for (const StepDiffRow& r : out.rows) any_device |= r.a_device_us != 0 || r.b_device_us != 0;
  for (StepDiffRow& r : out.rows) {
    r.diff_us =
        any_device ? r.b_device_us - r.a_device_us : or_zero(r.b_host_us) - or_zero(r.a_host_us);
  }
  auto weight = [&](const StepDiffRow& r) {
    return any_device ? std::max(r.a_device_us, r.b_device_us)
                      : std::max(or_zero(r.a_host_us), or_zero(r.b_host_us));
  };
  std::vector<uint32_t> ids(out.rows.size());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
  order_by_change(join, &ids, [&](uint32_t id) { return weight(out.rows[id]); });
  std::vector<StepDiffRow> sorted;
  sorted.reserve(ids.size());
  for (uint32_t id : ids) sorted.push_back(std::move(out.rows[id]));
  out.rows = std::move(sorted);
  double sum = 0;
  for (StepDiffRow& r : out.rows) {
    sum += r.diff_us;
    r.cumulative_diff_us = sum;
  }
  return out;
}

}  // namespace strata::runs
