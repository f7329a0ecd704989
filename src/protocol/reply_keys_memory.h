// The keys of the memory chart's replies (engine/engine_memory.cc writes them, ui/memory reads
// them): the engine's `memory*` queries. Times are ns from the trace start (…RelNs, t, t0, t1,
// allocNs, releaseNs) except peakNs (absolute); sizes are bytes. See reply_keys.h for how the
// constants are used and checked.
#pragma once
#include <string_view>

namespace strata::protocol::keys {

// The `memory` query: what the chart can show (pending: the extra read of Kineto [memory]
// records is still under way; sources: where the data came from; devices: memory_device each).
namespace memory_summary {
inline constexpr std::string_view kPending = "pending";
inline constexpr std::string_view kSources = "sources";
inline constexpr std::string_view kWarnings = "warnings";
inline constexpr std::string_view kDevices = "devices";
}  // namespace memory_summary

// One of memory_summary.devices: its primary series' peak, its data's time range, its counts,
// the component of its primary series, and its series (memory_device_series each).
namespace memory_device {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kPairsAllocations = "pairsAllocations";
inline constexpr std::string_view kNoAddr = "noAddr";
inline constexpr std::string_view kPeakBytes = "peakBytes";
inline constexpr std::string_view kPeakNs = "peakNs";
inline constexpr std::string_view kPeakRelNs = "peakRelNs";
inline constexpr std::string_view kPeakIsReserved = "peakIsReserved";
inline constexpr std::string_view kStartRelNs = "startRelNs";
inline constexpr std::string_view kEndRelNs = "endRelNs";
inline constexpr std::string_view kSamples = "samples";
inline constexpr std::string_view kAllocations = "allocations";
inline constexpr std::string_view kUnreleased = "unreleased";
inline constexpr std::string_view kPrimary = "primary";
inline constexpr std::string_view kSeries = "series";
// The device memory the profile states (absent when it states none) and the peak's share of it.
inline constexpr std::string_view kCapacityBytes = "capacityBytes";
inline constexpr std::string_view kCapacitySource = "capacitySource";
inline constexpr std::string_view kPeakShare = "peakShare";
// Instead of those when the profile names the device but not its memory: what it does name.
inline constexpr std::string_view kCapacityWhy = "capacityWhy";
}  // namespace memory_device

// One of memory_device.series (a peak is null when the series has no such values).
namespace memory_device_series {
inline constexpr std::string_view kComponent = "component";
inline constexpr std::string_view kSamples = "samples";
inline constexpr std::string_view kPeakAllocated = "peakAllocated";
inline constexpr std::string_view kPeakAllocatedRelNs = "peakAllocatedRelNs";
inline constexpr std::string_view kPeakReserved = "peakReserved";
inline constexpr std::string_view kPeakReservedRelNs = "peakReservedRelNs";
}  // namespace memory_device_series

// The `memory_range` query: one device's series over [t0, t1], in buckets
// (memory_range_series each).
namespace memory_range {
inline constexpr std::string_view kDevice = "device";
inline constexpr std::string_view kT0 = "t0";
inline constexpr std::string_view kT1 = "t1";
inline constexpr std::string_view kSeries = "series";
}  // namespace memory_range

// One of memory_range.series: per bucket, the allocated (a…) and reserved (r…) bytes' min and
// max (null: no sample in the bucket).
namespace memory_range_series {
inline constexpr std::string_view kComponent = "component";
inline constexpr std::string_view kAmin = "amin";
inline constexpr std::string_view kAmax = "amax";
inline constexpr std::string_view kRmin = "rmin";
inline constexpr std::string_view kRmax = "rmax";
}  // namespace memory_range_series

// The `memory_live` query: what is allocated at t (count buffers, bytes in all, of which
// beforeTraceBytes were held before the trace began): the largest (memory_alloc each) and the
// groups they add up to (memory_group each).
namespace memory_live {
inline constexpr std::string_view kT = "t";
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kBeforeTraceBytes = "beforeTraceBytes";
inline constexpr std::string_view kTop = "top";
inline constexpr std::string_view kGroups = "groups";
// The XLA program run t falls in on the device (memory_xla_run), absent when none does.
inline constexpr std::string_view kModule = "module";
}  // namespace memory_live

// An XLA program's run on a device's "XLA Modules" row, as the Memory tab ties it to the
// Memory Viewer: the module and its program id, the device plane, the run, whether the instant
// asked about is inside it (during) or in the gap before it (its buffers are allocated before
// it launches), the Memory Viewer's module for it (graphModule, -1: none; bufferAssignment and
// why), the XLA op running at the instant and its program-order point (-1: none). The
// memory_module query's runs add the window searched (from the previous run's end) and the
// device's highest memory in it (peakBytes at peakRelNs).
namespace memory_xla_run {
inline constexpr std::string_view kModule = "module";
inline constexpr std::string_view kProgramId = "programId";
inline constexpr std::string_view kPlane = "plane";
inline constexpr std::string_view kDevice = "device";  // the memory device charted for the plane
inline constexpr std::string_view kStartRelNs = "startRelNs";
inline constexpr std::string_view kEndRelNs = "endRelNs";
inline constexpr std::string_view kDuring = "during";
inline constexpr std::string_view kGraphModule = "graphModule";
inline constexpr std::string_view kBufferAssignment = "bufferAssignment";
inline constexpr std::string_view kWhy = "why";
inline constexpr std::string_view kOp = "op";
inline constexpr std::string_view kPoint = "point";
inline constexpr std::string_view kWindowStartRelNs = "windowStartRelNs";
inline constexpr std::string_view kPeakBytes = "peakBytes";
inline constexpr std::string_view kPeakRelNs = "peakRelNs";
}  // namespace memory_xla_run

// The `memory_module` query: where a module runs among the charted devices (runs: how many
// runs it has there), its first run and the run with the most memory (memory_xla_run each,
// with its memory device); why when it runs on none of them.
namespace memory_module {
inline constexpr std::string_view kModule = "module";
inline constexpr std::string_view kProgramId = "programId";
inline constexpr std::string_view kRuns = "runs";
inline constexpr std::string_view kFirst = "first";
inline constexpr std::string_view kPeak = "peak";
inline constexpr std::string_view kWhy = "why";
}  // namespace memory_module

// One of memory_live.groups (share: of memory_live.bytes, 0..1; beforeTrace: the group of what
// was held before the trace began, present only then).
namespace memory_group {
inline constexpr std::string_view kKey = "key";
inline constexpr std::string_view kBeforeTrace = "beforeTrace";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kShare = "share";
}  // namespace memory_group

// The `memory_allocs` query: one device's buffers (memory_alloc each, the first `limit`) and
// how many it has.
namespace memory_allocs {
inline constexpr std::string_view kRows = "rows";
inline constexpr std::string_view kCount = "count";
}  // namespace memory_allocs

// One buffer (releaseNs: null when the trace never frees it).
namespace memory_alloc {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kAllocNs = "allocNs";
inline constexpr std::string_view kReleaseNs = "releaseNs";
inline constexpr std::string_view kShape = "shape";
inline constexpr std::string_view kRegion = "region";
}  // namespace memory_alloc

}  // namespace strata::protocol::keys
