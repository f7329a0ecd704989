// What an Ascend profile says about each device task beyond its name and time: its task type
// (AI_CORE, AI_CPU, MIX_AIV, ...: torch_npu's trace_view.json writes it as the "Task Type" arg of
// an Ascend Hardware slice, the profiler database as TASK.taskType) and, for a communication
// task (HCCL's Memcpy, Reduce_Inline, RDMASend), how much it moved and over what ("task type",
// "transport type", "link type", "size(Byte)", "bandwidth(GB/s)" args in the text export;
// COMMUNICATION_TASK_INFO in the database). The advisor's Ascend rules need them for every task
// at once, so the importers keep them while they read the records anyway. Keyed like
// CollectiveArgsTable by the event's record offset (EventColumns::src_offset).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct AscendTaskArgs {
  uint64_t src_offset = 0;
  std::string task_type;       // "AI_CORE", "AI_CPU", "Memcpy", ...; empty when absent
  std::string transport;       // "SDMA", "RDMA", "LOCAL": communication tasks only
  std::string link;            // "HCCS", "PCIE", "ROCE", "ON_CHIP": communication tasks only
  int64_t size_bytes = -1;     // -1: absent
  double bandwidth_gbps = -1;  // as the profiler wrote it; -1: absent
};

struct AscendTaskArgsTable {
  std::vector<AscendTaskArgs> rows;  // sorted by src_offset
  const AscendTaskArgs* find(uint64_t src_offset) const {
    auto it =
        std::lower_bound(rows.begin(), rows.end(), src_offset,
                         [](const AscendTaskArgs& a, uint64_t o) { return a.src_offset < o; });
    return it != rows.end() && it->src_offset == src_offset ? &*it : nullptr;
  }
  // Appends `a`, keeping the rows sorted when it does not come after the last one.
  void add(AscendTaskArgs a) {
    if (rows.empty() || rows.back().src_offset < a.src_offset) {
      rows.push_back(std::move(a));
      return;
    }
    auto at =
        std::lower_bound(rows.begin(), rows.end(), a.src_offset,
                         [](const AscendTaskArgs& r, uint64_t o) { return r.src_offset < o; });
    if (at == rows.end() || at->src_offset != a.src_offset) rows.insert(at, std::move(a));
  }
};

}  // namespace strata
