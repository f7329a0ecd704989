// The Kernel view from kernel_details.csv (+ op_statistic.csv), and per-step kernel time by op
// type for the Diff view.
//
// kernel_details.csv has one row per device task: Name, Type (op type), Accelerator Core
// (AI_CORE, AI_VECTOR_CORE, AI_CPU, MIX_AIC, MIX_AIV, ...; "N/A" at profiler level 0), Start
// Time(us), Duration(us), Wait Time(us), Block Dim, and at level 1 "Step Id", "Input Shapes",
// PMU columns (Ascend PyTorch Profiler user guide, kernel_details.csv). op_statistic.csv is the
// profiler's own per (OP Type, Core Type) summary: Count, Total/Min/Avg/Max Time(us), Ratio(%)
// (msprof "op_statistic" reference). The TensorBoard NPU plugin's Kernel view shows kernel
// time per accelerator core type and the top kernels as pies, every row ("Group By All") and
// count/total/avg/min/max per kernel ("Group By Statistic"); the GPU plugin groups the
// statistic by kernel name (pytorch/kineto tb_plugin profiler/kernel_parser.py). We group by
// name + core type, so a name run on two core types stays two rows.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/runs/run_stats.h"
#include "core/runs/runs_util.h"
#include "protocol/reply_keys_runs.h"

namespace strata::runs {
namespace {

// "step50" and "50" name the same step.
std::string_view bare_step(std::string_view s) {
  if (s.size() > 4 && iequals(s.substr(0, 4), "step")) s.remove_prefix(4);
  return s;
}

template <class Row>
void sort_by_total(std::vector<Row>* v) {
  std::stable_sort(v->begin(), v->end(),
                   [](const Row& a, const Row& b) { return a.total_us > b.total_us; });
}

void fill(KernelGroup* g, const DurStats& s) {
  g->count = s.count;
  g->total_us = s.total;
  g->min_us = s.min;
  g->avg_us = s.avg();
  g->max_us = s.max;
}

}  // namespace

KernelTable ascend_kernel_table(std::string_view kernel_csv, std::string_view op_stat_csv,
                                std::string_view step, std::string* error) {
  KernelTable out;
  CsvTable t;
  std::string err;
  if (!csv_parse(kernel_csv, &t, &err)) {
    if (error) *error = "kernel_details.csv: " + err;
    if (t.header.empty()) return out;
    out.warnings.push_back("kernel_details.csv: " + err);
  }
  const int c_name = find_column(t, {"Name", "Op Name"});
  const int c_dur = find_column(t, {"Duration(us)", "Task Duration(us)"});
  if (c_name < 0 || c_dur < 0) {
    if (error) *error = "kernel_details.csv: no Name or Duration(us) column";
    return out;
  }
  const int c_type = find_column(t, {"Type", "OP Type"});
  const int c_core = find_column(t, {"Accelerator Core", "Task Type"});
  const int c_step = find_column(t, {"Step Id", "Step ID"});
  const int c_start = find_column(t, {"Start Time(us)", "Task Start Time(us)"});
  const int c_wait = find_column(t, {"Wait Time(us)"});
  const int c_block = find_column(t, {"Block Dim", "Block Num"});
  const int c_shapes = find_column(t, {"Input Shapes"});
  if (c_core < 0) out.missing.emplace_back(protocol::keys::runs_kernel_detail::kCoreType);
  if (c_step < 0) out.missing.emplace_back(protocol::keys::runs_kernel_detail::kStep);
  if (c_wait < 0) out.missing.emplace_back(protocol::keys::runs_kernel_detail::kWaitUs);
  if (c_block < 0) out.missing.emplace_back(protocol::keys::runs_kernel_detail::kBlockDim);
  const std::string_view want = bare_step(step);
  if (!want.empty() && c_step < 0)
    out.warnings.push_back("kernel_details.csv has no Step Id: showing every step");

  std::unordered_map<std::string, size_t> by_kernel, by_core, by_type;
  std::vector<DurStats> kstats, cstats, tstats;
  std::vector<std::pair<std::string, std::string>> type_keys;  // (op type, core type)
  size_t bad = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (!want.empty() && c_step >= 0 && bare_step(t.cell(r, c_step)) != want) continue;
    double dur = cell_number(t, r, c_dur);
    if (is_missing(dur)) {
      ++bad;
      continue;
    }
    KernelDetail d;
    d.name = t.cell(r, c_name);
    d.type = cell_text(t, r, c_type);
    d.core_type = cell_text(t, r, c_core);
    d.step = cell_text(t, r, c_step);
    d.start_us = cell_number(t, r, c_start);
    d.duration_us = dur;
    d.wait_us = cell_number(t, r, c_wait);
    d.block_dim = cell_number(t, r, c_block);
    d.input_shapes = cell_text(t, r, c_shapes);

    std::string key = d.name + '\x1f' + d.core_type;
    auto [it, fresh] = by_kernel.try_emplace(key, out.rows.size());
    if (fresh) {
      out.rows.push_back({d.name, d.core_type, 0, 0, 0, 0, 0});
      kstats.emplace_back();
    }
    kstats[it->second].add(dur);
    auto [ci, cfresh] = by_core.try_emplace(d.core_type, out.by_core_type.size());
    if (cfresh) {
      out.by_core_type.push_back({d.core_type, "", 0, 0, 0, 0, 0});
      cstats.emplace_back();
    }
    cstats[ci->second].add(dur);
    auto [ti, tfresh] = by_type.try_emplace(d.type + '\x1f' + d.core_type, type_keys.size());
    if (tfresh) {
      type_keys.emplace_back(d.type, d.core_type);
      tstats.emplace_back();
    }
    tstats[ti->second].add(dur);
    out.details.push_back(std::move(d));
  }
  if (bad) out.warnings.push_back(std::to_string(bad) + " kernel rows without a duration skipped");
  for (size_t i = 0; i < out.rows.size(); ++i) {
    KernelRow& k = out.rows[i];
    const DurStats& s = kstats[i];
    k.count = s.count;
    k.total_us = s.total;
    k.min_us = s.min;
    k.avg_us = s.avg();
    k.max_us = s.max;
  }
  for (size_t i = 0; i < out.by_core_type.size(); ++i) fill(&out.by_core_type[i], cstats[i]);
  sort_by_total(&out.rows);
  sort_by_total(&out.by_core_type);

  // By op type: the profiler's op_statistic.csv when given (it covers all steps), else from
  // the kernel rows read above.
  bool from_stat = false;
  if (!op_stat_csv.empty() && want.empty()) {
    CsvTable s;
    if (csv_parse(op_stat_csv, &s, &err)) {
      const int o_type = find_column(s, {"OP Type", "Op Type"});
      const int o_core = find_column(s, {"Core Type"});
      const int o_count = find_column(s, {"Count"});
      const int o_total = find_column(s, {"Total Time(us)"});
      const int o_min = find_column(s, {"Min Time(us)"});
      const int o_avg = find_column(s, {"Avg Time(us)"});
      const int o_max = find_column(s, {"Max Time(us)"});
      if (o_type >= 0 && o_total >= 0) {
        from_stat = true;
        for (size_t r = 0; r < s.rows.size(); ++r) {
          KernelGroup g;
          g.key = s.cell(r, o_type);
          g.core_type = cell_text(s, r, o_core);
          g.count = count_or_zero(cell_number(s, r, o_count));
          g.total_us = or_zero(cell_number(s, r, o_total));
          g.min_us = cell_number(s, r, o_min);
          g.avg_us = cell_number(s, r, o_avg);
          g.max_us = cell_number(s, r, o_max);
          out.by_op_type.push_back(std::move(g));
        }
      }
    } else {
      out.warnings.push_back("op_statistic.csv: " + err);
    }
  }
  if (!from_stat) {
    for (size_t i = 0; i < type_keys.size(); ++i) {
      KernelGroup g;
      g.key = type_keys[i].first;
      g.core_type = type_keys[i].second;
      fill(&g, tstats[i]);
      out.by_op_type.push_back(std::move(g));
    }
  }
  sort_by_total(&out.by_op_type);
  return out;
}

StepOpTimes ascend_step_op_times(std::string_view kernel_csv, std::string* error) {
  StepOpTimes out;
  CsvTable t;
  std::string err;
  if (!csv_parse(kernel_csv, &t, &err) && error) *error = "kernel_details.csv: " + err;
  const int c_type = find_column(t, {"Type", "OP Type"});
  const int c_name = find_column(t, {"Name"});
  const int c_dur = find_column(t, {"Duration(us)"});
  const int c_step = find_column(t, {"Step Id", "Step ID"});
  if (c_dur < 0 || (c_type < 0 && c_name < 0)) {
    if (error && error->empty()) *error = "kernel_details.csv: no Type/Name or Duration(us)";
    return out;
  }
  std::unordered_map<std::string, size_t> index;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    double dur = cell_number(t, r, c_dur);
    if (is_missing(dur)) continue;
    std::string step = c_step >= 0 ? std::string(bare_step(t.cell(r, c_step))) : std::string();
    // Level-0 files write Type "N/A": the kernel name is the best op type there is.
    std::string type = cell_text(t, r, c_type);
    if (type.empty() || type == "N/A") type = cell_text(t, r, c_name);
    if (std::find(out.steps.begin(), out.steps.end(), step) == out.steps.end())
      out.steps.push_back(step);
    auto [it, fresh] = index.try_emplace(step + '\x1f' + type, out.entries.size());
    if (fresh) out.entries.push_back({step, type, kMissing, 0});
    out.entries[it->second].device_us += dur;
  }
  return out;
}

}  // namespace strata::runs
