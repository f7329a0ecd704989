#include "engine/analysis/steps_table.h"

#include <cmath>

#include "core/analysis/steps.h"
#include "engine/analysis/analysis_cache.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {

namespace {

enum Col { kName, kStart, kDuration, kDeviceSpan, kDeviceBusy, kBusyPct, kDeviceEvents, kColumns };

std::vector<AnalysisColumn> columns() {
  return {
      {"name", "Step", AnalysisUnit::kText, "the step's slice; groups are where steps are"},
      {"start", "Start", AnalysisUnit::kNs, "from the trace's start"},
      {"duration", "Duration", AnalysisUnit::kNs,
       "the step slice's length; a group row: the mean over its steps"},
      {"device_span", "Device span", AnalysisUnit::kNs,
       "from the first to the last GPU event of the step (host steps: what it launched)"},
      {"device_busy", "GPU busy", AnalysisUnit::kNs, "time any of those GPU events runs"},
      {"busy_pct", "GPU busy %", AnalysisUnit::kPercent, "GPU busy / duration"},
      {"device_events", "GPU events", AnalysisUnit::kCount,
       "host steps: kernels, memcpys and memsets launched in the step; device steps: those "
       "running in it"},
  };
}

std::string where(const TraceStore& s, uint32_t track) {
  const Track& t = s.tracks[track];
  const Process& p = s.processes[t.process];
  std::string n = p.name ? std::string(s.strings.get(p.name)) : "process " + p.key;
  return n + " / " + (t.name ? std::string(s.strings.get(t.name)) : "thread " + t.key);
}

}  // namespace

bool steps_available(const Engine& engine, std::string* why) {
  if (shared_steps(engine).empty()) {
    *why = "no steps: no ProfilerStep#N slices (Kineto) and no Steps row (xplane)";
    return false;
  }
  return true;
}

AnalysisTable steps_table(const Engine& engine, const QueryArgs& /*args*/) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  const std::vector<Step>& steps = shared_steps(engine);
  const std::vector<uint32_t> display_of =
      store_to_display(engine.display_tracks(), s.tracks.size());
  const TimeNs origin = s.has_time ? s.start_ns : 0;

  AnalysisTable t;
  t.title = "Steps";
  t.columns = columns();
  t.notes.push_back(
      "Kineto steps are the ProfilerStep#N slices; their device work is what their runtime calls "
      "launched (it may run after the step ends). xplane steps are the device's Steps row.");
  t.notes.push_back(
      "Ascend: the ProfilerStep#N slices of trace_view.json are listed like Kineto's; "
      "step_trace_time.csv is read by the Runs tab, not here.");
  if (w.devices.empty())
    t.notes.push_back("No GPU work in this trace: the GPU columns do not apply.");
  size_t i = 0;
  while (i < steps.size()) {
    const uint32_t track = s.events.track[steps[i].event];
    size_t j = i;
    double sum = 0, sum2 = 0;
    while (j < steps.size() && s.events.track[steps[j].event] == track) {
      const double d = static_cast<double>(steps[j].end - steps[j].start);
      sum += d, sum2 += d * d, ++j;
    }
    const double n = static_cast<double>(j - i), mean = sum / n;
    const double sd = std::sqrt(std::max(0.0, sum2 / n - mean * mean));
    AnalysisRow g;
    g.cells.assign(kColumns, AnalysisCell{});
    g.cells[kName] = AnalysisCell::of(where(s, track) + " (" + std::to_string(j - i) + " steps)");
    g.cells[kStart] = AnalysisCell::empty("a group of steps");
    g.cells[kDuration] = AnalysisCell::of(mean);
    for (int c : {kDeviceSpan, kDeviceBusy, kBusyPct, kDeviceEvents})
      g.cells[c] = AnalysisCell::empty("see each step");
    if (display_of[track] != kNone) g.link.tracks.push_back(display_of[track]);
    const int32_t parent = static_cast<int32_t>(t.rows.size());
    t.rows.push_back(std::move(g));
    t.notes.push_back(where(s, track) + ": " + std::to_string(j - i) + " steps, mean " +
                      std::to_string(static_cast<int64_t>(mean)) + " ns, standard deviation " +
                      std::to_string(static_cast<int64_t>(sd)) + " ns.");
    for (; i < j; ++i) {
      const Step& st = steps[i];
      AnalysisRow r;
      r.parent = parent;
      r.cells.assign(kColumns, AnalysisCell{});
      const std::string name(s.strings.get(s.events.name[st.event]));
      r.cells[kName] = AnalysisCell::of(name);
      r.cells[kStart] = AnalysisCell::of(static_cast<double>(st.start - origin));
      r.cells[kDuration] = AnalysisCell::of(static_cast<double>(st.end - st.start));
      if (st.device_events) {
        r.cells[kDeviceSpan] =
            AnalysisCell::of(static_cast<double>(st.device_last - st.device_first));
        r.cells[kDeviceBusy] = AnalysisCell::of(static_cast<double>(st.device_busy));
        r.cells[kBusyPct] =
            AnalysisCell::of(st.end > st.start ? 100.0 * static_cast<double>(st.device_busy) /
                                                     static_cast<double>(st.end - st.start)
                                               : 0.0);
      } else {
        const char* why = st.on_device ? "no GPU work on this device in the step"
                                       : "the step launched no GPU work the file links";
        for (int c : {kDeviceSpan, kDeviceBusy, kBusyPct}) r.cells[c] = AnalysisCell::empty(why);
      }
      r.cells[kDeviceEvents] = AnalysisCell::of(static_cast<double>(st.device_events));
      r.link.name = name;
      if (display_of[track] != kNone) r.link.tracks.push_back(display_of[track]);
      t.rows.push_back(std::move(r));
    }
  }
  return t;
}

}  // namespace strata
