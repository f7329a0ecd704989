// The device memory a Kineto trace states: its top-level `deviceProperties` list, written at
// the head of the file before the events ({"id": 0, "name": ..., "totalGlobalMem": bytes, ...}
// per GPU). The importer only counts the entries; the Memory tab's share of the peak reads the
// head back in its pass over the file (engine_memory.cc).
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

#include "core/memory/memory_data.h"

namespace strata {

// How many bytes of a file's head are read back for its deviceProperties.
inline constexpr size_t kDevicePropertiesHeadBytes = 256 * 1024;

// The GPUs of `head` (the first bytes of a Kineto JSON file) with their totalGlobalMem, named
// as the Memory tab names Kineto devices ("GPU 0" for id 0). Empty when the head has no
// complete deviceProperties array, or its entries give no id or no memory.
std::vector<MemoryCapacity> kineto_device_memory(std::string_view head);

}  // namespace strata
