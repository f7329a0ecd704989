// Finds profiler runs in a folder from the relative paths the browser reports for it (a dropped
// directory, <input webkitdirectory>, or strata.open([{path}])): no file is read, only names.
//
// The rules are the seed's (the Ascend PyTorch profiler TensorBoard plugin, torch_tb_profiler:
// consts.py WORKER_PATTERN / WORKER_SPAN_PATTERN / InputFilesType, profiler/loader.py
// RunLoader.load; Ascend/att tb_plugins/profiling/tb_plugin):
//  * Ascend: a run directory holds `<worker>_<span>_ascend_pt/` directories (pattern
//    `^(.*?)_(\d+(\.\d+)?)_ascend_pt$`: `host_12345_20240101_ascend_pt` → worker `host_12345`,
//    span `20240101`), each with an `ASCEND_PROFILER_OUTPUT/` directory holding the data files;
//    a profile counts when that directory has trace_view.json or one of the plugin's input
//    files. Strata also takes `<worker>_ascend_pt` without a span (`rank0_ascend_pt`, as
//    MindStudio Insight's samples are named): worker `rank0`, no span.
//  * PyTorch / Kineto: a run directory holds `<worker>[.<span>].pt.trace.json[.gz]` files
//    (pattern `^(.*?)(\.\d+)?\.pt\.trace\.json(\.gz)?$`: `worker0.1623143566756.pt.trace.json.gz`
//    → worker `worker0`, span `1623143566756`; `worker0.pt.trace.json` → no span). Strata also
//    accepts `.zst`, and `<name>rank[-_]<N>.json[.gz|.zst]` (HTA's `rank-0.json.gz`) as a
//    worker without span.
//  * A run's name is its directory relative to the folder's root (the first path component all
//    paths share, as the browser reports a dropped directory); a run that is the root itself is
//    named after the root.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// The plugin's views, in its order (Overview and Module are not offered).
enum class RunView : uint8_t { kOperator, kKernel, kTrace, kMemory, kDistributed, kDiff };
inline constexpr int kRunViewCount = 6;
const char* run_view_name(RunView v);  // "Operator", "Kernel", ...
// "operator", "kernel", ... (case-insensitive) → the view; false for an unknown name.
bool run_view_from_name(std::string_view name, RunView* out);

enum class ProfileKind : uint8_t { kAscend, kKineto };

// The data files a view may need, by their fixed names (Ascend) or the Kineto trace.
enum class RunFile : uint8_t {
  kTrace,                // trace_view.json (Ascend) or the *.pt.trace.json[.gz] itself (Kineto)
  kKernelDetails,        // kernel_details.csv
  kOperatorDetails,      // operator_details.csv
  kMemoryRecord,         // memory_record.csv
  kOperatorMemory,       // operator_memory.csv
  kModuleMemory,         // npu_module_mem.csv
  kStepTraceTime,        // step_trace_time.csv
  kCommunication,        // communication.json
  kCommunicationMatrix,  // communication_matrix.json
  kOpStatistic,          // op_statistic.csv
  kProfilerDb,           // ascend_pytorch_profiler_<rank>.db: when present, read instead of all
                         // the files above (as MindStudio Insight does), which are then unset
};
inline constexpr int kRunFileCount = 11;
const char* run_file_name(RunFile f);  // "trace_view.json", ...

struct DiscoveredProfile {
  std::string worker;
  std::string span;  // empty: the profile has no span
  ProfileKind kind = ProfileKind::kAscend;
  std::string dir;  // Ascend: the ASCEND_PROFILER_OUTPUT directory; Kineto: the run directory
  // Index into the input path list per RunFile, -1 when the profile lacks it.
  int32_t file[kRunFileCount];
  std::vector<uint32_t> all_files;  // every input path belonging to this profile
  int64_t rank = -1;                // Kineto: the trace head's distributedInfo.rank, or -1
  // Ascend: what the profile is read from when it is not plain ("read ascend_pytorch_profiler_0.db;
  // the CSV export beside it was not read"), "" otherwise.
  std::string note;
  int32_t get(RunFile f) const { return file[static_cast<int>(f)]; }
  // Whether the profile gives `f`'s data: the file itself, or the profiler db that holds it.
  bool provides(RunFile f) const;
};

struct DiscoveredRun {
  std::string name;
  std::string dir;  // the run directory as in the input paths ("" for the root itself)
  std::vector<DiscoveredProfile> profiles;  // by worker, then span (as strings, the plugin's order)
  std::vector<std::string> workers;         // distinct, in profile order
};

struct RunDiscovery {
  std::string root;  // the shared first path component, or "" when the paths share none
  std::vector<DiscoveredRun> runs;  // by name
};

// `ranks` (when given, one per path, -1 where unknown): each JSON trace's distributedInfo.rank
// from its head (core/runs/trace_head.h). A JSON file whose name says nothing Kineto
// (`a.json.gz`) but whose head names a rank is that rank's Kineto trace, worker "rank<N>",
// without span; a trace found by its name keeps its worker and gets the rank (its card).
RunDiscovery discover_runs(const std::vector<std::string>& paths,
                           const std::vector<int64_t>& ranks = {});
// The paths whose heads are worth reading: JSON files (.json, .json.gz, .json.zst) outside
// Ascend profile directories that the names alone do not make a profile of.
std::vector<uint32_t> run_head_candidates(const std::vector<std::string>& paths);

// The spans of one worker of a run, in order ("" for a profile without span).
std::vector<std::string> run_worker_spans(const DiscoveredRun& run, std::string_view worker);
// The profile of (worker, span), or -1.
int run_find_profile(const DiscoveredRun& run, std::string_view worker, std::string_view span);

// The profiles the Distributed view of run.profiles[profile] compares (indices into
// run.profiles): those of its span (the plugin's rule); for Kineto traces whose spans differ
// (each rank's own timestamp), one per worker. Just `profile` when there is no other.
std::vector<uint32_t> run_distributed_set(const DiscoveredRun& run, size_t profile);

// Whether `view` can be shown for run.profiles[profile]; when not, `note` says what is missing
// ("needs trace_view.json"). Diff needs a second profile anywhere in the discovery.
struct ViewAvailability {
  bool enabled = false;
  std::string note;
};
ViewAvailability run_view_availability(const RunDiscovery& d, const DiscoveredRun& run,
                                       size_t profile, RunView view);

// [{"name", "spans": [...]}]: the run's workers and each one's spans.
std::string run_workers_json(const DiscoveredRun& run);
// {<View>: {"enabled", "note"}} for run.profiles[profile], every view in RunView's order.
std::string run_profile_views_json(const RunDiscovery& d, const DiscoveredRun& run, size_t profile);

// {"root", "runs":[{"name", "dir", "workers":[{"name", "spans":[...]}], "profiles":[{"worker",
// "span", "kind", "dir", "rank" (-1: unknown), "files":{<name>: <path index>},
// "distributed": [profile index],
// "views":{<View>: {"enabled", "note"}}}]}]}
std::string run_discovery_json(const RunDiscovery& d);

// True when the paths look like a profiler folder (at least one run found): the page then opens
// them in folder mode rather than file by file.
bool paths_hold_runs(const std::vector<std::string>& paths);

}  // namespace strata
