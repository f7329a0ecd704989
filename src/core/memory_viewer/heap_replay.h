// What XLA's buffer assignment keeps in one memory space over a module's program order: the
// heap simulator's trace replayed (ALLOC adds a logical buffer, SHARE_WITH makes a buffer share
// a canonical one's memory, which is freed when the last sharer is), plus the buffers whose
// lifetime the simulator does not track (entry parameters, outputs, constants), which are live
// throughout. The definitions follow XProf's memory viewer
// (hlo_proto_to_memory_visualization_utils.cc): the trace of a colour is the one whose
// allocation is that colour's temporaries, else the one with most events of that colour; the
// padded size of a buffer is its logical buffer size, the unpadded one its shape's bytes with
// the default layout (a tuple counts one pointer per element); thread-local allocations are
// left out.
//
// Program order: point i is the heap just after the trace's event i.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/formats/hlo/buffer_assignment_parser.h"
#include "core/formats/hlo/hlo_module.h"

namespace strata::memview {

enum class AllocationKind : uint8_t { kParameter, kOutput, kThreadLocal, kConstant, kTemporary };
const char* allocation_kind_name(AllocationKind k);  // "Parameter", "Output", ...
AllocationKind allocation_kind(const hlo::BufferAllocation& a);

// One logical buffer, resolved against the module (index = its position in logical_buffers).
struct BufferInfo {
  int64_t id = 0;
  int64_t size = 0;      // padded bytes
  int64_t unpadded = 0;  // the shape's bytes without layout padding
  int64_t color = 0;
  uint32_t instr = kNone;   // defining instruction (HloModule index), kNone when not found
  std::string label;        // instruction name, with {shape index} for a tuple element
  std::string shape;        // with layout, as XLA prints it
  int32_t allocation = -1;  // index into BufferAssignment::allocations, -1 when unassigned
  int64_t offset = 0;       // within the allocation
};

struct MemoryModel {
  hlo::BufferAssignment assignment;
  std::vector<BufferInfo> buffers;
  std::unordered_map<int64_t, uint32_t> buffer_by_id;
  std::vector<int64_t> colors;  // memory colours that have buffers, ascending (0 = HBM first)
};

// Parses the module's buffer assignment and resolves every buffer. False with `error` when the
// module has none, or it is malformed.
bool build_memory_model(const hlo::HloModule& m, MemoryModel* out, std::string* error);

// A buffer live over points [start, end) of the curve.
struct LiveInterval {
  uint32_t buffer = 0;  // index into MemoryModel::buffers
  uint32_t start = 0, end = 0;
};

struct HeapProfile {
  int64_t color = 0;
  int32_t trace = -1;  // index into assignment.traces, -1 when the colour has none
  // Heap bytes after each event of the trace, indefinite bytes included.
  std::vector<int64_t> padded, unpadded;
  uint32_t peak = 0;  // first point of the highest padded heap
  int64_t peak_bytes = 0, peak_unpadded = 0;
  int64_t indefinite_bytes = 0;
  std::vector<uint32_t> indefinite_allocations;  // allocation indices, in file order
  std::vector<LiveInterval> intervals;           // in program order of their start
  std::vector<std::string> notes;                // what the replay found odd but went past
};

// Replays the colour's trace. False with `error` when the trace is inconsistent (a buffer the
// assignment does not list, freed twice, a heap below zero).
bool replay_heap(const MemoryModel& mm, int64_t color, HeapProfile* out, std::string* error);

// The heap-tracked buffers live at `point`, in program order of their allocation.
std::vector<uint32_t> live_at(const HeapProfile& p, uint32_t point);

// Bytes of an array or tuple shape's text with the default layout (no padding, no tiling).
int64_t unpadded_shape_bytes(std::string_view shape);
// The element `index` of a tuple shape's text ("(f32[2]{0}, s32[])", {1} → "s32[]"); the
// shape itself for an empty index; "" when the index does not exist.
std::string_view subshape_text(std::string_view shape, std::span<const int64_t> index);

}  // namespace strata::memview
