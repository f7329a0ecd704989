// Where a step's time goes, with XProf's overlap priority (its overview page and input pipeline
// analyser): every host and device event seen in the step gets an event type; where events
// overlap, the type of higher priority owns the time, so the parts partition the step exactly,
// nothing counted twice. Time no event covers is idle (XProf folds it into "all others").
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "core/analysis/steps.h"
#include "core/store/trace_store.h"

namespace strata {

// XProf's event types that a trace can show, each valued by its priority: where two overlap,
// the larger value owns the time.
enum class StepEventType : uint8_t {
  kUnknown = 0,
  kHostCompute = 10,
  kHostCompile = 60,
  kHostToHost = 70,
  kHostToDevice = 80,
  kHostPrepare = 90,  // launching device work ("kernel launch")
  kDeviceCollectives = 100,
  kHostWaitInput = 110,
  kDeviceToDevice = 120,
  kDeviceToHost = 130,
  kDeviceCompute = 140,
};

// The parts a step is split into, in the order they are shown.
enum class StepPart : uint8_t {
  kDeviceCompute,
  kCollectives,
  kHostToDevice,
  kDeviceToHost,
  kDeviceToDevice,
  kInputWait,
  kKernelLaunch,
  kHostCompute,
  kCompile,
  kOther,
  kIdle,
};
constexpr size_t kStepParts = 11;
using StepParts = std::array<TimeNs, kStepParts>;

const char* step_part_key(StepPart p);    // "device_compute", ... (column keys)
const char* step_part_label(StepPart p);  // "Device compute", ...
// Host→host copies and unknown events are "other", as XProf shows them in "all others".
StepPart step_part_of(StepEventType t);

// Host events. Kineto: "enumerate(DataLoader)..." is input wait; a runtime call that launched
// device work is kernel launch; TensorFlow's IteratorGetNext / MemcpyHToD / InfeedEnqueue as
// XProf reads them; names with "compile" (not "compiled": running compiled code) are compile;
// the profiler's own spans are unknown; the rest host compute.
StepEventType classify_host_event(std::string_view name, std::string_view cat,
                                  bool launched_device_work);
// Device events: memcpys by direction in their name (HtoD, DtoH, DtoD / PtoP, HtoH; other
// copies device→device), memsets and kernels compute, communication collectives.
StepEventType classify_device_event(GpuWork kind, std::string_view name);

struct TypedSpan {
  TimeNs begin = 0, end = 0;
  StepEventType type = StepEventType::kUnknown;
  uint32_t event = kNone;  // the store event it comes from, or kNone
};

// Per part, the events that own some of its time: an event whose span is entirely hidden by
// higher-priority work is in none. Sorted, each once.
using StepPartEvents = std::array<std::vector<uint32_t>, kStepParts>;

// [begin, end) split by `spans` (clipped to it) under the priority rule; the parts sum to
// end - begin exactly. With `events`, also the spans' events that own time in each part: the
// union of a part's events (clipped to the window) less the time of higher-priority types is
// that part's figure.
StepParts partition_window(TimeNs begin, TimeNs end, std::vector<TypedSpan> spans,
                           StepPartEvents* events = nullptr);

struct StepBreakdown {
  size_t step = 0;     // index into the steps given
  uint32_t group = 0;  // steps of one track share a group (0, 1, ... in order)
  StepParts parts{};
  TimeNs device_busy = 0;             // |∪ device work in the window|
  std::vector<uint32_t> device_work;  // GPU events running in the window
  uint64_t host_events = 0;           // host events seen in the window
  StepPartEvents part_events;         // filled only when partition_steps is asked for them
};

// Per step of find_steps(): its window split by the events of its host process (Kineto:
// the step's process, its Python frames and the profiler's own spans left out) and of the GPU
// devices it launches work on (all devices when the file links no launch), or for an xplane
// device step the device's streams and the host planes' threads.
// With `with_events`, each breakdown's part_events too (the events a part cell links).
std::vector<StepBreakdown> partition_steps(const TraceStore& s, const GpuWorkSet& w,
                                           const std::vector<Step>& steps,
                                           bool with_events = false);

}  // namespace strata
