#include "engine/analysis/gpu_breakdown.h"

#include "core/analysis/gpu_work.h"
#include "engine/analysis/analysis_cache.h"
#include "engine/analysis/breakdown_cells.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {

namespace {

std::string device_name(const TraceStore& s, const Process& p) {
  std::string n = p.name ? std::string(s.strings.get(p.name)) : "process " + p.key;
  for (StrId l : p.labels) n += " · " + std::string(s.strings.get(l));
  return n;
}

std::string stream_name(const TraceStore& s, const Track& t) {
  return t.name ? std::string(s.strings.get(t.name)) : "thread " + t.key;
}

enum Col {
  kName,
  kSpan,
  kCompute,
  kExposedComm,
  kExposedMemcpy,
  kIdle,
  kComputePct,
  kComm,
  kMemcpy,
  kOverlapPct,
  kHostWait,
  kKernelWait,
  kOtherWait,
  kEvents,
  kColumns
};
static_assert(kComputePct - kSpan + 1 == kBreakdownColumns, "the breakdown cells follow the name");

std::vector<AnalysisColumn> columns() {
  std::vector<AnalysisColumn> c = {
      {"name", "Device / stream", AnalysisUnit::kText, "a GPU device (its streams beneath)"}};
  append_breakdown_columns(
      &c, "Span",
      "from the first GPU event's start to the last one's end; = compute + exposed "
      "communication + exposed memcpy + idle",
      "time any compute kernel runs (kernels and memsets not named nccl), overlaps counted once");
  c.insert(
      c.end(),
      {
          {"comm", "Comm (all)", AnalysisUnit::kNs,
           "time any communication runs, overlapped or not"},
          {"memcpy", "Memcpy (all)", AnalysisUnit::kNs, "time any memcpy runs, overlapped or not"},
          {"overlap_pct", "Comm overlap %", AnalysisUnit::kPercent,
           "HTA's communication-computation overlap: time computing while communicating / time "
           "communicating"},
          {"host_wait", "Idle: host wait", AnalysisUnit::kNs,
           "HTA: gaps on the stream where the next kernel's launch began after the previous ended"},
          {"kernel_wait", "Idle: kernel wait", AnalysisUnit::kNs,
           "HTA: gaps under 30 ns where the next kernel was launched in time (launch overhead)"},
          {"other_wait", "Idle: other", AnalysisUnit::kNs,
           "HTA: the other gaps (waits on other streams, events, ...)"},
          {"events", "GPU events", AnalysisUnit::kCount, "kernels, memcpys and memsets"},
      });
  return c;
}

void fill(AnalysisRow* r, const GpuBreakdown& b) {
  fill_breakdown_cells(&r->cells, kSpan, b);
  r->cells[kComm] = AnalysisCell::of(static_cast<double>(b.comm));
  r->cells[kMemcpy] = AnalysisCell::of(static_cast<double>(b.memcpy));
  r->cells[kOverlapPct] = b.comm > 0 ? AnalysisCell::of(percent_of(b.comm_overlapped, b.comm))
                                     : AnalysisCell::empty("no communication on it");
  r->cells[kEvents] = AnalysisCell::of(static_cast<double>(b.events));
}

}  // namespace

bool gpu_breakdown_available(const Engine& engine, std::string* why) {
  const TraceStore& s = *engine.store();
  if (shared_gpu_work(engine).devices.empty()) {
    *why = s.xspace ? "no GPU device plane with streams in this XSpace"
                    : "no GPU kernels, memcpys or memsets (Kineto categories kernel, gpu_memcpy, "
                      "gpu_memset) in this trace";
    return false;
  }
  return true;
}

AnalysisTable gpu_breakdown_table(const Engine& engine, const QueryArgs& /*args*/) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  const std::vector<uint32_t> display_of =
      store_to_display(engine.display_tracks(), s.tracks.size());

  AnalysisTable t;
  t.title = "GPU breakdown";
  t.columns = columns();
  t.notes.push_back(
      "Per device, compute + exposed comm + exposed memcpy + idle = span, as TraceLens's GPU "
      "timeline breakdown defines them (TraceLens sums a PyTorch file's GPU events together: "
      "the same figures when the file has one GPU).");
  t.notes.push_back(
      w.from_categories
          ? "Kinds by Kineto category: kernel and gpu_memset are compute unless the "
            "name contains \"nccl\", gpu_memcpy is memcpy; Ascend's \"Ascend "
            "Hardware\" streams by task name (HCCL's tasks communication, MEMCPY memcpy)."
          : "Kinds by name, as TraceLens's JAX analyser: copy / memcpy / memset "
            "first, then names starting \"nccl\", the rest compute.");
  t.notes.push_back(
      "Idle per stream is split as HTA does: host wait (the launch came late), kernel wait "
      "(gaps under 30 ns), other. Device rows leave it empty: HTA splits streams only.");
  bool any_launch = false;
  for (const GpuDevice& dev : w.devices) {
    std::vector<uint32_t> all;
    for (const GpuStream& st : dev.streams)
      all.insert(all.end(), st.events.begin(), st.events.end());
    AnalysisRow drow;
    drow.cells.assign(kColumns, AnalysisCell{});
    drow.cells[kName] = AnalysisCell::of(device_name(s, s.processes[dev.process]));
    fill(&drow, gpu_breakdown(s, w, all));
    for (int c : {kHostWait, kKernelWait, kOtherWait})
      drow.cells[c] = AnalysisCell::empty("split per stream only (see its streams)");
    for (const GpuStream& st : dev.streams)
      if (display_of[st.track] != kNone) drow.link.tracks.push_back(display_of[st.track]);
    const int32_t parent = static_cast<int32_t>(t.rows.size());
    t.rows.push_back(std::move(drow));
    for (const GpuStream& st : dev.streams) {
      AnalysisRow r;
      r.parent = parent;
      r.cells.assign(kColumns, AnalysisCell{});
      r.cells[kName] = AnalysisCell::of(stream_name(s, s.tracks[st.track]));
      fill(&r, gpu_breakdown(s, w, st.events));
      const std::vector<TimeNs> launch = launch_starts(s, st);
      const StreamIdle idle = stream_idle(s, st, launch);
      any_launch |= idle.launches_known > 0;
      r.cells[kHostWait] = idle.launches_known
                               ? AnalysisCell::of(static_cast<double>(idle.host_wait))
                               : AnalysisCell::empty("the file links no launch to these events");
      r.cells[kKernelWait] = AnalysisCell::of(static_cast<double>(idle.kernel_wait));
      r.cells[kOtherWait] = AnalysisCell::of(static_cast<double>(idle.other));
      if (display_of[st.track] != kNone) r.link.tracks.push_back(display_of[st.track]);
      t.rows.push_back(std::move(r));
    }
  }
  if (!any_launch)
    t.notes.push_back(
        "The file links no kernel to the runtime call that launched it, so host wait cannot be "
        "told from other waits: those gaps count as kernel wait or other.");
  return t;
}

}  // namespace strata
