// The Operator view from torch_npu's operator_details.csv.
//
// The file has one row per operator call; its columns are defined in the Ascend PyTorch
// Profiler user guide (Ascend/pytorch docs, "operator_details.csv"): Host Self Duration = host
// time minus the operators it calls, Host Total = its whole host time, Device Self/Total the
// same on the device, "... With AICore" the part of that device time spent on AI Core. torch_npu
// computes them from its op tree (torch_npu profiler OperatorViewParser, which also drops the
// ProfilerStep# nodes). So the view only groups rows: calls = rows, durations summed, as the
// TensorBoard plugin's operator table does with its per-call OperatorNodes (pytorch/kineto
// tb_plugin profiler/op_agg.py aggregates by name or by name + input shape).
// Differences: rows keep every operator the CSV lists (the GPU plugin additionally hides
// DataLoader/Optimizer wrappers); "AI Core eligible" is "some AI Core time" (the GPU plugin's
// Tensor Core eligibility comes from an allow-list of operator names, which the NPU has no
// equivalent of).
#include <string>

#include "core/runs/operator_rows.h"
#include "core/runs/run_stats.h"
#include "core/runs/runs_util.h"
#include "protocol/reply_keys_runs.h"

namespace strata::runs {

OperatorTable ascend_operator_table(std::string_view csv, bool group_by_shape, std::string* error) {
  OperatorTable out;
  out.grouped_by_shape = group_by_shape;
  CsvTable t;
  std::string err;
  if (!csv_parse(csv, &t, &err)) {
    if (error) *error = "operator_details.csv: " + err;
    if (t.header.empty()) return out;
    out.warnings.push_back("operator_details.csv: " + err);
  }
  const int c_name = find_column(t, {"Name", "Op Name"});
  if (c_name < 0) {
    if (error) *error = "operator_details.csv: no Name column";
    return out;
  }
  const int c_shape = find_column(t, {"Input Shapes", "Input Shape"});
  const int c_stack = find_column(t, {"Call Stack"});
  const int c_hs = find_column(t, {"Host Self Duration(us)"});
  const int c_ht = find_column(t, {"Host Total Duration(us)"});
  const int c_ds = find_column(t, {"Device Self Duration(us)"});
  const int c_dt = find_column(t, {"Device Total Duration(us)"});
  const int c_as = find_column(t, {"Device Self Duration With AICore(us)"});
  const int c_at = find_column(t, {"Device Total Duration With AICore(us)"});
  auto note_missing = [&](int col, std::string_view api) {
    if (col < 0) out.missing.emplace_back(api);
  };
  note_missing(c_hs, protocol::keys::runs_operator::kHostSelfUs);
  note_missing(c_ht, protocol::keys::runs_operator::kHostTotalUs);
  note_missing(c_ds, protocol::keys::runs_operator::kDeviceSelfUs);
  note_missing(c_dt, protocol::keys::runs_operator::kDeviceTotalUs);
  note_missing(c_as, protocol::keys::runs_operator::kAiCoreSelfPct);
  note_missing(c_at, protocol::keys::runs_operator::kAiCoreTotalPct);
  note_missing(c_stack, protocol::keys::runs_operator::kCallStacks);
  if (group_by_shape) note_missing(c_shape, protocol::keys::runs_operator::kInputShape);

  OperatorGrouper g(group_by_shape);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string& name = t.cell(r, c_name);
    if (name.empty()) continue;
    OperatorCall c;
    c.name = name;
    if (c_shape >= 0) c.input_shape = t.cell(r, c_shape);
    if (c_stack >= 0) c.call_stack = t.cell(r, c_stack);
    c.host_self_us = cell_number(t, r, c_hs);
    c.host_total_us = cell_number(t, r, c_ht);
    c.device_self_us = cell_number(t, r, c_ds);
    c.device_total_us = cell_number(t, r, c_dt);
    c.ai_core_self_us = cell_number(t, r, c_as);
    c.ai_core_total_us = cell_number(t, r, c_at);
    g.add(c);
  }
  out.rows = g.finish();
  // Columns the file lacks read as NaN, not 0, in the rows.
  for (OperatorRow& row : out.rows) {
    if (c_hs < 0) row.host_self_us = kMissing;
    if (c_ht < 0) row.host_total_us = kMissing;
    if (c_ds < 0) row.device_self_us = kMissing;
    if (c_dt < 0) row.device_total_us = kMissing;
  }
  return out;
}

}  // namespace strata::runs
