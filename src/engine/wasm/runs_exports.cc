// C exports for the Runs tab (web/runs-worker.js, inside the engine worker): the statistics of
// one profile of a profiler folder, as JSON (engine/runs_json.h). Ascend profiles: the worker
// reads the CSV / JSON files the view needs and puts their text here by name (`runs_put`);
// Kineto profiles: the trace is the one the engine has loaded (the page opens it first), so
// the statistics read its TraceStore. Why here and not in a worker of their own: a Kineto
// trace's tables need the loaded store, and the CSVs are small.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/json_writer.h"
#include "core/runs/run_stats.h"
#include "core/runs/run_stats_json.h"
#include "core/store/trace_store.h"
#include "engine/memory_scan.h"

// engine_exports.cc: the engine's current trace.
const strata::TraceStore* engine_current_store();

namespace {
std::map<std::string, std::string> g_texts;  // file key → text ("a/operator_details.csv", ...)
std::vector<uint8_t> g_buf;
std::string g_json;

constexpr size_t kMaxKernelDetails = 5000;

void key(const char* k) {
  g_json += ',';
  strata::json_append_string(&g_json, k);
  g_json += ':';
}

void strings(const char* k, const std::vector<std::string>& v) {
  key(k);
  strata::runs::missing_json(v, &g_json);
}

// "operators", "operatorsMissing".
void operators(const strata::runs::OperatorTable& t) {
  key("operators");
  strata::runs::operators_json(t, 0, true, &g_json);
  strings("operatorsMissing", t.missing);
}

// "kernels" (Group By Statistic), "kernelCoreTypes" (the core-type pie), "kernelDetails" (Group
// By All: the first kMaxKernelDetails executions), "kernelDetailsTotal", "kernelsMissing".
void kernels(const strata::runs::KernelTable& t) {
  key("kernels");
  strata::runs::kernels_json(t, 0, &g_json);
  key("kernelCoreTypes");
  g_json += '[';
  for (size_t i = 0; i < t.by_core_type.size(); ++i) {
    const strata::runs::KernelGroup& g = t.by_core_type[i];
    g_json += i ? ",{\"name\":" : "{\"name\":";
    strata::json_append_string(&g_json, g.key);
    g_json += ",\"count\":";
    strata::json_append_int(&g_json, static_cast<int64_t>(g.count));
    g_json += ",\"totalUs\":";
    strata::json_append_number(&g_json, g.total_us);
    g_json += '}';
  }
  g_json += ']';
  key("kernelDetails");
  g_json += '[';
  const size_t n = std::min(t.details.size(), kMaxKernelDetails);
  for (size_t i = 0; i < n; ++i) {
    const strata::runs::KernelDetail& d = t.details[i];
    g_json += i ? ",{\"name\":" : "{\"name\":";
    strata::json_append_string(&g_json, d.name);
    const std::pair<const char*, const std::string*> texts[] = {
        {"type", &d.type}, {"coreType", &d.core_type}, {"step", &d.step}};
    for (const auto& [k, v] : texts) {
      key(k);
      strata::json_append_string(&g_json, *v);
    }
    const std::pair<const char*, double> nums[] = {{"startUs", d.start_us},
                                                   {"durationUs", d.duration_us},
                                                   {"waitUs", d.wait_us},
                                                   {"blockDim", d.block_dim}};
    for (const auto& [k, v] : nums) {
      key(k);
      strata::json_append_number(&g_json, v);
    }
    g_json += '}';
  }
  g_json += ']';
  key("kernelDetailsTotal");
  strata::json_append_int(&g_json, static_cast<int64_t>(t.details.size()));
  strings("kernelsMissing", t.missing);
}

void distributed(const std::vector<strata::runs::DistributedRow>& rows) {
  strata::runs::DistributedTable t;
  t.rows = rows;
  key("distributed");
  strata::runs::distributed_json(t, &g_json);
}

const std::string& text(const std::string& key) {
  static const std::string kNone;
  auto it = g_texts.find(key);
  return it == g_texts.end() ? kNone : it->second;
}

void append_error(std::vector<std::string>* errors, const std::string& file, std::string* e) {
  if (!e->empty()) errors->push_back(file + ": " + *e);
  e->clear();
}

void finish(std::vector<std::string>* errors) {
  strings("errors", *errors);
  g_json += '}';
}
// The records trace_operator_table reads (input shapes, call stacks, correlation ids) are
// not in the store: one pass over the loaded trace's source picks them all (as the memory
// chart's pass does, decompressing as it goes). Kept until the next pass.
strata::MemoryScan g_records;
std::unordered_map<uint32_t, size_t> g_record_of;  // event → record index in g_records

strata::runs::RecordLookup record_lookup() {
  if (g_record_of.empty()) return nullptr;
  return [](uint32_t event) -> std::string_view {
    auto it = g_record_of.find(event);
    return it == g_record_of.end() ? std::string_view()
                                   : std::string_view(g_records.record(it->second));
  };
}
}  // namespace

extern "C" {

// Scratch space for one file's bytes; then runs_put names it.
EMSCRIPTEN_KEEPALIVE uint8_t* runs_buffer(uint32_t n) {
  g_buf.resize(n);
  return g_buf.data();
}
EMSCRIPTEN_KEEPALIVE void runs_put(const char* key, uint32_t n) {
  g_texts[key].assign(reinterpret_cast<const char*>(g_buf.data()), n);
  g_buf.clear();
  g_buf.shrink_to_fit();
}
EMSCRIPTEN_KEEPALIVE void runs_clear() { g_texts.clear(); }

// The Ascend profile under prefix `p` ("a/"): operator_details.csv, kernel_details.csv,
// op_statistic.csv; and for Distributed every card's "card<N>/step_trace_time.csv" and
// "card<N>/communication.json" (cards 0..cards-1 that were put).
EMSCRIPTEN_KEEPALIVE const char* runs_ascend_stats(int group_by_shape, const char* step,
                                                   int cards) {
  // Only the tables whose files were put: the page reads what the shown view needs.
  std::vector<std::string> errors;
  std::string e;
  g_json = "{\"ok\":true";
  strata::runs::OperatorTable ops;
  if (!text("a/operator_details.csv").empty()) {
    ops = strata::runs::ascend_operator_table(text("a/operator_details.csv"), group_by_shape != 0,
                                              &e);
    append_error(&errors, "operator_details.csv", &e);
  }
  operators(ops);
  strata::runs::KernelTable k;
  if (!text("a/kernel_details.csv").empty()) {
    k = strata::runs::ascend_kernel_table(text("a/kernel_details.csv"), text("a/op_statistic.csv"),
                                          step, &e);
    append_error(&errors, "kernel_details.csv", &e);
  }
  kernels(k);
  std::vector<strata::runs::DistributedRow> rows;
  for (int c = 0; c < cards; ++c) {
    const std::string prefix = "card" + std::to_string(c) + "/";
    const std::string& stt = text(prefix + "step_trace_time.csv");
    if (stt.empty()) continue;
    const strata::runs::DistributedTable t = strata::runs::ascend_card_distributed(
        c, stt, text(prefix + "communication.json"), step, &e);
    append_error(&errors, prefix + "step_trace_time.csv", &e);
    rows.insert(rows.end(), t.rows.begin(), t.rows.end());
  }
  distributed(rows);
  finish(&errors);
  return g_json.c_str();
}

// Starts the pass; returns how many records are wanted (0: nothing to read). Then feed the
// source from its start through runs_buffer + runs_records_commit until that returns 1.
EMSCRIPTEN_KEEPALIVE uint32_t runs_records_begin() {
  const strata::TraceStore& s = *engine_current_store();
  std::vector<strata::MemoryScan::Want> wants;
  for (uint32_t e : strata::runs::trace_events_with_args(s))
    if (e < s.events.size() && s.events.src_len[e] > 0)
      wants.push_back({s.events.src_offset[e], s.events.src_len[e], e});
  const std::string c = s.files.empty() ? "none" : s.files[0].compression;
  g_records.begin(c == "gzip"   ? strata::Compression::kGzip
                  : c == "zstd" ? strata::Compression::kZstd
                                : strata::Compression::kNone,
                  std::move(wants));
  g_record_of.clear();
  return static_cast<uint32_t>(g_records.size());
}
EMSCRIPTEN_KEEPALIVE int runs_records_commit(uint32_t n) {
  const bool done = g_records.feed(g_buf.data(), std::min<size_t>(n, g_buf.size()));
  if (done && g_record_of.empty())
    for (size_t i = 0; i < g_records.size(); ++i) g_record_of[g_records.want(i).event] = i;
  return done ? 1 : 0;
}
// Forget the records (a new trace was loaded without a pass).
EMSCRIPTEN_KEEPALIVE void runs_records_clear() {
  g_records.begin(strata::Compression::kNone, {});
  g_record_of.clear();
}

// A side of a Diff taken from the loaded trace (runs_trace_keep): Kineto profiles are loaded
// one after the other, so each side's tables are kept until the diff is made.
struct KeptSide {
  strata::runs::OperatorTable ops;
  strata::runs::StepOpTimes steps;
};
std::map<std::string, KeptSide> g_kept;  // "a" / "b"

// Keeps the loaded trace's operator table and per-step times as Diff side `slot` ("a" / "b").
EMSCRIPTEN_KEEPALIVE void runs_trace_keep(const char* slot, int group_by_shape) {
  const strata::TraceStore* store = engine_current_store();
  KeptSide& k = g_kept[slot];
  k.ops = strata::runs::trace_operator_table(*store, record_lookup(), group_by_shape != 0);
  k.steps = strata::runs::trace_step_op_times(*store);
}

// Diff of profile "a" (baseline) against "b": operator tables by name (+ shape) and, per step,
// time by operator type. A kept side (Kineto, runs_trace_keep) is used as kept; otherwise the
// side is Ascend: "<side>/operator_details.csv" and "<side>/kernel_details.csv".
EMSCRIPTEN_KEEPALIVE const char* runs_diff(int group_by_shape, const char* step) {
  std::vector<std::string> errors;
  std::string e;
  g_json = "{\"ok\":true";
  KeptSide side[2];
  const char* names[2] = {"a", "b"};
  for (int i = 0; i < 2; ++i) {
    auto it = g_kept.find(names[i]);
    if (it != g_kept.end()) {
      side[i] = std::move(it->second);
      continue;
    }
    const std::string pre = std::string(names[i]) + "/";
    side[i].ops = strata::runs::ascend_operator_table(text(pre + "operator_details.csv"),
                                                      group_by_shape != 0, &e);
    append_error(&errors, pre + "operator_details.csv", &e);
    if (!text(pre + "kernel_details.csv").empty()) {
      side[i].steps = strata::runs::ascend_step_op_times(text(pre + "kernel_details.csv"), &e);
      append_error(&errors, pre + "kernel_details.csv", &e);
    }
  }
  g_kept.clear();
  key("operatorDiff");
  strata::runs::operator_diff_json(strata::runs::diff_operators(side[0].ops, side[1].ops), 0,
                                   &g_json);
  std::vector<std::string> steps = side[0].steps.steps;
  for (const std::string& s : side[1].steps.steps)
    if (std::find(steps.begin(), steps.end(), s) == steps.end()) steps.push_back(s);
  key("stepDiff");
  strata::runs::step_diff_json(strata::runs::step_diff(side[0].steps, side[1].steps, step),
                               &g_json);
  strings("steps", steps);
  finish(&errors);
  return g_json.c_str();
}

// The loaded Kineto trace as one profile (card = its rank for the Distributed row).
EMSCRIPTEN_KEEPALIVE const char* runs_trace_stats(int group_by_shape, int card) {
  std::vector<std::string> errors;
  g_json = "{\"ok\":true";
  const strata::TraceStore* store = engine_current_store();
  const strata::runs::OperatorTable ops =
      strata::runs::trace_operator_table(*store, record_lookup(), group_by_shape != 0);
  operators(ops);
  kernels(strata::runs::trace_kernel_table(*store));
  distributed({strata::runs::trace_distributed(*store, card)});
  finish(&errors);
  return g_json.c_str();
}

}  // extern "C"
