#include "engine/analysis/queue_length.h"

#include <algorithm>

#include "core/analysis/gpu_work.h"
#include "core/analysis/queue_length.h"
#include "engine/analysis/analysis_cache.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {

namespace {

enum Col { kName, kMax, kMaxAt, kMean, kAtStall, kLaunches, kEvents, kColumns };

std::vector<AnalysisColumn> columns() {
  return {
      {"name", "Device / stream", AnalysisUnit::kText, "a GPU device (its streams beneath)"},
      {"max", "Max queue", AnalysisUnit::kCount,
       "most events launched and not finished at once (a device: its busiest stream's)"},
      {"max_at", "Max at", AnalysisUnit::kNs, "when the queue first reached its maximum"},
      {"mean", "Mean queue", AnalysisUnit::kRatio,
       "time-weighted, from the first launch to the last end"},
      {"at_stall", "Time at ≥ 1024", AnalysisUnit::kNs,
       "time the queue held 1024 or more: the CUDA runtime then makes the host wait"},
      {"launches", "Linked launches", AnalysisUnit::kCount,
       "events whose launching runtime call the file links (only they are counted)"},
      {"events", "GPU events", AnalysisUnit::kCount, "kernels, memcpys and memsets on it"},
  };
}

std::string name_of(const TraceStore& s, StrId id, const std::string& fallback) {
  return id ? std::string(s.strings.get(id)) : fallback;
}

}  // namespace

bool queue_length_available(const Engine& engine, std::string* why) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  if (w.devices.empty()) {
    *why = "no GPU work in this trace";
    return false;
  }
  for (const GpuDevice& d : w.devices)
    for (const GpuStream& st : d.streams)
      for (uint32_t e : st.events)
        if (launching_event(s, e) != kNone) return true;
  *why = "the file links no GPU event to the runtime call that launched it (no ac2g flows)";
  return false;
}

AnalysisTable queue_length_table(const Engine& engine, const QueryArgs& /*args*/) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  const std::vector<uint32_t> display_of =
      store_to_display(engine.display_tracks(), s.tracks.size());
  const TimeNs origin = s.has_time ? s.start_ns : 0;
  AnalysisTable t;
  t.title = "Queue length";
  t.columns = columns();
  t.notes.push_back(
      "HTA's queue length per stream: an event joins when the runtime call that launched it "
      "starts and leaves when it ends. The timeline shows it too, as a \"Queue length\" counter "
      "track under each stream.");
  for (const GpuDevice& dev : w.devices) {
    AnalysisRow drow;
    drow.cells.assign(kColumns, AnalysisCell{});
    const Process& p = s.processes[dev.process];
    drow.cells[kName] = AnalysisCell::of(name_of(s, p.name, "process " + p.key));
    const auto parent = static_cast<int32_t>(t.rows.size());
    t.rows.push_back(std::move(drow));
    int64_t dev_max = 0;
    TimeNs dev_max_at = 0, dev_stall = 0;
    uint64_t dev_launches = 0, dev_events = 0;
    for (const GpuStream& st : dev.streams) {
      uint64_t launches = 0;
      const QueueSummary q = summarize_queue(stream_queue_length(s, st, &launches), launches);
      AnalysisRow r;
      r.parent = parent;
      r.cells.assign(kColumns, AnalysisCell{});
      r.cells[kName] =
          AnalysisCell::of(name_of(s, s.tracks[st.track].name, "thread " + s.tracks[st.track].key));
      r.cells[kLaunches] = AnalysisCell::of(static_cast<double>(launches));
      r.cells[kEvents] = AnalysisCell::of(static_cast<double>(st.events.size()));
      if (launches) {
        r.cells[kMax] = AnalysisCell::of(static_cast<double>(q.max));
        r.cells[kMaxAt] = AnalysisCell::of(static_cast<double>(q.max_at - origin));
        r.cells[kMean] = AnalysisCell::of(q.mean);
        r.cells[kAtStall] = AnalysisCell::of(static_cast<double>(q.at_stall));
      } else {
        for (int c : {kMax, kMaxAt, kMean, kAtStall})
          r.cells[c] = AnalysisCell::empty("the file links none of its launches");
      }
      if (display_of[st.track] != kNone) {
        r.link.tracks.push_back(display_of[st.track]);
        t.rows[static_cast<size_t>(parent)].link.tracks.push_back(display_of[st.track]);
      }
      if (launches && (q.max > dev_max || dev_launches == 0)) {
        dev_max = q.max;
        dev_max_at = q.max_at;
      }
      dev_stall = std::max(dev_stall, q.at_stall);
      dev_launches += launches;
      dev_events += st.events.size();
      t.rows.push_back(std::move(r));
    }
    AnalysisRow& d = t.rows[static_cast<size_t>(parent)];
    d.cells[kLaunches] = AnalysisCell::of(static_cast<double>(dev_launches));
    d.cells[kEvents] = AnalysisCell::of(static_cast<double>(dev_events));
    if (dev_launches) {
      d.cells[kMax] = AnalysisCell::of(static_cast<double>(dev_max));
      d.cells[kMaxAt] = AnalysisCell::of(static_cast<double>(dev_max_at - origin));
      d.cells[kAtStall] = AnalysisCell::of(static_cast<double>(dev_stall));
    } else {
      for (int c : {kMax, kMaxAt, kAtStall})
        d.cells[c] = AnalysisCell::empty("the file links none of its launches");
    }
    d.cells[kMean] = AnalysisCell::empty("per stream (see its streams)");
  }
  return t;
}

}  // namespace strata
