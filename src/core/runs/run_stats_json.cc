#include "core/runs/run_stats_json.h"

#include "core/base/json_writer.h"

namespace strata::runs {
namespace {

void key(std::string* out, const char* k, bool first = false) {
  if (!first) out->push_back(',');
  json_append_string(out, k);
  out->push_back(':');
}

void num(std::string* out, const char* k, double v) {
  key(out, k);
  json_append_number(out, v);  // NaN → null
}

void str(std::string* out, const char* k, const std::string& v, bool first = false) {
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
    str(out, "name", r.name, true);
    if (t.grouped_by_shape) str(out, "inputShape", r.input_shape);
    num(out, "calls", double(r.calls));
    num(out, "hostSelfUs", r.host_self_us);
    num(out, "hostTotalUs", r.host_total_us);
    num(out, "deviceSelfUs", r.device_self_us);
    num(out, "deviceTotalUs", r.device_total_us);
    key(out, "aiCoreEligible");
    out->append(r.ai_core_eligible ? "true" : "false");
    num(out, "aiCoreSelfPct", r.ai_core_self_pct);
    num(out, "aiCoreTotalPct", r.ai_core_total_pct);
    if (with_stacks) {
      key(out, "callStacks");
      out->push_back('[');
      for (size_t k = 0; k < r.call_stacks.size(); ++k) {
        if (k) out->push_back(',');
        out->push_back('{');
        str(out, "stack", r.call_stacks[k].stack, true);
        num(out, "count", double(r.call_stacks[k].count));
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
    str(out, "name", r.name, true);
    str(out, "coreType", r.core_type);
    num(out, "count", double(r.count));
    num(out, "totalUs", r.total_us);
    num(out, "minUs", r.min_us);
    num(out, "avgUs", r.avg_us);
    num(out, "maxUs", r.max_us);
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
    key(out, "card", true);
    json_append_int(out, r.card);
    if (!r.step.empty()) str(out, "step", r.step);
    num(out, "computeUs", r.compute_us);
    num(out, "communicationUs", r.communication_us);
    num(out, "overlapUs", r.overlap_us);
    num(out, "freeUs", r.free_us);
    num(out, "spanUs", r.span_us);
    num(out, "transferUs", r.transfer_us);
    num(out, "waitUs", r.wait_us);
    num(out, "syncUs", r.sync_us);
    key(out, "commOps");
    out->push_back('[');
    for (size_t k = 0; k < r.comm_ops.size(); ++k) {
      const CommOpRow& o = r.comm_ops[k];
      if (k) out->push_back(',');
      out->push_back('{');
      str(out, "name", o.name, true);
      num(out, "calls", double(o.calls));
      num(out, "elapseUs", o.elapse_us);
      num(out, "transitUs", o.transit_us);
      num(out, "waitUs", o.wait_us);
      num(out, "syncUs", o.sync_us);
      num(out, "idleUs", o.idle_us);
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
    str(out, "name", d.name, true);
    if (!d.input_shape.empty()) str(out, "inputShape", d.input_shape);
    num(out, "aCalls", double(d.a_calls));
    num(out, "bCalls", double(d.b_calls));
    num(out, "aHostUs", d.a_host_us);
    num(out, "bHostUs", d.b_host_us);
    num(out, "aSelfHostUs", d.a_self_host_us);
    num(out, "bSelfHostUs", d.b_self_host_us);
    num(out, "aDeviceUs", d.a_device_us);
    num(out, "bDeviceUs", d.b_device_us);
    num(out, "aSelfDeviceUs", d.a_self_device_us);
    num(out, "bSelfDeviceUs", d.b_self_device_us);
    num(out, "hostDiffUs", d.host_diff_us);
    num(out, "selfHostDiffUs", d.self_host_diff_us);
    num(out, "deviceDiffUs", d.device_diff_us);
    num(out, "selfDeviceDiffUs", d.self_device_diff_us);
    num(out, "hostRatio", d.host_ratio);
    num(out, "selfHostRatio", d.self_host_ratio);
    num(out, "deviceRatio", d.device_ratio);
    num(out, "selfDeviceRatio", d.self_device_ratio);
    out->push_back('}');
  }
  out->push_back(']');
}

void step_diff_json(const StepDiff& d, std::string* out) {
  out->push_back('{');
  str(out, "step", d.step, true);
  key(out, "rows");
  out->push_back('[');
  for (size_t i = 0; i < d.rows.size(); ++i) {
    const StepDiffRow& r = d.rows[i];
    if (i) out->push_back(',');
    out->push_back('{');
    str(out, "opType", r.op_type, true);
    num(out, "aHostUs", r.a_host_us);
    num(out, "bHostUs", r.b_host_us);
    num(out, "aDeviceUs", r.a_device_us);
    num(out, "bDeviceUs", r.b_device_us);
    num(out, "diffUs", r.diff_us);
    num(out, "cumulativeDiffUs", r.cumulative_diff_us);
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
