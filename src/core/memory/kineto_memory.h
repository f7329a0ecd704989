// PyTorch profiler (Kineto) `[memory]` instants → MemoryData. Each instant is one allocator
// call: args `Bytes` (> 0 allocation, < 0 free), `Addr`, `Total Allocated` and
// `Total Reserved` after the call, `Device Type` (c10::DeviceType: 0 CPU, 1 CUDA/HIP) and
// `Device Id`. The totals become a series per device; an allocation and the free of the same
// address on the same device become one allocation row, named after the operator the instant
// sits in (the caller passes the enclosing slice's name). Files from before Kineto wrote the
// totals (2021) carry only Bytes: allocated is then their running sum per device.
// Instants must be added in time order (the engine sorts them).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "core/memory/memory_data.h"

namespace strata {

class KinetoMemoryBuilder {
 public:
  // `record` is the instant's JSON object as written in the file. False when its args lack
  // the totals (then it is skipped).
  bool add(std::string_view record, TimeNs ts, const std::string& op_name);
  // The data so far, finished (series sorted, pyramids built).
  MemoryData take();
  size_t skipped() const { return skipped_; }

 private:
  MemoryData data_;
  std::map<std::string, size_t> series_;                          // device → series index
  std::map<std::pair<std::string, std::string>, uint32_t> open_;  // (device, addr) → allocation
  std::map<std::string, double> running_;  // device → sum of Bytes, for files without totals
  // device → allocator calls with and without an Addr
  std::map<std::string, std::pair<size_t, size_t>> calls_;
  size_t skipped_ = 0;
};

// "GPU 0" for Device Type 1 (CUDA; ROCm builds report HIP as CUDA too), "CPU" for 0.
std::string kineto_device_name(int type, int id);

}  // namespace strata
