#include "core/store/kernel_launches.h"

#include <algorithm>

namespace strata {

const KernelLaunch* KernelLaunches::find(uint64_t src_offset) const {
  auto it = std::lower_bound(
      rows.begin(), rows.end(), src_offset,
      [](const KernelLaunch& k, uint64_t offset) { return k.src_offset < offset; });
  return it != rows.end() && it->src_offset == src_offset ? &*it : nullptr;
}

}  // namespace strata
