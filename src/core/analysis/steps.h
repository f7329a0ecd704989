// The training steps of a trace: Kineto's ProfilerStep#N slices (with the device work they
// launched, through their runtime calls' flows) and xplane "Steps" rows (from the file, or
// derived from group ids at import). A step answers "how long, and how busy was the GPU in it".
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "core/store/trace_store.h"

namespace strata {

struct Step {
  uint32_t event = 0;  // the step's slice
  TimeNs start = 0, end = 0;
  bool on_device = false;      // an xplane Steps row of a device plane (the step is device time)
  uint64_t device_events = 0;  // GPU work launched in it (Kineto) or running in it (xplane)
  TimeNs device_first = 0, device_last = 0;  // their first start and last end (when any)
  TimeNs device_busy = 0;                    // |∪ of them|
};

// Kineto: "ProfilerStep#<n>" slices; xplane: every slice of a Steps row (XProf's line id).
// In each group (a thread or a device) by start time; groups in track order.
std::vector<Step> find_steps(const TraceStore& s, const GpuWorkSet& w);

}  // namespace strata
