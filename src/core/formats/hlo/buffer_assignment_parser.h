// xla.BufferAssignmentProto, the HloProto's field 3: what XLA's buffer assignment decided for
// a compiled module (logical buffers, the allocations they were packed into, and the heap
// simulator's event traces). The HloProto parser keeps its bytes unread in the HloModule; the
// Memory Viewer parses them on demand (core/memory_viewer/), so loading a trace stays as fast.
//
// Field numbers (xla/service/hlo.proto):
//   BufferAssignmentProto: logical_buffers 1, buffer_aliases 2, buffer_allocations 3,
//     heap_simulator_traces 4
//   LogicalBufferProto: id 1, size 2, defined_at 3 (Location: instruction_name 2 (old files),
//     shape_index 3, instruction_id 4), color 4
//   BufferAllocationProto: index 1, size 2, is_thread_local 3, is_entry_computation_parameter 5,
//     parameter_number 6, maybe_live_out 7, color 8, assigned 9 (logical_buffer_id 1, offset 2,
//     size 3), is_tuple 11, is_constant 12
//   HeapSimulatorTrace: events 1 (kind 1, buffer_id 2, computation_name 3, instruction_name 4,
//     share_with_canonical_id 5), whole_module_simulation 2, buffer_allocation_index 3
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::hlo {

struct LogicalBuffer {
  int64_t id = 0;
  int64_t size = 0;  // bytes, with the layout's padding
  int64_t color = 0;
  int64_t instruction_id = -1;   // defined_at.instruction_id; -1 when the file names it instead
  std::string instruction_name;  // defined_at.instruction_name (older files), "" otherwise
  std::vector<int64_t> shape_index;
};

struct AssignedBuffer {
  int64_t logical_buffer_id = 0;
  int64_t offset = 0;  // within the allocation
  int64_t size = 0;
};

struct BufferAllocation {
  int64_t index = 0;
  int64_t size = 0;
  int64_t color = 0;
  int64_t parameter_number = 0;
  bool is_thread_local = false;
  bool is_tuple = false;
  bool is_entry_computation_parameter = false;
  bool is_constant = false;
  bool maybe_live_out = false;
  std::vector<AssignedBuffer> assigned;
};

enum class HeapEventKind : uint8_t { kAlloc = 0, kFree = 1, kShareWith = 2 };

struct HeapEvent {
  HeapEventKind kind = HeapEventKind::kAlloc;
  int64_t buffer_id = 0;
  int64_t share_with_canonical_id = 0;
  std::string instruction_name;  // the instruction the simulator was at
};

struct HeapSimulatorTrace {
  std::vector<HeapEvent> events;
  bool whole_module_simulation = false;
  int64_t buffer_allocation_index = 0;
};

struct BufferAssignment {
  std::vector<LogicalBuffer> logical_buffers;
  size_t alias_count = 0;  // buffer_aliases (read, not used: the simulator's events say it)
  std::vector<BufferAllocation> allocations;
  std::vector<HeapSimulatorTrace> traces;
};

// Parses a serialized BufferAssignmentProto. False with `error` (naming the byte offset within
// it and the message it was in) when malformed or cut short; `out` then holds what was read.
bool parse_buffer_assignment(const uint8_t* data, size_t size, BufferAssignment* out,
                             std::string* error);

}  // namespace strata::hlo
