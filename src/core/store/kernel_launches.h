// GPU kernels' launch parameters as a Kineto trace records them in each kernel's args ("grid",
// "block", "registers per thread", "shared memory", "est. achieved occupancy %"). Args are
// otherwise re-read from the file on selection; the kernel statistics need these for every
// kernel at once, so the JSON importer keeps them while it parses the kernel records anyway
// (one small row per kernel, nothing for other events). Rows are keyed by the event's record
// offset (EventColumns::src_offset), which survives the store's reordering of events.
#pragma once
#include <cstdint>
#include <vector>

namespace strata {

struct KernelLaunch {
  // Which fields the record carried (a field it lacked is unknown, never 0).
  enum Has : uint8_t {
    kGrid = 1,
    kBlock = 2,
    kRegisters = 4,
    kSharedMemory = 8,
    kOccupancy = 16,
  };
  uint64_t src_offset = 0;
  uint32_t grid[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  uint32_t registers = 0;      // per thread
  uint64_t shared_memory = 0;  // bytes per block
  float occupancy_pct = 0;     // the profiler's estimate of achieved occupancy, 0..100
  uint8_t has = 0;
};

struct KernelLaunches {
  std::vector<KernelLaunch> rows;  // sorted by src_offset
  // The row of the event whose record starts at `src_offset`, or null.
  const KernelLaunch* find(uint64_t src_offset) const;
};

}  // namespace strata
