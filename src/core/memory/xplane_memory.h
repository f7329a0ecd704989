// XProf XSpace memory events → MemoryData. `MemoryAllocation` / `MemoryDeallocation` events on
// the host plane carry the allocator's state after the call as stats: allocator_name,
// bytes_allocated, bytes_reserved, peak_bytes_in_use, requested_bytes, allocation_bytes, addr,
// tf_op / tf_op_name, region_type, data_type, shape, step_id. A series per allocator (the
// device, as XProf's memory profile names it: "GPU_0_bfc"); an allocation and the
// deallocation of its address on the same allocator become one allocation row.
// Events must be added in time order (the engine sorts them).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "core/memory/memory_data.h"

namespace strata {

class XplaneMemoryBuilder {
 public:
  // `record` is the event decoded to JSON by xplane_record_json (its stats under "args").
  bool add(std::string_view record, TimeNs ts, bool allocation);
  MemoryData take();

 private:
  MemoryData data_;
  std::map<std::string, size_t> series_;
  std::map<std::pair<std::string, std::string>, uint32_t> open_;
  size_t skipped_ = 0;
};

}  // namespace strata
