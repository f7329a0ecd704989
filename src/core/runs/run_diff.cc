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
#include <unordered_map>

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
  std::vector<OperatorDiffRow> out;
  std::unordered_map<std::string, size_t> index;
  auto row_for = [&](const OperatorRow& r) -> OperatorDiffRow& {
    std::string key = r.name + '\x1f' + r.input_shape;
    auto [it, fresh] = index.try_emplace(std::move(key), out.size());
    if (fresh) {
      OperatorDiffRow d;
      d.name = r.name;
      d.input_shape = r.input_shape;
      out.push_back(std::move(d));
    }
    return out[it->second];
  };
  for (const OperatorRow& r : a.rows) {
    OperatorDiffRow& d = row_for(r);
    d.a_calls += r.calls;
    d.a_host_us += or_zero(r.host_total_us);
    d.a_self_host_us += or_zero(r.host_self_us);
    d.a_device_us += or_zero(r.device_total_us);
    d.a_self_device_us += or_zero(r.device_self_us);
  }
  for (const OperatorRow& r : b.rows) {
    OperatorDiffRow& d = row_for(r);
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
  std::stable_sort(out.begin(), out.end(), [](const OperatorDiffRow& x, const OperatorDiffRow& y) {
    double dx = std::fabs(x.device_diff_us), dy = std::fabs(y.device_diff_us);
    if (dx != dy) return dx > dy;
    return std::fabs(x.host_diff_us) > std::fabs(y.host_diff_us);
  });
  return out;
}

StepDiff step_diff(const StepOpTimes& a, const StepOpTimes& b, std::string_view step) {
  StepDiff out;
  out.step = std::string(bare_step(step));
  std::unordered_map<std::string, size_t> index;
  auto add = [&](const StepOpTimes& run, bool is_b) {
    for (const StepOpTimes::Entry& e : run.entries) {
      if (!out.step.empty() && bare_step(e.step) != out.step) continue;
      auto [it, fresh] = index.try_emplace(e.op_type, out.rows.size());
      if (fresh) {
        StepDiffRow r;
        r.op_type = e.op_type;
        out.rows.push_back(std::move(r));
      }
      StepDiffRow& r = out.rows[it->second];
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
  std::stable_sort(
      out.rows.begin(), out.rows.end(),
      [&](const StepDiffRow& x, const StepDiffRow& y) { return weight(x) > weight(y); });
  double sum = 0;
  for (StepDiffRow& r : out.rows) {
    sum += r.diff_us;
    r.cumulative_diff_us = sum;
  }
  return out;
}

}  // namespace strata::runs
