#include "core/runs/run_plan.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "protocol/reply_keys.h"

namespace strata {

namespace {

// The worker's spans in profile order, as the selectors list them.
std::vector<std::string> spans_of(const DiscoveredRun& r, const std::string& worker) {
  std::vector<std::string> out;
  for (const DiscoveredProfile& p : r.profiles)
    if (p.worker == worker) out.push_back(p.span);
  return out;
}

void add_file(std::vector<std::pair<std::string, int32_t>>* out, std::string key,
              const DiscoveredProfile& p, RunFile f) {
  if (p.get(f) >= 0) out->emplace_back(std::move(key), p.get(f));
}

}  // namespace

bool runs_resolve(const RunDiscovery& d, const RunsSelection& now, const RunsQuery& q,
                  RunsSelection* out) {
  const int runs = static_cast<int>(d.runs.size());
  int run = now.run;
  if (q.has_run) {
    run = q.run_index;
    if (q.run_by_name) {
      run = -1;
      for (int i = 0; i < runs && run < 0; ++i)
        if (d.runs[static_cast<size_t>(i)].name == q.run_name) run = i;
    }
  }
  if (run < 0 || run >= runs) return false;
  const DiscoveredRun& r = d.runs[static_cast<size_t>(run)];
  if (r.profiles.empty()) return false;
  const DiscoveredProfile* cur = nullptr;
  if (run == now.run && now.profile >= 0 && static_cast<size_t>(now.profile) < r.profiles.size())
    cur = &r.profiles[static_cast<size_t>(now.profile)];
  const std::string worker = q.has_worker ? q.worker : cur ? cur->worker : r.profiles[0].worker;
  const std::vector<std::string> spans = spans_of(r, worker);
  if (spans.empty()) return false;
  std::string span = q.has_span ? q.span : cur && cur->worker == worker ? cur->span : spans[0];
  if (!q.has_span && std::find(spans.begin(), spans.end(), span) == spans.end()) span = spans[0];
  const int profile = run_find_profile(r, worker, span);
  if (profile < 0) return false;
  int view = now.view;
  if (q.has_view) {
    RunView v;
    if (!run_view_from_name(q.view, &v)) return false;
    view = static_cast<int>(v);
  }
  *out = RunsSelection{run, profile, view};
  return true;
}

int runs_card_of(const DiscoveredRun& run, const DiscoveredProfile& p) {
  if (p.rank >= 0) return static_cast<int>(p.rank);  // the trace's own distributedInfo
  size_t digits = p.worker.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(p.worker[digits - 1]))) --digits;
  if (digits < p.worker.size()) return std::atoi(p.worker.c_str() + digits);
  const auto it = std::find(run.workers.begin(), run.workers.end(), p.worker);
  return it == run.workers.end() ? -1 : static_cast<int>(it - run.workers.begin());
}

std::vector<int32_t> runs_trace_inputs(const DiscoveredProfile& p, bool memory) {
  std::vector<int32_t> out;
  if (p.get(RunFile::kProfilerDb) >= 0) return {p.get(RunFile::kProfilerDb)};  // memory inside
  const bool trace = p.get(RunFile::kTrace) >= 0;
  if (trace) out.push_back(p.get(RunFile::kTrace));
  if (p.kind == ProfileKind::kAscend && (memory || trace))
    for (RunFile f : {RunFile::kMemoryRecord, RunFile::kOperatorMemory})
      if (p.get(f) >= 0) out.push_back(p.get(f));
  return out;
}

std::string_view runs_part_key(RunsPart part) {
  namespace stats = protocol::keys::runs_stats;
  switch (part) {
    case RunsPart::kOperators:
      return stats::kOperators;
    case RunsPart::kKernels:
      return stats::kKernels;
    case RunsPart::kDistributed:
      return stats::kDistributed;
  }
  return stats::kOperators;
}

std::vector<std::pair<std::string, int32_t>> runs_ascend_part_files(const RunDiscovery& d,
                                                                    const RunsSelection& s,
                                                                    RunsPart part, int* cards) {
  std::vector<std::pair<std::string, int32_t>> out;
  *cards = 0;
  const DiscoveredRun& run = d.runs[static_cast<size_t>(s.run)];
  const DiscoveredProfile& p = run.profiles[static_cast<size_t>(s.profile)];
  // A profiler db is put whole under the profile's prefix: the engine writes the files below
  // from it (engine/runs_session.h).
  if (p.get(RunFile::kProfilerDb) >= 0 && part != RunsPart::kDistributed)
    add_file(&out, "a/profiler.db", p, RunFile::kProfilerDb);
  else if (part == RunsPart::kOperators)
    add_file(&out, "a/operator_details.csv", p, RunFile::kOperatorDetails);
  else if (part == RunsPart::kKernels) {
    add_file(&out, "a/kernel_details.csv", p, RunFile::kKernelDetails);
    add_file(&out, "a/op_statistic.csv", p, RunFile::kOpStatistic);
  }
  if (part == RunsPart::kDistributed) {
    for (const DiscoveredProfile& q : run.profiles) {
      if (q.span != p.span) continue;
      const int c = runs_card_of(run, q);
      *cards = std::max(*cards, c + 1);
      const std::string card = "card" + std::to_string(c) + "/";
      if (q.get(RunFile::kProfilerDb) >= 0) {
        add_file(&out, card + "profiler.db", q, RunFile::kProfilerDb);
        continue;
      }
      add_file(&out, card + "step_trace_time.csv", q, RunFile::kStepTraceTime);
      add_file(&out, card + "communication.json", q, RunFile::kCommunication);
    }
  }
  return out;
}

std::vector<std::pair<std::string, int32_t>> runs_ascend_diff_files(const DiscoveredProfile& p,
                                                                    std::string_view slot) {
  std::vector<std::pair<std::string, int32_t>> out;
  const std::string prefix = std::string(slot) + "/";
  if (p.get(RunFile::kProfilerDb) >= 0) {
    add_file(&out, prefix + "profiler.db", p, RunFile::kProfilerDb);
    return out;
  }
  add_file(&out, prefix + "operator_details.csv", p, RunFile::kOperatorDetails);
  add_file(&out, prefix + "kernel_details.csv", p, RunFile::kKernelDetails);
  return out;
}

bool runs_profile_exists(const RunDiscovery& d, const RunsProfileRef& r) {
  return r.run >= 0 && static_cast<size_t>(r.run) < d.runs.size() && r.profile >= 0 &&
         static_cast<size_t>(r.profile) < d.runs[static_cast<size_t>(r.run)].profiles.size();
}

void runs_default_diff_pair(const RunDiscovery& d, const RunsSelection& now, RunsProfileRef* a,
                            RunsProfileRef* b) {
  std::vector<RunsProfileRef> all;
  for (size_t r = 0; r < d.runs.size(); ++r)
    for (size_t p = 0; p < d.runs[r].profiles.size(); ++p)
      all.push_back({static_cast<int>(r), static_cast<int>(p)});
  *a = *b = RunsProfileRef{};
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].run != now.run || all[i].profile != now.profile) continue;
    *a = all[i];
    *b = all[(i + 1) % all.size()];
  }
}

std::string runs_normal_path(std::string_view path) {
  std::string s(path);
  std::replace(s.begin(), s.end(), '\\', '/');
  size_t start = 0;
  if (s.size() > 1 && s[0] == '.' && s[1] == '/') start = 1;
  if (start < s.size() && s[start] == '/') {
    while (start < s.size() && s[start] == '/') ++start;
    return s.substr(start);
  }
  return s;
}

}  // namespace strata
