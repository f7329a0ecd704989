#include "core/runs/run_discovery.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "core/base/json_writer.h"

namespace strata {
namespace {

constexpr const char* kViewNames[kRunViewCount] = {"Operator", "Kernel",      "Trace",
                                                   "Memory",   "Distributed", "Diff"};
constexpr const char* kFileNames[kRunFileCount] = {
    "trace_view.json",     "kernel_details.csv",        "operator_details.csv",
    "memory_record.csv",   "operator_memory.csv",       "npu_module_mem.csv",
    "step_trace_time.csv", "communication.json",        "communication_matrix.json",
    "op_statistic.csv",    "ascend_pytorch_profiler.db"};
constexpr std::string_view kAscendOutput = "ASCEND_PROFILER_OUTPUT";
constexpr std::string_view kAscendSuffix = "_ascend_pt";

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Splits `a/b/c` into components (backslashes count as separators; empty and "." parts dropped).
std::vector<std::string_view> split_path(std::string_view p) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find_first_of("/\\", i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view part = p.substr(i, j - i);
    if (!part.empty() && part != ".") parts.push_back(part);
    i = j + 1;
  }
  return parts;
}

std::string join(const std::vector<std::string_view>& parts, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i) s += '/';
    s.append(parts[i]);
  }
  return s;
}

// `<worker>_<span>_ascend_pt` (the plugin's `^(.*?)_(\d+(\.\d+)?)_ascend_pt$`: the shortest
// worker, so the span is the first `_<digits>[.<digits>]` group that reaches the suffix), or
// `<worker>_ascend_pt` (no span). False when the directory is not an Ascend profile's.
bool parse_ascend_dir(std::string_view dir, std::string* worker, std::string* span) {
  if (!ends_with(dir, kAscendSuffix)) return false;
  std::string_view stem = dir.substr(0, dir.size() - kAscendSuffix.size());
  for (size_t u = stem.find('_'); u != std::string_view::npos; u = stem.find('_', u + 1)) {
    std::string_view tail = stem.substr(u + 1);
    const size_t dot = tail.find('.');
    const bool ok = dot == std::string_view::npos
                        ? all_digits(tail)
                        : all_digits(tail.substr(0, dot)) && all_digits(tail.substr(dot + 1));
    if (ok) {
      *worker = std::string(stem.substr(0, u));
      *span = std::string(tail);
      return true;
    }
  }
  if (stem.empty()) return false;
  *worker = std::string(stem);
  span->clear();
  return true;
}

// "rank" followed by digits (after an optional '-' or '_'), at the end of the name.
bool names_a_rank(std::string_view stem) {
  size_t end = stem.size();
  while (end > 0 && stem[end - 1] >= '0' && stem[end - 1] <= '9') --end;
  if (end == stem.size()) return false;
  if (end > 0 && (stem[end - 1] == '-' || stem[end - 1] == '_')) --end;
  return end >= 4 && stem.substr(end - 4, 4) == "rank";
}

// `<worker>[.<span>].pt.trace.json[.gz|.zst]` (the plugin's WORKER_PATTERN; the worker is the
// shortest prefix, so the span is the last `.<digits>` before the suffix).
bool parse_kineto_file(std::string_view name, std::string* worker, std::string* span) {
  std::string_view stem = name;
  if (ends_with(stem, ".gz"))
    stem.remove_suffix(3);
  else if (ends_with(stem, ".zst"))
    stem.remove_suffix(4);
  constexpr std::string_view kSuffix = ".pt.trace.json";
  if (!ends_with(stem, kSuffix)) {
    // A rank's trace as HTA names them (`rank-0.json.gz`, `sampled_rank-1.json`): the worker
    // is the stem, without a span.
    if (!ends_with(stem, ".json")) return false;
    stem.remove_suffix(5);
    if (!names_a_rank(stem)) return false;
    *worker = std::string(stem);
    span->clear();
    return true;
  }
  stem.remove_suffix(kSuffix.size());
  const size_t dot = stem.rfind('.');
  if (dot != std::string_view::npos && all_digits(stem.substr(dot + 1))) {
    *worker = std::string(stem.substr(0, dot));
    *span = std::string(stem.substr(dot + 1));
  } else {
    *worker = std::string(stem);
    span->clear();
  }
  return true;
}

// A JSON trace's name: .json, .json.gz or .json.zst.
bool json_trace_name(std::string_view name) {
  if (ends_with(name, ".gz"))
    name.remove_suffix(3);
  else if (ends_with(name, ".zst"))
    name.remove_suffix(4);
  return ends_with(name, ".json");
}

// Inside an Ascend profile directory (its JSON files are the profile's, not traces of ranks).
bool in_ascend_dir(const std::vector<std::string_view>& parts) {
  std::string worker, span;
  for (size_t k = 0; k + 1 < parts.size(); ++k)
    if (parse_ascend_dir(parts[k], &worker, &span)) return true;
  return false;
}

int ascend_file_kind(std::string_view name) {
  for (int i = 0; i < kRunFileCount; ++i)
    if (name == kFileNames[i]) return i;
  // ascend_pytorch_profiler_<rank>.db (torch_npu names it by rank; a single card may omit it).
  constexpr std::string_view kDbPrefix = "ascend_pytorch_profiler";
  if (name.substr(0, kDbPrefix.size()) == kDbPrefix && ends_with(name, ".db"))
    return static_cast<int>(RunFile::kProfilerDb);
  return -1;
}

// A profile with the profiler db is read from it alone: the text export beside it is set aside
// (one place decides, so the trace, memory and statistics all come from the same data).
void prefer_profiler_db(DiscoveredProfile* p, const std::vector<std::string>& paths) {
  const int32_t db = p->get(RunFile::kProfilerDb);
  if (db < 0) return;
  bool text = false;
  for (int f = 0; f < kRunFileCount; ++f) {
    if (f == static_cast<int>(RunFile::kProfilerDb) || p->file[f] < 0) continue;
    text = true;
    p->file[f] = -1;
  }
  const std::string& path = paths[static_cast<size_t>(db)];
  const size_t slash = path.find_last_of("/\\");
  p->note = "read " + path.substr(slash == std::string::npos ? 0 : slash + 1) +
            (text ? "; the CSV export beside it was not read" : "");
}

DiscoveredProfile new_profile(ProfileKind kind, std::string worker, std::string span,
                              std::string dir) {
  DiscoveredProfile p;
  p.kind = kind;
  p.worker = std::move(worker);
  p.span = std::move(span);
  p.dir = std::move(dir);
  std::fill(std::begin(p.file), std::end(p.file), -1);
  return p;
}

}  // namespace

const char* run_view_name(RunView v) { return kViewNames[static_cast<int>(v)]; }

bool DiscoveredProfile::provides(RunFile f) const {
  if (get(f) >= 0) return true;
  if (get(RunFile::kProfilerDb) < 0) return false;
  // The db holds everything the views read but the profiler's own op statistics (the Kernel
  // view computes them from the kernels) and the communication matrix.
  return f != RunFile::kOpStatistic && f != RunFile::kCommunicationMatrix;
}

bool run_view_from_name(std::string_view name, RunView* out) {
  for (int i = 0; i < kRunViewCount; ++i) {
    std::string_view v = kViewNames[i];
    if (v.size() == name.size() && std::equal(v.begin(), v.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      *out = static_cast<RunView>(i);
      return true;
    }
  }
  return false;
}

const char* run_file_name(RunFile f) { return kFileNames[static_cast<int>(f)]; }

RunDiscovery discover_runs(const std::vector<std::string>& paths,
                           const std::vector<int64_t>& ranks) {
  RunDiscovery d;
  std::vector<std::vector<std::string_view>> split;
  split.reserve(paths.size());
  for (const std::string& p : paths) split.push_back(split_path(p));

  // The root: the first component every path (with at least a directory) shares.
  bool shared = !split.empty() && split[0].size() >= 2;
  for (size_t i = 1; shared && i < split.size(); ++i)
    shared = split[i].size() >= 2 && split[i][0] == split[0][0];
  if (shared) d.root = std::string(split[0][0]);

  // Profiles keyed by (run dir, kind, worker, span).
  std::map<std::tuple<std::string, int, std::string, std::string>, DiscoveredProfile> found;
  for (uint32_t i = 0; i < split.size(); ++i) {
    const auto& parts = split[i];
    if (parts.empty()) continue;
    std::string worker, span;
    // Ascend: .../<run>/<worker>_<span>_ascend_pt/ASCEND_PROFILER_OUTPUT/<file>; files of the
    // profile directory itself (profiler_info_N.json) belong to it too.
    for (size_t k = 0; k + 1 < parts.size(); ++k) {
      if (!parse_ascend_dir(parts[k], &worker, &span)) continue;
      std::string run_dir = join(parts, k);
      const bool in_output = k + 2 < parts.size() && parts[k + 1] == kAscendOutput;
      std::string dir = join(parts, k + 1) + "/" + std::string(kAscendOutput);
      auto key = std::make_tuple(run_dir, 0, worker, span);
      auto it = found.find(key);
      if (it == found.end())
        it = found.emplace(key, new_profile(ProfileKind::kAscend, worker, span, dir)).first;
      it->second.all_files.push_back(i);
      if (in_output && k + 3 == parts.size()) {
        const int kind = ascend_file_kind(parts[k + 2]);
        if (kind >= 0) it->second.file[kind] = static_cast<int32_t>(i);
      }
      break;
    }
    const int64_t rank = i < ranks.size() ? ranks[i] : -1;
    bool kineto = parse_kineto_file(parts.back(), &worker, &span);
    if (!kineto && rank >= 0 && json_trace_name(parts.back()) && !in_ascend_dir(parts)) {
      worker = "rank" + std::to_string(rank);  // named by its head, as the ranks analysis does
      span.clear();
      kineto = true;
    }
    if (kineto) {
      std::string run_dir = join(parts, parts.size() - 1);
      auto key = std::make_tuple(run_dir, 1, worker, span);
      if (found.count(key)) continue;  // the same trace twice (.json and .json.gz): first wins
      DiscoveredProfile p = new_profile(ProfileKind::kKineto, worker, span, run_dir);
      p.file[static_cast<int>(RunFile::kTrace)] = static_cast<int32_t>(i);
      p.all_files.push_back(i);
      p.rank = rank;
      found.emplace(key, std::move(p));
    }
  }

  // The plugin keeps an Ascend profile only when its output directory has the trace or one of
  // its input files (loader.py); profiler_info alone is not a profile.
  std::map<std::string, DiscoveredRun> runs;
  for (auto& [key, p] : found) {
    if (p.kind == ProfileKind::kAscend) {
      prefer_profiler_db(&p, paths);
      bool any = false;
      for (int f = 0; f < kRunFileCount; ++f) any = any || p.file[f] >= 0;
      if (!any) continue;
    }
    const std::string& run_dir = std::get<0>(key);
    DiscoveredRun& run = runs[run_dir];
    run.dir = run_dir;
    run.profiles.push_back(std::move(p));
  }
  for (auto& [dir, run] : runs) {
    std::vector<std::string_view> parts = split_path(dir);
    if (!d.root.empty() && !parts.empty() && parts[0] == d.root) {
      parts.erase(parts.begin());
      run.name = parts.empty() ? d.root : join(parts, parts.size());
    } else {
      run.name = dir.empty() ? std::string(".") : dir;
    }
    std::stable_sort(run.profiles.begin(), run.profiles.end(),
                     [](const DiscoveredProfile& a, const DiscoveredProfile& b) {
                       return std::tie(a.worker, a.span) < std::tie(b.worker, b.span);
                     });
    for (const DiscoveredProfile& p : run.profiles)
      if (run.workers.empty() || run.workers.back() != p.worker) run.workers.push_back(p.worker);
    d.runs.push_back(std::move(run));
  }
  std::stable_sort(d.runs.begin(), d.runs.end(),
                   [](const DiscoveredRun& a, const DiscoveredRun& b) { return a.name < b.name; });
  return d;
}

std::vector<std::string> run_worker_spans(const DiscoveredRun& run, std::string_view worker) {
  std::vector<std::string> spans;
  for (const DiscoveredProfile& p : run.profiles)
    if (p.worker == worker) spans.push_back(p.span);
  return spans;
}

int run_find_profile(const DiscoveredRun& run, std::string_view worker, std::string_view span) {
  for (size_t i = 0; i < run.profiles.size(); ++i)
    if (run.profiles[i].worker == worker && run.profiles[i].span == span)
      return static_cast<int>(i);
  return -1;
}

std::vector<uint32_t> run_distributed_set(const DiscoveredRun& run, size_t profile) {
  std::vector<uint32_t> set;
  if (profile >= run.profiles.size()) return set;
  const DiscoveredProfile& p = run.profiles[profile];
  auto workers_of = [&](const std::vector<uint32_t>& v) {
    std::vector<std::string_view> w;
    for (uint32_t i : v)
      if (std::find(w.begin(), w.end(), run.profiles[i].worker) == w.end())
        w.push_back(run.profiles[i].worker);
    return w.size();
  };
  for (uint32_t i = 0; i < run.profiles.size(); ++i)
    if (run.profiles[i].span == p.span && run.profiles[i].kind == p.kind) set.push_back(i);
  if (workers_of(set) >= 2 || p.kind != ProfileKind::kKineto) return set;
  // Kineto ranks whose spans differ (each trace's own timestamp): one trace per worker, the one
  // of this span when the worker has it, else its last.
  set.clear();
  for (const std::string& w : run.workers) {
    int32_t pick = -1;
    for (uint32_t i = 0; i < run.profiles.size(); ++i) {
      const DiscoveredProfile& q = run.profiles[i];
      if (q.worker != w || q.kind != ProfileKind::kKineto) continue;
      if (pick < 0 || run.profiles[static_cast<size_t>(pick)].span != p.span)
        pick = static_cast<int32_t>(i);
    }
    if (pick >= 0) set.push_back(static_cast<uint32_t>(pick));
  }
  if (workers_of(set) < 2) set.assign(1, static_cast<uint32_t>(profile));
  return set;
}

ViewAvailability run_view_availability(const RunDiscovery& d, const DiscoveredRun& run,
                                       size_t profile, RunView view) {
  ViewAvailability a;
  if (profile >= run.profiles.size()) {
    a.note = "no such profile";
    return a;
  }
  const DiscoveredProfile& p = run.profiles[profile];
  const bool kineto = p.kind == ProfileKind::kKineto;
  auto has = [&](RunFile f) { return p.provides(f); };
  auto needs = [&](const std::string& what) {
    a.enabled = false;
    a.note = "needs " + what;
  };
  a.enabled = true;
  switch (view) {
    case RunView::kOperator:
      if (!kineto && !has(RunFile::kOperatorDetails)) needs("operator_details.csv");
      break;
    case RunView::kKernel:
      if (!kineto && !has(RunFile::kKernelDetails)) needs("kernel_details.csv");
      break;
    case RunView::kTrace:
      if (!kineto && !has(RunFile::kTrace)) needs("trace_view.json");
      break;
    case RunView::kMemory:
      // A Kineto trace's [memory] events are only known once it is read: the Memory tab says
      // when there are none.
      if (!kineto && !has(RunFile::kMemoryRecord) && !has(RunFile::kOperatorMemory))
        needs("memory_record.csv or operator_memory.csv");
      break;
    case RunView::kDistributed: {
      // Per span, as the plugin builds its distributed profile: Ascend needs each worker's
      // step_trace_time.csv (communication.json adds the per-operator table); Kineto needs
      // the traces of several workers.
      if (kineto) {
        if (run_distributed_set(run, profile).size() < 2)
          needs("the traces of several workers (*.pt.trace.json)");
      } else {
        for (const DiscoveredProfile& q : run.profiles) {
          if (q.span != p.span || q.provides(RunFile::kStepTraceTime)) continue;
          needs("step_trace_time.csv (" + q.worker + ")");
          break;
        }
      }
      break;
    }
    case RunView::kDiff: {
      size_t profiles = 0;
      for (const DiscoveredRun& r : d.runs) profiles += r.profiles.size();
      if (profiles < 2)
        needs("a second profile");
      else if (!kineto && !has(RunFile::kOperatorDetails))
        needs("operator_details.csv");
      break;
    }
  }
  return a;
}

std::string run_workers_json(const DiscoveredRun& run) {
  std::string s = "[";
  for (size_t w = 0; w < run.workers.size(); ++w) {
    if (w) s += ',';
    s += "{\"name\":";
    json_append_string(&s, run.workers[w]);
    s += ",\"spans\":[";
    const std::vector<std::string> spans = run_worker_spans(run, run.workers[w]);
    for (size_t k = 0; k < spans.size(); ++k) {
      if (k) s += ',';
      json_append_string(&s, spans[k]);
    }
    s += "]}";
  }
  return s + "]";
}

std::string run_profile_views_json(const RunDiscovery& d, const DiscoveredRun& run,
                                   size_t profile) {
  std::string s = "{";
  for (int v = 0; v < kRunViewCount; ++v) {
    const ViewAvailability a = run_view_availability(d, run, profile, static_cast<RunView>(v));
    if (v) s += ',';
    json_append_string(&s, kViewNames[v]);
    s += a.enabled ? ":{\"enabled\":true,\"note\":" : ":{\"enabled\":false,\"note\":";
    json_append_string(&s, a.note);
    s += '}';
  }
  return s + "}";
}

std::string run_discovery_json(const RunDiscovery& d) {
  std::string s = "{\"root\":";
  json_append_string(&s, d.root);
  s += ",\"runs\":[";
  for (size_t r = 0; r < d.runs.size(); ++r) {
    const DiscoveredRun& run = d.runs[r];
    if (r) s += ',';
    s += "{\"name\":";
    json_append_string(&s, run.name);
    s += ",\"dir\":";
    json_append_string(&s, run.dir);
    s += ",\"workers\":" + run_workers_json(run);
    s += ",\"profiles\":[";
    for (size_t i = 0; i < run.profiles.size(); ++i) {
      const DiscoveredProfile& p = run.profiles[i];
      if (i) s += ',';
      s += "{\"worker\":";
      json_append_string(&s, p.worker);
      s += ",\"span\":";
      json_append_string(&s, p.span);
      s += p.kind == ProfileKind::kKineto ? ",\"kind\":\"kineto\"" : ",\"kind\":\"ascend\"";
      s += ",\"dir\":";
      json_append_string(&s, p.dir);
      s += ",\"rank\":";
      json_append_int(&s, p.rank);
      s += ",\"note\":";
      json_append_string(&s, p.note);
      s += ",\"files\":{";
      bool first = true;
      for (int f = 0; f < kRunFileCount; ++f) {
        if (p.file[f] < 0) continue;
        if (!first) s += ',';
        first = false;
        json_append_string(&s, kFileNames[f]);
        s += ':';
        json_append_int(&s, p.file[f]);
      }
      s += "},\"distributed\":[";
      const std::vector<uint32_t> set = run_distributed_set(run, i);
      for (size_t k = 0; k < set.size(); ++k) {
        if (k) s += ',';
        json_append_int(&s, set[k]);
      }
      s += "],\"views\":";
      s += run_profile_views_json(d, run, i);
      s += '}';
    }
    s += "]}";
  }
  s += "]}";
  return s;
}

std::vector<uint32_t> run_head_candidates(const std::vector<std::string>& paths) {
  std::vector<uint8_t> taken(paths.size(), 0);
  for (const DiscoveredRun& run : discover_runs(paths).runs)
    for (const DiscoveredProfile& p : run.profiles)
      for (uint32_t i : p.all_files) taken[i] = 1;
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < paths.size(); ++i) {
    const std::vector<std::string_view> parts = split_path(paths[i]);
    if (!taken[i] && !parts.empty() && json_trace_name(parts.back()) && !in_ascend_dir(parts))
      out.push_back(i);
  }
  return out;
}

bool paths_hold_runs(const std::vector<std::string>& paths) {
  return !discover_runs(paths).runs.empty();
}

}  // namespace strata
