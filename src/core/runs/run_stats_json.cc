#include "core/runs/run_stats_json.h"

#include "core/base/json_writer.h"
#include "protocol/reply_keys_runs.h"

namespace strata::runs {
namespace {

namespace op = protocol::keys::runs_operator;
namespace stack = protocol::keys::runs_call_stack;
namespace kernel = protocol::keys::runs_kernel;
namespace card = protocol::keys::runs_card;
namespace comm = protocol::keys::runs_comm_op;
namespace diff = protocol::keys::runs_operator_diff;
namespace step = protocol::keys::runs_step_diff;
namespace step_row = protocol::keys::runs_step_diff_row;

void key(std::string* out, std::string_view k, bool first = false) {
  if (!first) out->push_back(',');
  json_append_string(out, k);
  out->push_back(':');
}

void num(std::string* out, std::string_view k, double v) {
  key(out, k);
  json_append_number(out, v);  // NaN → null
}

void str(std::string* out, std::string_view k, const std::string& v, bool first = false) {
  key(out, k, first);
  json_append_string(out, v);
}

size_t cap(size_t n, size_t limit) { return limit && limit < n ? limit : n; }

}  // namespace

void operators_json(const OperatorTable& t, size_t limit, bool with_stacks, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < cap(t.rows.size(), limit); ++i) {
    const OperatorRow& r = t.rows[i];
    if (i) out->push_back(',');
    out->push_back('{');
    str(out, op::kName, r.name, true);
    if (t.grouped_by_shape) str(out, op::kInputShape, r.input_shape);
    num(out, op::kCalls, double(r.calls));
    num(out, op::kHostSelfUs, r.host_self_us);
    num(out, op::kHostTotalUs, r.host_total_us);
    num(out, op::kDeviceSelfUs, r.device_self_us);
    num(out, op::kDeviceTotalUs, r.device_total_us);
    key(out, op::kAiCoreEligible);
    out->append(r.ai_core_eligible ? "true" : "false");
    num(out, op::kAiCoreSelfPct, r.ai_core_self_pct);
    num(out, op::kAiCoreTotalPct, r.ai_core_total_pct);
    if (with_stacks) {
      key(out, op::kCallStacks);
      out->push_back('[');
      for (size_t k = 0; k < r.call_stacks.size(); ++k) {
        if (k) out->push_back(',');
        out->push_back('{');
        str(out, stack::kStack, r.call_stacks[k].stack, true);
        num(out, stack::kCount, double(r.call_stacks[k].count));
        out->push_back('}');
      }
      out->push_back(']');
    }
    out->push_back('}');
  }
  out->push_back(']');
}

void kernels_json(const KernelTable& t, size_t limit, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < cap(t.rows.size(), limit); ++i) {
    const KernelRow& r = t.rows[i];
    if (i) out->push_back(',');
    out->push_back('{');
    str(out, kernel::kName, r.name, true);
    str(out, kernel::kCoreType, r.core_type);
    num(out, kernel::kCount, double(r.count));
    num(out, kernel::kTotalUs, r.total_us);
    num(out, kernel::kMinUs, r.min_us);
    num(out, kernel::kAvgUs, r.avg_us);
    num(out, kernel::kMaxUs, r.max_us);
    out->push_back('}');
  }
  out->push_back(']');
}

void distributed_json(const DistributedTable& t, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const DistributedRow& r = t.rows[i];
    if (i) out->push_back(',');
    out->push_back('{');
    key(out, card::kCard, true);
    json_append_int(out, r.card);
    if (!r.step.empty()) str(out, card::kStep, r.step);
    num(out, card::kComputeUs, r.compute_us);
    num(out, card::kCommunicationUs, r.communication_us);
    num(out, card::kOverlapUs, r.overlap_us);
    num(out, card::kFreeUs, r.free_us);
    num(out, card::kSpanUs, r.span_us);
    num(out, card::kTransferUs, r.transfer_us);
    num(out, card::kWaitUs, r.wait_us);
    num(out, card::kSyncUs, r.sync_us);
    key(out, card::kCommOps);
    out->push_back('[');
    for (size_t k = 0; k < r.comm_ops.size(); ++k) {
      const CommOpRow& o = r.comm_ops[k];
      if (k) out->push_back(',');
      out->push_back('{');
      str(out, comm::kName, o.name, true);
      num(out, comm::kCalls, double(o.calls));
      num(out, comm::kElapseUs, o.elapse_us);
      num(out, comm::kTransitUs, o.transit_us);
      num(out, comm::kWaitUs, o.wait_us);
      num(out, comm::kSyncUs, o.sync_us);
      num(out, comm::kIdleUs, o.idle_us);
      out->push_back('}');
    }
    out->append("]}");
  }
  out->push_back(']');
}

void operator_diff_json(const std::vector<OperatorDiffRow>& rows, size_t limit, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < cap(rows.size(), limit); ++i) {
    const OperatorDiffRow& d = rows[i];
    if (i) out->push_back(',');
    out->push_back('{');
    str(out, diff::kName, d.name, true);
    if (!d.input_shape.empty()) str(out, diff::kInputShape, d.input_shape);
    num(out, diff::kACalls, double(d.a_calls));
    num(out, diff::kBCalls, double(d.b_calls));
    num(out, diff::kAHostUs, d.a_host_us);
    num(out, diff::kBHostUs, d.b_host_us);
    num(out, diff::kASelfHostUs, d.a_self_host_us);
    num(out, diff::kBSelfHostUs, d.b_self_host_us);
    num(out, diff::kADeviceUs, d.a_device_us);
    num(out, diff::kBDeviceUs, d.b_device_us);
    num(out, diff::kASelfDeviceUs, d.a_self_device_us);
    num(out, diff::kBSelfDeviceUs, d.b_self_device_us);
    num(out, diff::kHostDiffUs, d.host_diff_us);
    num(out, diff::kSelfHostDiffUs, d.self_host_diff_us);
    num(out, diff::kDeviceDiffUs, d.device_diff_us);
    num(out, diff::kSelfDeviceDiffUs, d.self_device_diff_us);
    num(out, diff::kHostRatio, d.host_ratio);
    num(out, diff::kSelfHostRatio, d.self_host_ratio);
    num(out, diff::kDeviceRatio, d.device_ratio);
    num(out, diff::kSelfDeviceRatio, d.self_device_ratio);
    out->push_back('}');
  }
  out->push_back(']');
}

void step_diff_json(const StepDiff& d, std::string* out) {
  out->push_back('{');
  str(out, step::kStep, d.step, true);
  key(out, step::kRows);
  out->push_back('[');
  for (size_t i = 0; i < d.rows.size(); ++i) {
    const StepDiffRow& r = d.rows[i];
    if (i) out->push_back(',');
    out->push_back('{');
    str(out, step_row::kOpType, r.op_type, true);
    num(out, step_row::kAHostUs, r.a_host_us);
    num(out, step_row::kBHostUs, r.b_host_us);
    num(out, step_row::kADeviceUs, r.a_device_us);
    num(out, step_row::kBDeviceUs, r.b_device_us);
    num(out, step_row::kDiffUs, r.diff_us);
    num(out, step_row::kCumulativeDiffUs, r.cumulative_diff_us);
    out->push_back('}');
  }
  out->append("]}");
}

void missing_json(const std::vector<std::string>& missing, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < missing.size(); ++i) {
    if (i) out->push_back(',');
    json_append_string(out, missing[i]);
  }
  out->push_back(']');
}

}  // namespace strata::runs
