#include "engine/analysis/kernel_launches.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/gpu_work.h"
#include "engine/analysis/analysis_cache.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {

namespace {

struct ByName {
  uint64_t count = 0, slow_runtime = 0, late = 0, short_kernels = 0;
  TimeNs runtime_total = 0, runtime_max = 0, kernel_total = 0, delay_total = 0, delay_max = 0;
  std::vector<uint32_t> tracks;  // display tracks the kernels ran on
};

enum Col {
  kName,
  kCount,
  kRuntimeAvg,
  kRuntimeMax,
  kKernelAvg,
  kDelayAvg,
  kDelayMax,
  kSlowRuntime,
  kLate,
  kShort,
  kColumns
};

std::vector<AnalysisColumn> columns() {
  return {
      {"name", "Kernel", AnalysisUnit::kText, "the GPU event's name"},
      {"launches", "Launches", AnalysisUnit::kCount, "GPU events the file links to a runtime call"},
      {"runtime_avg", "Runtime call avg", AnalysisUnit::kNs, "the launching call's duration"},
      {"runtime_max", "Runtime call max", AnalysisUnit::kNs, ""},
      {"kernel_avg", "Kernel avg", AnalysisUnit::kNs, "the GPU event's duration"},
      {"delay_avg", "Launch delay avg", AnalysisUnit::kNs,
       "the GPU event's start minus the end of the call that launched it"},
      {"delay_max", "Launch delay max", AnalysisUnit::kNs, ""},
      {"slow_runtime", "Runtime > 50 µs", AnalysisUnit::kCount,
       "HTA's outliers: launches whose runtime call took over 50 µs"},
      {"late", "Delay > 100 µs", AnalysisUnit::kCount,
       "HTA's outliers: GPU events that started over 100 µs after their launch returned"},
      {"short", "Shorter than launch", AnalysisUnit::kCount,
       "GPU events that ran for less time than their launch call took (candidates to fuse or "
       "to capture in a CUDA graph)"},
  };
}

void fill(AnalysisRow* r, const ByName& b) {
  const double n = static_cast<double>(std::max<uint64_t>(1, b.count));
  r->cells[kCount] = AnalysisCell::of(static_cast<double>(b.count));
  r->cells[kRuntimeAvg] = AnalysisCell::of(static_cast<double>(b.runtime_total) / n);
  r->cells[kRuntimeMax] = AnalysisCell::of(static_cast<double>(b.runtime_max));
  r->cells[kKernelAvg] = AnalysisCell::of(static_cast<double>(b.kernel_total) / n);
  r->cells[kDelayAvg] = AnalysisCell::of(static_cast<double>(b.delay_total) / n);
  r->cells[kDelayMax] = AnalysisCell::of(static_cast<double>(b.delay_max));
  r->cells[kSlowRuntime] = AnalysisCell::of(static_cast<double>(b.slow_runtime));
  r->cells[kLate] = AnalysisCell::of(static_cast<double>(b.late));
  r->cells[kShort] = AnalysisCell::of(static_cast<double>(b.short_kernels));
}

void add(ByName* b, TimeNs runtime, TimeNs kernel, TimeNs delay, uint32_t track) {
  ++b->count;
  b->runtime_total += runtime;
  b->runtime_max = std::max(b->runtime_max, runtime);
  b->kernel_total += kernel;
  b->delay_total += delay;
  b->delay_max = b->count == 1 ? delay : std::max(b->delay_max, delay);
  b->slow_runtime += runtime > kSlowRuntimeNs;
  b->late += delay > kLateLaunchNs;
  b->short_kernels += kernel < runtime;
  if (track != kNone && std::find(b->tracks.begin(), b->tracks.end(), track) == b->tracks.end())
    b->tracks.push_back(track);
}

}  // namespace

bool kernel_launches_available(const Engine& engine, std::string* why) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  for (const GpuDevice& d : w.devices)
    for (const GpuStream& st : d.streams)
      for (uint32_t e : st.events)
        if (launching_event(s, e) != kNone) return true;
  *why = w.devices.empty() ? "no GPU work in this trace"
                           : "the file links no GPU event to the runtime call that launched it "
                             "(Kineto writes ac2g flows for that)";
  return false;
}

AnalysisTable kernel_launches_table(const Engine& engine, const QueryArgs& /*args*/) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  const std::vector<uint32_t> display_of =
      store_to_display(engine.display_tracks(), s.tracks.size());

  ByName all;
  std::unordered_map<StrId, ByName> by_name;
  uint64_t unlinked = 0;
  for (const GpuDevice& d : w.devices)
    for (const GpuStream& st : d.streams)
      for (uint32_t e : st.events) {
        const uint32_t call = launching_event(s, e);
        if (call == kNone) {
          ++unlinked;
          continue;
        }
        const TimeNs runtime = std::max<TimeNs>(0, s.events.dur[call]);
        const TimeNs kernel = std::max<TimeNs>(0, s.events.dur[e]);
        const TimeNs delay = s.events.start[e] - (s.events.start[call] + runtime);
        add(&all, runtime, kernel, delay, display_of[st.track]);
        add(&by_name[s.events.name[e]], runtime, kernel, delay, display_of[st.track]);
      }

  AnalysisTable t;
  t.title = "Kernel launches";
  t.columns = columns();
  t.notes.push_back(
      "Per GPU event linked to its launching runtime call (Kineto's ac2g flow): launch delay = "
      "the event's start − the call's end; outliers by HTA's cut-offs (runtime call > 50 µs, "
      "delay > 100 µs).");
  if (unlinked)
    t.notes.push_back(std::to_string(unlinked) +
                      " GPU events have no launching call in the file and are left out.");
  AnalysisRow top;
  top.cells.assign(kColumns, AnalysisCell{});
  top.cells[kName] = AnalysisCell::of(std::string("All launches"));
  fill(&top, all);
  top.link.tracks = all.tracks;
  t.rows.push_back(std::move(top));
  std::vector<std::pair<StrId, const ByName*>> order;
  for (const auto& [name, b] : by_name) order.emplace_back(name, &b);
  // Most delayed in all first: where launch overhead costs the most.
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    if (a.second->delay_total != b.second->delay_total)
      return a.second->delay_total > b.second->delay_total;
    return s.strings.get(a.first) < s.strings.get(b.first);
  });
  for (const auto& [name, b] : order) {
    AnalysisRow r;
    r.parent = 0;
    r.cells.assign(kColumns, AnalysisCell{});
    r.cells[kName] = AnalysisCell::of(std::string(s.strings.get(name)));
    fill(&r, *b);
    r.link.name = std::string(s.strings.get(name));
    r.link.tracks = b->tracks;
    t.rows.push_back(std::move(r));
  }
  return t;
}

}  // namespace strata
