// HTA's queue length per GPU stream: the work launched onto it and not finished yet, over time.
// A GPU event joins the queue when the runtime call that launched it starts (Kineto's ac2g
// flow gives the call) and leaves it when the event ends; events whose launch the file does not
// link are left out. At about 1024 queued the CUDA runtime makes the host wait.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "core/store/trace_store.h"

namespace strata {

// The CUDA runtime's queue depth at which a launch blocks the host (HTA's note).
constexpr int64_t kQueueStallLength = 1024;

struct QueueSample {
  TimeNs t = 0;
  int64_t length = 0;  // from t until the next sample
};

// The stream's queue length as steps: one sample per time it changes, by time; ends at 0.
// `launches` (when given) gets how many events had their launch linked.
std::vector<QueueSample> stream_queue_length(const TraceStore& s, const GpuStream& st,
                                             uint64_t* launches = nullptr);

struct QueueSummary {
  uint64_t launches = 0;  // events counted (their launch is linked)
  int64_t max = 0;
  TimeNs max_at = 0;           // when the queue first reached max
  double mean = 0;             // time-weighted, from the first sample to the last
  TimeNs first = 0, last = 0;  // the samples' span
  TimeNs at_stall = 0;         // time spent at kQueueStallLength or more
};

QueueSummary summarize_queue(const std::vector<QueueSample>& q, uint64_t launches);

// The queue length of every GPU stream whose launches the file links, as a counter track
// ("Queue length (<stream>)", one series "length") of the stream's process, shown right after
// the stream. Called once after the load, before the zoom levels are built; the tracks,
// series and samples are appended after the file's. Returns how many tracks it added. With
// `gpu`, the GPU work it found (find_gpu_work: the tracks it adds hold no events, so it stays
// the trace's) is moved there, when it looked for any (not in an XSpace).
uint32_t add_queue_length_tracks(TraceStore* s, std::optional<GpuWorkSet>* gpu = nullptr);
// A track added after the load: its key starts with a NUL byte, which no file's name gives.
bool is_derived_track(const Track& t);
// The counter samples of derived tracks (the summary counts the file's alone).
size_t derived_counter_samples(const TraceStore& s);

}  // namespace strata
