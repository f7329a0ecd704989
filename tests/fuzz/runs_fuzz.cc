// libFuzzer target for the Runs view's readers. The first byte picks what the rest is:
//   0: a folder listing (one path a line) → run discovery, every view's availability, every
//      worker's spans and distributed set;
//   1: Ascend profiler tables, the parts separated by NUL bytes, in the order operator_details,
//      kernel_details, op_statistic, step_trace_time, communication.json, then msprof-analyze's
//      cluster_step_trace_time, cluster_communication.json;
//   2: a Chrome / Kineto trace → the store → the trace model and the operator, kernel,
//      distributed and step tables (records read back from the source bytes).
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/chrome_json/chrome_json_importer.h"
#include "core/runs/json_members.h"
#include "core/runs/run_discovery.h"
#include "core/runs/run_stats.h"
#include "core/runs/trace_model.h"
#include "core/store/trace_store.h"
#include "fuzz_target.h"

namespace {

using namespace strata;

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t at = 0;
  for (;;) {
    size_t end = text.find(sep, at);
    parts.push_back(
        text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) return parts;
    at = end + 1;
  }
}

void discovery(std::string_view text) {
  std::vector<std::string> paths;
  for (std::string_view p : split(text, '\n')) paths.emplace_back(p);
  RunDiscovery d = discover_runs(paths);
  for (const DiscoveredRun& run : d.runs) {
    for (size_t p = 0; p < run.profiles.size() && p < 16; ++p) {
      for (int v = 0; v < kRunViewCount; ++v)
        run_view_availability(d, run, p, static_cast<RunView>(v));
      for (uint32_t q : run_distributed_set(run, p))
        if (q >= run.profiles.size()) __builtin_trap();
      for (int f = 0; f < kRunFileCount; ++f) {
        int32_t i = run.profiles[p].file[f];
        if (i != -1 && (i < 0 || static_cast<size_t>(i) >= paths.size())) __builtin_trap();
      }
    }
    for (const std::string& w : run.workers)
      for (const std::string& s : run_worker_spans(run, w))
        if (run_find_profile(run, w, s) < 0) __builtin_trap();
  }
}

void ascend_tables(std::string_view text) {
  std::vector<std::string_view> parts = split(text, '\0');
  parts.resize(7);
  std::string error;
  runs::ascend_operator_table(parts[0], false, &error);
  runs::ascend_operator_table(parts[0], true, &error);
  runs::KernelTable k = runs::ascend_kernel_table(parts[1], parts[2], "", &error);
  if (!k.details.empty()) runs::ascend_kernel_table(parts[1], parts[2], k.details[0].step, &error);
  runs::DistributedTable d = runs::ascend_card_distributed(0, parts[3], parts[4], "", &error);
  runs::ascend_card_distributed(1, parts[3], parts[4], "1", &error);
  runs::ascend_cluster_distributed(parts[5], parts[6], &error);
  runs::StepOpTimes a = runs::ascend_step_op_times(parts[1], &error);
  runs::step_diff(a, a, "");
  std::vector<JsonMember> members;
  json_object_members(parts[4], &members);
}

void trace_tables(std::string_view text) {
  TraceStore store;
  auto importer = make_chrome_json_importer(&store);
  importer->feed(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  importer->finish();
  runs::OperatorTable ops = runs::trace_operator_table(store, text, true);
  runs::diff_operators(ops, runs::trace_operator_table(store, text, false));
  runs::trace_kernel_table(store);
  runs::trace_distributed(store, 0);
  runs::StepOpTimes steps = runs::trace_step_op_times(store);
  runs::step_diff(steps, steps, "");
  const runs::RecordLookup record = [&](uint32_t e) { return runs::record_text(store, text, e); };
  runs::TraceModel m = runs::build_trace_model(store, record);
  for (uint32_t l : m.launcher)
    if (l != kNone && l >= store.events.size()) __builtin_trap();
  for (uint32_t e = 0; e < store.events.size() && e < 64; ++e)
    runs::raw_arg(runs::record_text(store, text, e), "correlation");
}

}  // namespace

STRATA_FUZZ_TARGET(runs) {
  if (size < 1) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 3) {
    case 0:
      discovery(text);
      break;
    case 1:
      ascend_tables(text);
      break;
    default:
      trace_tables(text);
      break;
  }
}
