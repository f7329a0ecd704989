// Run statistics (issue 9): the numbers behind the TensorBoard NPU plugin's Operator, Kernel,
// Diff and Distributed views, computed in the core from either
//   * the Ascend profiler's tables (ASCEND_PROFILER_OUTPUT/operator_details.csv,
//     kernel_details.csv, op_statistic.csv, step_trace_time.csv, communication.json, and
//     msprof-analyze's cluster_step_trace_time.csv / cluster_communication.json), or
//   * a Chrome/Kineto trace already in a TraceStore (cpu_op / kernel / cuda_runtime events and
//     the launch flows that tie a runtime call to its kernels).
// Plain structs, times in microseconds as doubles (the CSVs' own unit; the API's `...Us`).
// A value the input cannot give is NaN and its column is listed in the table's `missing`.
// No UI, no browser: the engine or the UI calls these and turns the rows into JSON.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct TraceStore;

namespace runs {

inline constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
inline bool is_missing(double v) { return std::isnan(v); }

// ---- Operator view --------------------------------------------------------------------------

struct CallStackCount {
  std::string stack;  // as the profiler writes it (frames split by ';' and/or newlines)
  uint32_t count = 0;
};

struct OperatorRow {
  std::string name;
  std::string input_shape;  // empty unless the table is grouped by name + input shape
  uint64_t calls = 0;
  double host_self_us = 0;     // host total minus child operators (and, from traces, minus the
  double host_total_us = 0;    // runtime calls it makes), summed over calls
  double device_self_us = 0;   // device time of kernels the op launched itself
  double device_total_us = 0;  // ... and those its child operators launched
  // Ascend only ("Device Self/Total Duration With AICore"): AI Core eligible = some AI Core time;
  // the percentages are AI Core time / device time × 100 (NaN when device time is 0 or the
  // column is absent; Kineto: NaN, there is no AI Core).
  bool ai_core_eligible = false;
  double ai_core_self_pct = kMissing;
  double ai_core_total_pct = kMissing;
  std::vector<CallStackCount> call_stacks;  // distinct stacks, most frequent first
};

struct OperatorTable {
  std::vector<OperatorRow> rows;  // sorted by device self time, then host self time, descending
  bool grouped_by_shape = false;
  std::vector<std::string> missing;  // the keys (reply_keys_runs.h) of the columns the input lacks
  std::vector<std::string> warnings;
};

// ---- Kernel view ----------------------------------------------------------------------------

// One kernel execution ("Group By All").
struct KernelDetail {
  std::string name;
  std::string type;       // Ascend op type ("MatMulV2"); Kineto: the trace category ("kernel")
  std::string core_type;  // AI_CORE, AI_VECTOR_CORE, AI_CPU, MIX_AIC, MIX_AIV, ...; "GPU"
  std::string step;       // Ascend "Step Id"; Kineto: the ProfilerStep#N it starts in, or ""
  double start_us = 0;    // Ascend: epoch µs as written; Kineto: µs from the trace start
  double duration_us = 0;
  double wait_us = kMissing;    // Ascend "Wait Time(us)"
  double block_dim = kMissing;  // Ascend "Block Dim"
  std::string input_shapes;     // Ascend "Input Shapes" when present
};

// "Group By Statistic": one row per (kernel name, core type).
struct KernelRow {
  std::string name;
  std::string core_type;
  uint64_t count = 0;
  double total_us = 0, min_us = 0, avg_us = 0, max_us = 0;
};

// A pie slice: time per accelerator core type, or per op type (op_statistic.csv).
struct KernelGroup {
  std::string key;        // core type (by_core_type) or op type (by_op_type)
  std::string core_type;  // by_op_type: the op type's core type; "" in by_core_type
  uint64_t count = 0;
  double total_us = 0, min_us = 0, avg_us = 0, max_us = 0;
};

struct KernelTable {
  std::vector<KernelRow> rows;            // by total time, descending (top kernels pie = prefix)
  std::vector<KernelDetail> details;      // in input order (CSV rows; trace: by start time)
  std::vector<KernelGroup> by_core_type;  // by total time, descending
  std::vector<KernelGroup> by_op_type;    // Ascend op_statistic.csv (or computed from Type)
  std::vector<std::string> missing;
  std::vector<std::string> warnings;
};

// ---- Distributed view -----------------------------------------------------------------------

// One communication operator on one card (summed over its calls).
struct CommOpRow {
  std::string name;  // "hcom_allReduce__586_0_1@..." (Ascend) or "nccl:all_reduce"
  uint64_t calls = 0;
  double elapse_us = 0;          // total time of the op
  double transit_us = kMissing;  // data transfer
  double wait_us = kMissing;     // waiting for peers (includes synchronisation)
  double sync_us = kMissing;     // synchronisation before the first transfer
  double idle_us = kMissing;     // elapse - transit - wait (Ascend's "Idle Time")
};

// One card (rank) over the selected step(s). compute_us INCLUDES the overlapped part, and
// communication_us includes it too; so the bars are compute-only = compute - overlap,
// overlap, communication-only = communication - overlap, free, and they add up to span_us.
struct DistributedRow {
  int card = -1;     // rank id
  std::string step;  // the step, or "" when summed over all steps
  double compute_us = 0;
  double communication_us = 0;
  double overlap_us = 0;
  double free_us = 0;
  double span_us = kMissing;       // Ascend "Stage" / Kineto: the trace's span
  double bubble_us = kMissing;     // Ascend pipeline bubble (receive), when present
  double preparing_us = kMissing;  // Ascend "Preparing", when present
  // Communication split (Ascend communication.json; NaN from Kineto):
  double transfer_us = kMissing;  // sum of the ops' Transit Time
  double wait_us = kMissing;      // sum of Wait Time (synchronisation + waiting for peers)
  double sync_us = kMissing;      // sum of Synchronization Time
  std::vector<CommOpRow> comm_ops;
};

struct DistributedTable {
  std::vector<DistributedRow> rows;  // by card, then step
  std::vector<std::string> missing;
  std::vector<std::string> warnings;
};

// ---- Diff view ------------------------------------------------------------------------------

// Time per operator type in one step of two runs (a = baseline, b = experiment).
struct StepDiffRow {
  std::string op_type;
  double a_host_us = kMissing, b_host_us = kMissing;
  double a_device_us = 0, b_device_us = 0;
  double diff_us = 0;             // b_device - a_device (host when the runs have no device time)
  double cumulative_diff_us = 0;  // running sum of diff_us over the rows, in row order
};

struct StepDiff {
  std::string step;               // "" = the whole run
  std::vector<StepDiffRow> rows;  // by max(a, b) time, descending
};

// Per step: op type → host and device time. Built per run, compared by step_diff().
struct StepOpTimes {
  struct Entry {
    std::string step;
    std::string op_type;
    double host_us = kMissing;
    double device_us = 0;
  };
  std::vector<Entry> entries;
  std::vector<std::string> steps;  // in run order
};

struct OperatorDiffRow {
  std::string name;
  std::string input_shape;
  uint64_t a_calls = 0, b_calls = 0;
  double a_host_us = 0, b_host_us = 0;  // host total
  double a_self_host_us = 0, b_self_host_us = 0;
  double a_device_us = 0, b_device_us = 0;  // device total
  double a_self_device_us = 0, b_self_device_us = 0;
  // b - a, and b / a (NaN when a is 0).
  double host_diff_us = 0, self_host_diff_us = 0, device_diff_us = 0, self_device_diff_us = 0;
  double host_ratio = kMissing, self_host_ratio = kMissing, device_ratio = kMissing,
         self_device_ratio = kMissing;
};

// ---- Ascend tables (the CSV/JSON text of one file each; "" = the file is absent) -------------

// operator_details.csv: one row per operator call (Name, Input Shapes, Call Stack, Host
// Self/Total Duration(us), Device Self/Total Duration(us), Device Self/Total Duration With
// AICore(us)); columns by header name, absent ones reported in `missing`.
OperatorTable ascend_operator_table(std::string_view operator_details_csv, bool group_by_shape,
                                    std::string* error);

// kernel_details.csv (Name, Type, Accelerator Core, Start Time(us), Duration(us), Wait Time(us),
// Block Dim, Step Id, Input Shapes...) and, when given, op_statistic.csv for by_op_type.
// `step` filters kernel_details rows by Step Id ("" = all).
KernelTable ascend_kernel_table(std::string_view kernel_details_csv,
                                std::string_view op_statistic_csv, std::string_view step,
                                std::string* error);

// One card from its step_trace_time.csv (one row per step) and communication.json.
// `step` = "" sums all steps into one row; otherwise the row of that step ("50" or "step50").
DistributedTable ascend_card_distributed(int card, std::string_view step_trace_time_csv,
                                         std::string_view communication_json, std::string_view step,
                                         std::string* error);

// msprof-analyze's cluster_step_trace_time.csv (rows of Type "rank", Index = rank; "stage"
// rows skipped) and cluster_communication.json (group → step → op → rank → time info).
DistributedTable ascend_cluster_distributed(std::string_view cluster_step_trace_time_csv,
                                            std::string_view cluster_communication_json,
                                            std::string* error);

// Per step × kernel Type device time from kernel_details.csv, for step_diff().
StepOpTimes ascend_step_op_times(std::string_view kernel_details_csv, std::string* error);

// ---- Chrome / Kineto traces (the store after TraceBuilder::finish()) ------------------------

// Ascend's trace_view.json goes through the same path: its host times equal
// operator_details.csv's (tested), but its device tasks hang off CANN API calls, not operators,
// so prefer the CSVs for Ascend runs when present.
// `source` is the trace's decompressed bytes (the events' src_offset/src_len point into it).
// It is optional: with it, input shapes ("Input Dims"), call stacks ("Call stack") and the
// runtime → kernel pairing of traces without launch flows ("correlation" args) are read from
// each event's record; without it those are missing and only flows pair launches to kernels.
OperatorTable trace_operator_table(const TraceStore& store, std::string_view source,
                                   bool group_by_shape);
// The same when the source is not in memory: `record(event)` returns the event's record text
// ("" when unknown), e.g. read back by one streaming pass over the file (engine/memory_scan)
// for the events trace_events_with_args() lists. A null function = no records.
using RecordLookup = std::function<std::string_view(uint32_t event)>;
OperatorTable trace_operator_table(const TraceStore& store, const RecordLookup& record,
                                   bool group_by_shape);
// The events whose records trace_operator_table reads: operators (shapes, call stacks), and
// runtime calls and device events when some device event has no launch flow (correlation).
std::vector<uint32_t> trace_events_with_args(const TraceStore& store);
KernelTable trace_kernel_table(const TraceStore& store);
// One row per trace (= per rank; `card` is the caller's rank id, e.g. distributedInfo.rank).
// compute = union of non-communication kernel intervals, communication = union of NCCL/HCCL
// kernels, overlap = their intersection, free = span - union of both; span = first to last
// device activity (kernels, memcpy, memset), so memcpy/memset time counts as free.
DistributedRow trace_distributed(const TraceStore& store, int card);
// NCCL / RCCL / HCCL kernels count as communication (case-insensitive substring).
bool is_communication_kernel(std::string_view name);
// Per ProfilerStep#N: top-level cpu_op name → host total and device total time.
StepOpTimes trace_step_op_times(const TraceStore& store);

// ---- Diff -------------------------------------------------------------------------------------

// Joins two operator tables by (name, input shape); rows present in one run only get zeros on
// the other side. Sorted by |device diff|, then |host diff|, descending.
std::vector<OperatorDiffRow> diff_operators(const OperatorTable& a, const OperatorTable& b);
// One step of two runs by operator type ("" = all steps summed); rows of types present in
// either run; cumulative_diff_us is the running sum in row order.
StepDiff step_diff(const StepOpTimes& a, const StepOpTimes& b, std::string_view step);

}  // namespace runs
}  // namespace strata
