// What the memory chart and its tables ask of a MemoryData: peaks, min/max per pixel column
// (from the pyramids: exact extremes at any zoom, O(pixels · log n) per reply), the buffers
// live at an instant and their breakdown by operator / shape / region.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/memory/memory_data.h"

namespace strata {

struct MemoryPeak {
  bool valid = false;
  double bytes = 0;
  TimeNs ts = 0;  // the first sample reaching the peak
};
MemoryPeak series_peak(const MemorySeries& s, bool reserved);

// Per pixel column of [t0, t1): min/max of the value in effect during the column (the sample
// at or before the column's start counts, since a sample holds until the next). has = false
// where the series has no value (before its first sample, or all NaN).
struct MemoryBucket {
  bool has_alloc = false, has_resv = false;
  double alloc_min = 0, alloc_max = 0, resv_min = 0, resv_max = 0;
};
std::vector<MemoryBucket> memory_buckets(const MemorySeries& s, double t0, double t1,
                                         uint32_t columns);

// Allocations of `device` live at t (alloc_ts <= t < release_ts), largest first.
std::vector<uint32_t> memory_live_at(const MemoryData& m, const std::string& device, TimeNs t);

// What `device`'s primary series holds at t beyond the `live` rows (memory_live_at's): memory
// allocated before the trace began and not yet freed. 0 for devices whose rows are not every
// allocator call (MemoryData::paired_devices), and when the rows account for it all.
double memory_untracked_at(const MemoryData& m, const std::string& device, TimeNs t,
                           const std::vector<uint32_t>& live);

enum class MemoryGroupBy : uint8_t { kOperator, kShape, kRegion };
struct MemoryGroup {
  std::string key;
  double bytes = 0;
  uint64_t count = 0;
};
// The live allocations grouped by key, largest total first.
std::vector<MemoryGroup> memory_breakdown(const MemoryData& m, const std::vector<uint32_t>& live,
                                          MemoryGroupBy by);

}  // namespace strata
