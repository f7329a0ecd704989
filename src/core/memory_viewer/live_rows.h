// The Memory Viewer's table at one point of program order: the allocations live throughout
// (parameters, outputs, constants), then the heap buffers live at the point in the order they
// were allocated. Buffers under kSmallBufferBytes are folded into one row; siblings (the same
// instruction name but for a trailing `.N`, the same shape and size, e.g. the outputs of
// `fusion.1`, `fusion.2`, ...) into one `fusion.* (N×)` row.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_module.h"
#include "core/memory_viewer/heap_replay.h"

namespace strata::memview {

constexpr int64_t kSmallBufferBytes = 16 * 1024;

struct MemoryRow {
  std::string label;
  int64_t size = 0;      // padded bytes (all the row's buffers)
  int64_t unpadded = 0;  // bytes without layout padding
  uint32_t count = 1;    // buffers in the row
  std::string shape;     // with layout; "" for folded rows without one common shape
  std::string kind;      // allocation kind name, "" for the small-buffers row
  std::string opcode, op_name;
  int32_t allocation = -1;      // allocation index (of the first buffer)
  int64_t offset = 0;           // within the allocation (of the first buffer)
  uint32_t instr = kNone;       // defining instruction of the first buffer
  uint32_t start = 0, end = 0;  // live over points [start, end)
  bool indefinite = false;      // live throughout (not tracked by the heap simulator)
  bool small = false;           // the folded small-buffers row
};

std::vector<MemoryRow> rows_at(const hlo::HloModule& m, const MemoryModel& mm, const HeapProfile& p,
                               uint32_t point);

// The largest rows that would have to shrink (or go) for `total` bytes to fit in `budget`,
// largest first: empty when it already fits. The small-buffers row is never picked.
std::vector<uint32_t> rows_to_shrink(const std::vector<MemoryRow>& rows, int64_t total,
                                     int64_t budget);

}  // namespace strata::memview
