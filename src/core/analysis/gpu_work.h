// The GPU work of a trace, and how its time divides: TraceLens's GPU timeline breakdown
// (compute + exposed communication + exposed memcpy + idle = the span from the first GPU event's
// start to the last one's end) and HTA's idle-time split per stream (host wait, kernel wait,
// other). Kineto GPU processes and the streams of xplane GPU device planes, found from the store.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

enum class GpuWork : uint8_t { kNotGpu, kCompute, kComm, kMemcpy };

// Kineto: by category, as TraceLens does: "kernel" and "gpu_memset" are compute unless the name
// contains "nccl" (communication), "gpu_memcpy" is memcpy; also the 2021 categories "Kernel",
// "Memset", "Memcpy", which TraceLens does not read. xplane device streams (no category):
// by name, as TraceLens's JAX analyser: copy / memcpy / memset (any case) first, then "nccl".
GpuWork kineto_gpu_work(std::string_view cat, std::string_view name);
// Ascend (torch_npu) trace_view.json: the "Ascend Hardware" process's streams carry no
// category; HCCL's tasks (hcom / hccl ops, Notify, Write Value, SDMA, RDMA, Reduce Inline) are
// communication, MEMCPY tasks memcpy, the rest compute.
GpuWork ascend_npu_work(std::string_view name);
bool is_ascend_hardware_process(std::string_view process_name);
GpuWork xplane_gpu_work(std::string_view name);

struct GpuStream {
  uint32_t track = 0;            // store track
  std::vector<uint32_t> events;  // its GPU work, by start time
};

struct GpuDevice {
  uint32_t process = 0;  // store process
  std::vector<GpuStream> streams;
};

struct GpuWorkSet {
  std::vector<GpuDevice> devices;  // in the store's process order
  std::vector<GpuWork> work_of;    // per store event (kNotGpu: not GPU work)
  bool from_categories = false;    // Kineto (categories) rather than xplane names
};

GpuWorkSet find_gpu_work(const TraceStore& s);

// HTA's threshold: a gap between consecutive kernels on a stream shorter than this, when the
// next kernel was launched before the previous one ended, is launch overhead ("kernel wait").
constexpr TimeNs kKernelWaitNs = 30;

struct GpuBreakdown {
  TimeNs first = 0, last = 0;  // first start, last end
  TimeNs span = 0;             // last - first
  TimeNs compute = 0;          // |∪ compute|
  TimeNs comm = 0;             // |∪ communication|
  TimeNs memcpy = 0;           // |∪ memcpy|
  TimeNs exposed_comm = 0;     // |∪ comm − ∪ compute|
  TimeNs exposed_memcpy = 0;   // |∪ memcpy − ∪ compute − ∪ comm|
  TimeNs busy = 0;             // |∪ all|
  TimeNs idle = 0;             // span − busy
  TimeNs comm_overlapped = 0;  // |∪ comm ∩ ∪ compute|
  uint64_t events = 0;
};

// Over a set of GPU events (of one stream, one device, ...).
GpuBreakdown gpu_breakdown(const TraceStore& s, const GpuWorkSet& w,
                           const std::vector<uint32_t>& events);

struct StreamIdle {
  TimeNs host_wait = 0;    // the next kernel's launch began after the previous kernel ended
  TimeNs kernel_wait = 0;  // launched in time, gap < kKernelWaitNs
  TimeNs other = 0;        // the rest (syncs between streams, ...)
  uint64_t gaps = 0;
  uint64_t launches_known = 0;  // kernels whose launching runtime call the file links
};

// HTA's split of the gaps between consecutive events of one stream (sorted by start). `launch`
// gives the start of the runtime call that launched an event, or -1 when the file does not say.
StreamIdle stream_idle(const TraceStore& s, const GpuStream& stream,
                       const std::vector<TimeNs>& launch_start);

// The call on another process (a CUDA runtime call, through Kineto's ac2g flow) that launched
// GPU event `e`, or kNone when the file links none.
uint32_t launching_event(const TraceStore& s, uint32_t e);

// The start of each of the stream's events' launching call (a flow into it from another
// process: Kineto's ac2g), indexed like st.events; -1 when the file links none.
std::vector<TimeNs> launch_starts(const TraceStore& s, const GpuStream& st);

}  // namespace strata
