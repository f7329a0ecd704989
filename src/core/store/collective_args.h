// What a Kineto trace says about each NCCL collective in its GPU kernel's args (PyTorch writes
// "Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype", "Process Group
// Name" and "Seq" when it records communication metadata). Args are otherwise re-read from the
// file on selection; the cross-rank analysis needs these for every collective at once, so the
// JSON importer keeps them while it parses the kernel records anyway. Keyed like
// KernelLaunches by the event's record offset (EventColumns::src_offset).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct CollectiveArgs {
  uint64_t src_offset = 0;
  std::string collective;     // "Collective name" ("allreduce", ...); empty when absent
  std::string process_group;  // "Process Group Name"; empty when absent
  std::string dtype;          // "dtype" ("Float", "BFloat16", ...); empty when absent
  int64_t in_nelems = -1, out_nelems = -1, group_size = -1, seq = -1;  // -1: absent
};

struct CollectiveArgsTable {
  std::vector<CollectiveArgs> rows;  // sorted by src_offset
  const CollectiveArgs* find(uint64_t src_offset) const {
    auto it =
        std::lower_bound(rows.begin(), rows.end(), src_offset,
                         [](const CollectiveArgs& a, uint64_t o) { return a.src_offset < o; });
    return it != rows.end() && it->src_offset == src_offset ? &*it : nullptr;
  }
};

}  // namespace strata
