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
}  // namespace memory_live

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
