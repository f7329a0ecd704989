#include "engine/advisor/figures_ascend.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/analysis/op_cells.h"
#include "engine/engine.h"

namespace strata {

namespace {

constexpr size_t kEvidenceRows = 3;
// msprof-analyze: an AI CPU task over 20 µs is worth moving to the AI cores.
constexpr TimeNs kSlowAicpuNs = 20'000;
// msprof-analyze's packet lines, in the decimal MB its communication.json writes sizes in.
constexpr int64_t kSmallSdmaBytes = 16'000'000;
constexpr int64_t kSmallRdmaBytes = 1'000'000;
// HCCL moves data best in multiples of 512 bytes.
constexpr int64_t kAlignBytes = 512;

bool is_aicpu(std::string_view type) {
  return type.find("AI_CPU") != std::string_view::npos ||
         type.find("AICPU") != std::string_view::npos;
}

// A task that moved data between devices: SDMA or RDMA with a size (notifies move none).
bool is_transfer(const AscendTaskArgs& a) {
  return a.size_bytes > 0 && (a.transport == "SDMA" || a.transport == "RDMA");
}

struct Task {
  uint32_t event;
  const AscendTaskArgs* args;
};

// Up to kEvidenceRows events of `tasks` (already in the order wanted), one per name and track.
void link_tasks(const TraceStore& s, const std::vector<uint32_t>& to_display,
                const std::vector<Task>& tasks, AdvisorFigure* fig,
                std::string (*label)(const TraceStore&, const Task&)) {
  std::vector<std::pair<StrId, uint32_t>> seen;
  for (const Task& t : tasks) {
    if (fig->evidence.size() >= kEvidenceRows) break;
    const std::pair<StrId, uint32_t> key{s.events.name[t.event], s.events.track[t.event]};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    AdvisorEvidence ev;
    ev.label = label(s, t);
    ev.link.name = std::string(s.strings.get(key.first));
    if (to_display[key.second] != kNone) ev.link.tracks.push_back(to_display[key.second]);
    fig->evidence.push_back(std::move(ev));
  }
}

std::string duration_label(const TraceStore& s, const Task& t) {
  return std::string(s.strings.get(s.events.name[t.event])) + ": " +
         format_figure(static_cast<double>(s.events.dur[t.event]), AnalysisUnit::kNs);
}

std::string size_label(const TraceStore& s, const Task& t) {
  std::string l = std::string(s.strings.get(s.events.name[t.event])) + ": " +
                  std::to_string(t.args->size_bytes) + " B over " + t.args->transport;
  if (!t.args->link.empty()) l += " (" + t.args->link + ")";
  return l;
}

// The name of the rank a store file holds ("rank 1", or the file's name).
std::string rank_name(const TraceStore& s, uint32_t file) {
  if (file >= s.files.size()) return "rank ?";
  const SourceFile& f = s.files[file];
  if (f.rank >= 0) return "rank " + std::to_string(f.rank);
  return f.group.empty() ? f.name : f.group;
}

void aicpu_figures(const TraceStore& s, const std::vector<uint32_t>& to_display,
                   const std::vector<Task>& typed, AdvisorFigureSet* f) {
  std::vector<Task> slow;
  size_t all = 0;
  TimeNs slow_ns = 0;
  for (const Task& t : typed) {
    if (!is_aicpu(t.args->task_type)) continue;
    ++all;
    if (s.events.dur[t.event] <= kSlowAicpuNs) continue;
    slow.push_back(t);
    slow_ns += s.events.dur[t.event];
  }
  std::stable_sort(slow.begin(), slow.end(), [&](const Task& a, const Task& b) {
    return s.events.dur[a.event] > s.events.dur[b.event];
  });
  f->add("ascend.aicpu_count", static_cast<double>(all), AnalysisUnit::kCount, "timeline",
         "AI CPU tasks");
  AdvisorFigure* count = f->add(
      "ascend.aicpu_slow_count", static_cast<double>(slow.size()), AnalysisUnit::kCount, "timeline",
      "AI CPU tasks over " + format_figure(static_cast<double>(kSlowAicpuNs), AnalysisUnit::kNs));
  link_tasks(s, to_display, slow, count, duration_label);
  f->add("ascend.aicpu_ns", static_cast<double>(slow_ns), AnalysisUnit::kNs, "timeline",
         "the time of the AI CPU tasks over " +
             format_figure(static_cast<double>(kSlowAicpuNs), AnalysisUnit::kNs));
}

// Per transport (SDMA, RDMA) each rank's bandwidth, bytes over the tasks' time; the figure is
// the largest (max - min) / mean across the ranks of one transport.
void link_spread(const TraceStore& s, const std::vector<uint32_t>& to_display,
                 const std::vector<Task>& moves, AdvisorFigureSet* f) {
  struct Sum {
    double bytes = 0, ns = 0;
    uint32_t first = 0;            // the rank's first task, whose name its evidence opens
    std::vector<uint32_t> tracks;  // the display tracks of its tasks of that name
  };
  std::map<std::string, std::map<uint32_t, Sum>> by;  // transport → file → sums
  for (const Task& t : moves) {
    const uint32_t file = s.processes[s.tracks[s.events.track[t.event]].process].file;
    auto [it, added] = by[t.args->transport].try_emplace(file);
    Sum& x = it->second;
    if (added) x.first = t.event;
    const uint32_t shown = to_display[s.events.track[t.event]];
    if (s.events.name[t.event] == s.events.name[x.first] && shown != kNone &&
        std::find(x.tracks.begin(), x.tracks.end(), shown) == x.tracks.end())
      x.tracks.push_back(shown);
    x.bytes += static_cast<double>(t.args->size_bytes);
    x.ns += static_cast<double>(s.events.dur[t.event]);
  }
  double worst = -1;
  std::string worst_transport;
  for (const auto& [transport, ranks] : by) {
    std::vector<double> bw;
    for (const auto& [file, x] : ranks)
      if (x.ns > 0) bw.push_back(x.bytes / x.ns);  // bytes per ns = GB/s
    if (bw.size() < 2) continue;
    double sum = 0;
    for (double b : bw) sum += b;
    const double mean = sum / static_cast<double>(bw.size());
    const auto [lo, hi] = std::minmax_element(bw.begin(), bw.end());
    const double spread = mean > 0 ? (*hi - *lo) / mean * 100 : 0;
    if (spread > worst) worst = spread, worst_transport = transport;
  }
  if (worst < 0) {
    f->set_missing("ascend.comm_link",
                   "communication tasks of several ranks (this trace holds one rank's: open "
                   "the ranks' trace_view.json files together)");
    return;
  }
  AdvisorFigure* fig =
      f->add("ascend.comm_link_spread_pct", worst, AnalysisUnit::kPercent, "timeline",
             "the spread of one transport's bandwidth across the ranks ((max - min) / mean, " +
                 worst_transport + ")");
  for (const auto& [file, x] : by[worst_transport]) {
    if (x.ns <= 0) continue;
    AdvisorEvidence ev;
    char bw[32];
    std::snprintf(bw, sizeof bw, "%.2f GB/s", x.bytes / x.ns);
    ev.label = rank_name(s, file) + " " + worst_transport + ": " + bw;
    ev.link.name = std::string(s.strings.get(s.events.name[x.first]));
    ev.link.tracks = x.tracks;
    std::sort(ev.link.tracks.begin(), ev.link.tracks.end());
    fig->evidence.push_back(std::move(ev));
  }
}

void comm_figures(const TraceStore& s, const std::vector<uint32_t>& to_display,
                  const std::vector<Task>& moves, AdvisorFigureSet* f) {
  double bytes = 0, small_bytes = 0;
  std::vector<Task> small, unaligned;
  for (const Task& t : moves) {
    const int64_t n = t.args->size_bytes;
    bytes += static_cast<double>(n);
    if (n < (t.args->transport == "RDMA" ? kSmallRdmaBytes : kSmallSdmaBytes)) {
      small_bytes += static_cast<double>(n);
      small.push_back(t);
    }
    if (n % kAlignBytes != 0) unaligned.push_back(t);
  }
  auto by_size = [](const Task& a, const Task& b) {
    return a.args->size_bytes > b.args->size_bytes;
  };
  std::stable_sort(small.begin(), small.end(), by_size);
  std::stable_sort(unaligned.begin(), unaligned.end(), by_size);
  f->add("ascend.comm_bytes", bytes, AnalysisUnit::kBytes, "timeline",
         "the bytes the communication tasks moved (SDMA and RDMA)");
  AdvisorFigure* sp =
      f->add("ascend.comm_small_packet_pct", bytes > 0 ? small_bytes / bytes * 100 : 0,
             AnalysisUnit::kPercent, "timeline",
             "the share of the communication bytes in packets under 16 MB "
             "(SDMA) or 1 MB (RDMA)");
  link_tasks(s, to_display, small, sp, size_label);
  AdvisorFigure* ua = f->add("ascend.comm_unaligned_count", static_cast<double>(unaligned.size()),
                             AnalysisUnit::kCount, "timeline",
                             "communication tasks whose size is not a multiple of 512 bytes");
  link_tasks(s, to_display, unaligned, ua, size_label);
  link_spread(s, to_display, moves, f);
}

}  // namespace

void ascend_figures(const Engine& engine, AdvisorFigureSet* f) {
  const TraceStore& s = *engine.store();
  const AscendTaskArgsTable& table = s.ascend_tasks;
  std::vector<Task> typed, moves;
  if (!table.rows.empty()) {
    for (uint32_t e = 0; e < s.events.size(); ++e) {
      const AscendTaskArgs* a = table.find(s.events.src_offset[e]);
      if (!a) continue;
      typed.push_back({e, a});
      if (is_transfer(*a)) moves.push_back({e, a});
    }
  }
  const std::vector<uint32_t> to_display =
      store_to_display(engine.display_tracks(), s.tracks.size());
  if (typed.empty())
    f->set_missing("ascend.aicpu",
                   "the device tasks' types (the Task Type arg of trace_view.json's Ascend "
                   "Hardware slices, or TASK.taskType of the profiler database)");
  else
    aicpu_figures(s, to_display, typed, f);
  if (moves.empty())
    f->set_missing("ascend.comm",
                   "communication tasks with their sizes (the size(Byte) and transport type "
                   "args of trace_view.json's HCCL tasks, or COMMUNICATION_TASK_INFO of the "
                   "profiler database)");
  else
    comm_figures(s, to_display, moves, f);
}

}  // namespace strata
