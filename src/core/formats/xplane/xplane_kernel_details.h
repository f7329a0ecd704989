// A GPU kernel's launch parameters as XProf's GPU tracers write them in the kernel event's
// `kernel_details` stat: space-separated "key:value" fields, "regs:32 static_shared:0
// dynamic_shared:1024 grid:564,1,1 block:256,1,1 occ_pct:50" (older files: "shm:" for the
// shared memory). Read once at import into the store's launch table (core/store/
// kernel_launches.h), so that the kernel statistics have every kernel's parameters at once.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/store/kernel_launches.h"

namespace strata {

// Fields the text gave with a value no launch can have (registers or shared memory beyond any
// GPU's, a zero or 2^31-sized grid, a block of more than 1024 threads, 0 % occupancy, which ROCm
// writes when it does not estimate it): left unknown, a profiler's unset value must not show as
// a number. Marked in KernelLaunch::has's bits above its fields' (which the Kineto path never
// sets), so that the table can say why such a field is empty.
enum KernelDetailsUnset : uint8_t {
  kUnsetRegisters = 32,
  kUnsetOccupancy = 64,
  kUnsetShape = 128,  // grid, block or shared memory
};

// Fills `out` (src_offset aside) from the stat's text. A field the text lacks stays unknown.
// False when the text names no field at all.
bool parse_kernel_details(std::string_view text, KernelLaunch* out);

}  // namespace strata
