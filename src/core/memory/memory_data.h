// The memory model every source fills (Kineto `[memory]` instants, memory-named Chrome
// counters, Ascend memory_record.csv / operator_memory.csv): plain columns, no source types.
//   * series: memory in use over time per (device, component), as (ts, allocated, reserved)
//     samples; a value the source does not record is NaN. A sample holds until the next one.
//   * allocations: one row per buffer (operator name, bytes, allocation and release time,
//     device; shape / region when the source knows them). Unreleased: release == kNoRelease.
// memory_finish() sorts and indexes it; queries are in memory_query.h.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/base/types.h"
#include "core/memory/minmax_pyramid.h"

namespace strata {

constexpr TimeNs kNoRelease = std::numeric_limits<TimeNs>::max();

struct MemorySeries {
  std::string device;     // "GPU 0", "NPU:0", a counter's name
  std::string component;  // "" for a device total; "PTA", "GE", "APP", ... (Ascend)
  std::vector<TimeNs> ts;
  std::vector<double> allocated, reserved;            // bytes
  MinMaxPyramid allocated_pyramid, reserved_pyramid;  // built by memory_finish
  size_t size() const { return ts.size(); }
  void add(TimeNs t, double alloc, double resv) {
    ts.push_back(t);
    allocated.push_back(alloc);
    reserved.push_back(resv);
  }
};

struct MemoryAllocations {
  std::vector<std::string> name, device, shape, region;
  std::vector<double> bytes;
  std::vector<TimeNs> alloc_ts, release_ts;
  size_t size() const { return bytes.size(); }
  void add(std::string n, std::string dev, double b, TimeNs t0, TimeNs t1, std::string shp = {},
           std::string reg = {}) {
    name.push_back(std::move(n));
    device.push_back(std::move(dev));
    shape.push_back(std::move(shp));
    region.push_back(std::move(reg));
    bytes.push_back(b);
    alloc_ts.push_back(t0);
    release_ts.push_back(t1);
  }
};

// The memory a device has, as the profile states it (Kineto's deviceProperties).
struct MemoryCapacity {
  std::string device;  // as the series name it ("GPU 0")
  double bytes = 0;
  std::string source;  // where it was read, for the tooltip
};

struct MemoryData {
  std::vector<MemorySeries> series;
  MemoryAllocations allocations;
  // Which sources contributed ("kineto", "counters", "ascend-csv"), and problems found.
  std::vector<std::string> sources;
  std::vector<std::string> warnings;
  // Devices whose allocation rows come from every allocator call of their series (Kineto
  // `[memory]` with `Addr`): what the series holds beyond the live rows was allocated before
  // the trace began. And devices whose allocator calls carry no `Addr` (Kineto before 2021),
  // so no call can be paired with its free and there are no allocation rows.
  std::vector<std::string> paired_devices, addressless_devices;
  std::vector<MemoryCapacity> capacities;  // per device, at most one each
  bool empty() const { return series.empty() && allocations.size() == 0; }
};

// Sorts every series by time (stable: samples at one instant keep file order, the last wins),
// drops empty series, orders series by (device, component) and builds the pyramids.
void memory_finish(MemoryData* m);
// Appends `from` to `into` (series of the same device and component are merged) and finishes.
void memory_merge(MemoryData* into, MemoryData from);

// The device names, in order of first appearance in the series (then the allocations).
std::vector<std::string> memory_devices(const MemoryData& m);
// The series drawn for a device when grouping by total: its "" component when it has one,
// else the component with the highest allocated peak (Ascend "PTA+GE"), else the highest
// reserved. kNone when the device has no series.
uint32_t memory_primary_series(const MemoryData& m, const std::string& device);
// First and last time of the data (series samples, allocation and release times) of `device`,
// or of every device when it is null. False when there is none.
bool memory_time_span(const MemoryData& m, const std::string* device, TimeNs* lo, TimeNs* hi);

}  // namespace strata
