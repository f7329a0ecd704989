// The Operator view from a Chrome/Kineto trace, with the tb_plugin's definitions
// (pytorch/kineto tb_plugin profiler/node.py, OperatorNode.fill_stats):
//   host total  = the operator's duration;
//   host self   = host total - its child operators' durations - the durations of the runtime
//                 calls it makes itself (from PyTorch 1.8 the profiler's self CPU time leaves
//                 runtime calls out, and the plugin follows it);
//   device self = device time (kernels, memcpy, memset) launched by its own runtime calls;
//   device total= device self + its child operators' device total.
// "Child" is the nearest operator below on the same thread (trace_model.h). Rows leave out the
// wrappers tb_plugin's is_operator_node() drops (enumerate(DataLoader)#...__next__,
// Optimizer.*, DataParallel.forward, DistributedDataParallel.forward) and ProfilerStep#N; they
// still count as parents. Input shapes ("Input Dims") and call stacks ("Call stack") come from
// the records' args when the source is given. Not done: tb_plugin's re-parenting of backward
// ops under their forward module, and Tensor Core eligibility (an allow-list of names there).
#include <algorithm>
#include <string>

#include "core/runs/operator_rows.h"
#include "core/runs/run_stats.h"
#include "core/runs/trace_model.h"
#include "protocol/reply_keys_runs.h"

namespace strata::runs {
namespace {

bool hidden_operator(std::string_view name) {
  if (name.substr(0, 22) == "enumerate(DataLoader)#" && name.size() >= 9 &&
      name.substr(name.size() - 9) == ".__next__")
    return true;
  return name.substr(0, 10) == "Optimizer." || name == "DataParallel.forward" ||
         name == "DistributedDataParallel.forward";
}

// Kineto's "Input Dims" value without blanks: [[32, 3], []] → [[32,3],[]].
std::string compact(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (char c : raw)
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  return out;
}

// A JSON string's text without quotes, with \" \\ \/ \n \t undone (other escapes kept).
std::string unquote(std::string_view raw) {
  if (raw.size() < 2 || raw.front() != '"') return std::string(raw);
  raw = raw.substr(1, raw.size() - 2);
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      char c = raw[++i];
      out.push_back(c == 'n' ? '\n' : c == 't' ? '\t' : c);
    } else {
      out.push_back(raw[i]);
    }
  }
  return out;
}

}  // namespace

// Per-event host self, device self and device total (ns), for operators.
struct OperatorTimes {
  std::vector<TimeNs> host_self, device_self, device_total;
};

static OperatorTimes operator_times(const TraceStore& s, const TraceModel& m) {
  const EventColumns& ev = s.events;
  const size_t n = ev.size();
  OperatorTimes t;
  t.host_self.assign(n, 0);
  t.device_self.assign(n, 0);
  t.device_total.assign(n, 0);
  uint32_t max_depth = 0;
  for (size_t i = 0; i < n; ++i) {
    if (m.role[i] == Role::kOperator) {
      t.host_self[i] += ev.dur[i];
      max_depth = std::max(max_depth, ev.depth[i]);
    }
    uint32_t a = m.op_anc[i];
    if (a != kNone && (m.role[i] == Role::kOperator || m.role[i] == Role::kRuntime))
      t.host_self[a] -= ev.dur[i];
    if (is_device(m.role[i]) && m.launcher[i] != kNone) {
      uint32_t op = m.op_anc[m.launcher[i]];
      if (op != kNone) t.device_self[op] += ev.dur[i];
    }
  }
  // Totals bottom-up: an operator's nearest operator ancestor is on a shallower row.
  std::vector<std::vector<uint32_t>> by_depth(max_depth + 1);
  for (size_t i = 0; i < n; ++i)
    if (m.role[i] == Role::kOperator) by_depth[ev.depth[i]].push_back(uint32_t(i));
  for (size_t i = 0; i < n; ++i) t.device_total[i] = t.device_self[i];
  for (uint32_t d = max_depth; d > 0; --d)
    for (uint32_t i : by_depth[d])
      if (m.op_anc[i] != kNone) t.device_total[m.op_anc[i]] += t.device_total[i];
  return t;
}

OperatorTable trace_operator_table(const TraceStore& s, std::string_view source,
                                   bool group_by_shape) {
  if (source.empty()) return trace_operator_table(s, RecordLookup(), group_by_shape);
  return trace_operator_table(
      s, [&](uint32_t e) { return record_text(s, source, e); }, group_by_shape);
}

std::vector<uint32_t> trace_events_with_args(const TraceStore& s) {
  const TraceModel m = build_trace_model(s, RecordLookup());
  bool need_corr = false;
  for (size_t i = 0; i < m.role.size() && !need_corr; ++i)
    need_corr = is_device(m.role[i]) && m.launcher[i] == kNone;
  std::vector<uint32_t> out;
  for (size_t i = 0; i < m.role.size(); ++i) {
    Role r = m.role[i];
    if (r == Role::kOperator || (need_corr && (r == Role::kRuntime || is_device(r))))
      out.push_back(uint32_t(i));
  }
  return out;
}

OperatorTable trace_operator_table(const TraceStore& s, const RecordLookup& record,
                                   bool group_by_shape) {
  OperatorTable out;
  out.grouped_by_shape = group_by_shape;
  const TraceModel m = build_trace_model(s, record);
  const OperatorTimes t = operator_times(s, m);
  const EventColumns& ev = s.events;
  bool any_device = false;
  for (Role r : m.role) any_device |= is_device(r);
  namespace op = protocol::keys::runs_operator;
  if (!any_device) {
    out.missing.emplace_back(op::kDeviceSelfUs);
    out.missing.emplace_back(op::kDeviceTotalUs);
  }
  out.missing.emplace_back(op::kAiCoreSelfPct);
  out.missing.emplace_back(op::kAiCoreTotalPct);
  if (!record) {
    out.missing.emplace_back(op::kCallStacks);
    if (group_by_shape) out.missing.emplace_back(op::kInputShape);
  }
  if (m.unpaired_device)
    out.warnings.push_back(std::to_string(m.unpaired_device) +
                           " device events without a known launch: not in any operator");

  OperatorGrouper g(group_by_shape);
  std::string shape, stack;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (m.role[i] != Role::kOperator) continue;
    std::string_view name = s.strings.get(ev.name[i]);
    if (hidden_operator(name)) continue;
    OperatorCall c;
    c.name = name;
    if (record) {
      std::string_view rec = record(uint32_t(i));
      if (group_by_shape) {
        shape = compact(raw_arg(rec, "Input Dims"));
        c.input_shape = shape;
      }
      stack = unquote(raw_arg(rec, "Call stack"));
      c.call_stack = stack;
    }
    c.host_total_us = double(ev.dur[i]) / 1000.0;
    c.host_self_us = double(t.host_self[i]) / 1000.0;
    c.device_self_us = double(t.device_self[i]) / 1000.0;
    c.device_total_us = double(t.device_total[i]) / 1000.0;
    g.add(c);
  }
  out.rows = g.finish();
  return out;
}

StepOpTimes trace_step_op_times(const TraceStore& s) {
  // The Diff view's per-step breakdown: the step's top-level operators (no operator above
  // them) by name, host = their duration, device = their device total, as tb_plugin's diff
  // compares the children of the selected node (profiler/diffrun/tree.py).
  StepOpTimes out;
  const TraceModel m = build_trace_model(s, RecordLookup());
  const OperatorTimes t = operator_times(s, m);
  const EventColumns& ev = s.events;
  for (uint32_t st : m.steps) out.steps.emplace_back(s.strings.get(ev.name[st]).substr(13));
  if (m.steps.empty()) out.steps.emplace_back();
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (m.role[i] != Role::kOperator || m.op_anc[i] != kNone) continue;
    std::string step(step_at(s, m, ev.start[i]));
    if (!m.steps.empty() && step.empty()) continue;  // outside every step
    std::string name(s.strings.get(ev.name[i]));
    auto [it, fresh] = index.try_emplace(step + '\x1f' + name, out.entries.size());
    if (fresh) out.entries.push_back({step, name, 0, 0});
    out.entries[it->second].host_us += double(ev.dur[i]) / 1000.0;
    out.entries[it->second].device_us += double(t.device_total[i]) / 1000.0;
  }
  return out;
}

}  // namespace strata::runs
