// The in-memory HLO model: one XLA module as columns (one vector per field, indexed by
// instruction or computation), filled by the text parser (hlo_text_parser.h), the HloProto
// parser (hlo_proto_parser.h) and the xplane extractor (xplane_hlo.h), and read by the graph
// queries (core/graph/hlo_graph.h) and the graph view. Both parsers render shapes the way XLA's
// text format prints them, so a module looks the same whichever file it came from.
//
// Indices: instructions are numbered 0..n-1 module-wide, grouped by computation in file order
// (computation c owns [comp_first[c], comp_first[c] + comp_count[c])); computations 0..m-1 in
// file order (XLA prints callees before callers). Lists (dims, operands, called computations,
// users, callers) are CSR: `x_begin` has one entry more than rows, row i is
// [x_begin[i], x_begin[i+1]) of `x`.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/string_table.h"
#include "core/base/types.h"

namespace strata::hlo {

// xla::PrimitiveType numbers (xla_data.proto), so the proto path stores the enum as read.
enum PrimitiveType : uint8_t {
  kInvalidType = 0,
  kPred = 1,
  kS8 = 2,
  kS16 = 3,
  kS32 = 4,
  kS64 = 5,
  kU8 = 6,
  kU16 = 7,
  kU32 = 8,
  kU64 = 9,
  kF16 = 10,
  kF32 = 11,
  kF64 = 12,
  kTuple = 13,
  kOpaque = 14,
  kC64 = 15,
  kBF16 = 16,
  kToken = 17,
  kC128 = 18,
  kF8E5M2 = 19,
  kF8E4M3FN = 20,
  kS4 = 21,
  kU4 = 22,
  kF8E4M3B11FNUZ = 23,
  kF8E5M2FNUZ = 24,
  kF8E4M3FNUZ = 25,
  kS2 = 26,
  kU2 = 27,
  kF8E4M3 = 28,
  kF8E3M4 = 29,
  kS1 = 30,
  kU1 = 31,
  kF4E2M1FN = 32,
  kF8E8M0FNU = 33,
  kBuffer = 34,
};
// XLA's lower-case text name ("bf16", "f32", "pred", "token", "tuple"; "?" when unknown).
std::string_view primitive_type_name(uint8_t type);
// The type named by `text` ("bf16" → kBF16); kInvalidType when unknown.
uint8_t primitive_type_from_name(std::string_view text);

// Memory space of an array, the `S(n)` of a layout such as `{2,1,0:T(8,128)(2,1)S(1)}`
// (LayoutProto.memory_space). The number is backend-specific: 0 (no `S(...)`) is the default
// device memory (HBM on TPU and GPU); on TPU S(1) is VMEM, the core's on-chip vector memory;
// S(5) is host memory (XLA's host-offloading memory space, any backend). Shapes without a
// layout, and tuples, have kNoMemorySpace.
constexpr int32_t kNoMemorySpace = -1;
constexpr int32_t kMemorySpaceTpuVmem = 1;
constexpr int32_t kMemorySpaceHost = 5;
// A short label for the UI: "" for the default memory, "VMEM (TPU)" for 1, "host" for 5,
// "S(n)" otherwise.
std::string memory_space_label(int32_t space);

struct HloModule {
  std::string module_name;
  int64_t program_id = -1;  // from an xplane's metadata plane; -1 otherwise
  uint32_t entry = kNone;   // entry computation index

  StringTable strings;  // every name, opcode, shape text, ... (ids below)

  // ---- computations (index c) ----
  std::vector<StrId> comp_name;
  std::vector<uint8_t> comp_is_fusion;  // a fused computation (called by a fusion)
  std::vector<uint32_t> comp_first;     // first instruction
  std::vector<uint32_t> comp_count;     // number of instructions
  std::vector<uint32_t> comp_root;      // root instruction (kNone when it has none)
  std::vector<uint32_t> comp_caller_begin, comp_callers;  // CSR: instructions calling it

  // ---- instructions (index i) ----
  std::vector<StrId> name;     // without '%'
  std::vector<StrId> opcode;   // "fusion", "add", "custom-call", ...
  std::vector<StrId> shape;    // full text as XLA prints it: "bf16[32,4096]{1,0:T(8,128)S(1)}",
                               // "(f32[2]{0}, s32[])"
  std::vector<uint8_t> dtype;  // PrimitiveType; kTuple for tuples
  std::vector<uint32_t> dims_begin;       // CSR into dims (array shapes; empty for tuples/scalars)
  std::vector<int64_t> dims;              // -1: unbounded dynamic `?`; `<=N` is stored as N
  std::vector<StrId> layout;              // "{1,0:T(8,128)S(1)}" as printed, 0 (empty) when none
  std::vector<int32_t> memory_space;      // S(n), 0 default, kNoMemorySpace (see above)
  std::vector<uint32_t> computation;      // owning computation
  std::vector<int32_t> parameter_number;  // parameter(n); -1 for other opcodes
  std::vector<uint32_t> operand_begin, operands;  // CSR: instruction indices, in order
  std::vector<uint32_t> called_begin, called;     // CSR: computation indices, in order
                                                  // (calls=, to_apply=, condition=, body=, ...)
  std::vector<uint32_t> user_begin, users;        // CSR, derived from operands (ascending)
  std::vector<StrId> fusion_kind;    // "kLoop", "kInput", "kOutput", "kCustom"; 0 when none
  std::vector<StrId> op_type;        // metadata op_type
  std::vector<StrId> op_name;        // metadata op_name ("jit(f)/jit(main)/dot_general")
  std::vector<StrId> source_file;    // metadata source_file
  std::vector<int32_t> source_line;  // metadata source_line, 0 when none
  std::vector<StrId> custom_call_target;
  std::vector<StrId> backend_config;  // raw text (JSON or proto text), 0 when none
  std::vector<StrId> attrs;  // other attributes as printed ("dimensions={1}, ..."), for details
  // metadata stack_frame_id as a frame index (below); kNone when none. The parsers may leave it
  // empty: finish_module sizes it.
  std::vector<uint32_t> stack_frame;
  // The innermost frame's function (set by finish_module); 0 when the instruction has no frame.
  std::vector<StrId> source_function;

  // ---- source locations (index l) and stack frames (index f) ----
  // XLA's stack frame index: the FileNames, FunctionNames, FileLocations and StackFrames
  // sections of the text, HloModuleProto.stack_frame_index in a proto. XLA numbers every table
  // from 1 (0 meaning none); here indices are 0-based and kNone means none. finish_module
  // replaces an out-of-range reference by kNone, and fills an instruction's source_file and
  // source_line from its innermost frame when its metadata has none of its own.
  std::vector<StrId> file_names, function_names;
  std::vector<uint32_t> location_file, location_function;  // into file_names, function_names
  std::vector<int32_t> location_line, location_end_line, location_column, location_end_column;
  std::vector<uint32_t> frame_location;  // into location_*
  std::vector<uint32_t> frame_parent;    // the calling frame; kNone for the outermost

  // Set when the text ended or broke before the module did (what was read is kept), or the
  // module names no ENTRY: what the viewer should say about it; empty otherwise.
  std::string note;

  // HloProto.buffer_assignment (a BufferAssignmentProto) as read, unparsed: the Memory Viewer
  // parses it on demand (buffer_assignment_parser.h). Empty for text modules and protos
  // without one.
  std::vector<uint8_t> buffer_assignment;
  std::string buffer_assignment_note;  // why a proto's buffer assignment could not be kept
  // HloInstructionProto.id → instruction index (proto modules only): how a buffer assignment
  // names the instruction that defines a buffer.
  std::unordered_map<int64_t, uint32_t> by_proto_id;

  // instruction name → index (names are unique within an XLA module).
  std::unordered_map<std::string_view, uint32_t> by_name;
  std::unordered_map<std::string_view, uint32_t> comp_by_name;

  uint32_t instruction_count() const { return static_cast<uint32_t>(name.size()); }
  uint32_t computation_count() const { return static_cast<uint32_t>(comp_name.size()); }
  std::string_view str(StrId id) const { return strings.get(id); }
  // kNone when absent.
  uint32_t find(std::string_view instruction_name) const;
  uint32_t find_computation(std::string_view computation_name) const;

  std::span<const uint32_t> operands_of(uint32_t i) const {
    return {operands.data() + operand_begin[i], operands.data() + operand_begin[i + 1]};
  }
  std::span<const uint32_t> users_of(uint32_t i) const {
    return {users.data() + user_begin[i], users.data() + user_begin[i + 1]};
  }
  std::span<const uint32_t> called_of(uint32_t i) const {
    return {called.data() + called_begin[i], called.data() + called_begin[i + 1]};
  }
  std::span<const int64_t> dims_of(uint32_t i) const {
    return {dims.data() + dims_begin[i], dims.data() + dims_begin[i + 1]};
  }
  uint32_t frame_count() const { return static_cast<uint32_t>(frame_location.size()); }
  // The frames of instruction i's stack, innermost first (empty without a frame); a chain that
  // loops stops before repeating a frame.
  std::vector<uint32_t> stack_of(uint32_t i) const;
  // "file:line" of frame f's location ("" when it has no file), and its function name.
  std::string frame_source(uint32_t f) const;
  std::string_view frame_function(uint32_t f) const;
  std::span<const uint32_t> callers_of(uint32_t c) const {
    return {comp_callers.data() + comp_caller_begin[c],
            comp_callers.data() + comp_caller_begin[c + 1]};
  }
};

// ---- building (used by the parsers) --------------------------------------------------------

// Parses a shape's text as XLA prints it into dtype, dims, layout text and memory space.
// Returns false when `text` is not a shape. Tuples give kTuple, no dims, no layout.
struct ParsedShape {
  uint8_t dtype = kInvalidType;
  std::vector<int64_t> dims;
  std::string_view layout;  // "{...}" including braces, or empty
  int32_t memory_space = kNoMemorySpace;
};
bool parse_shape_text(std::string_view text, ParsedShape* out);
// The memory space `S(n)` in a layout's text ("{2,1,0:T(8,128)(2,1)S(1)}" → 1); 0 when the
// layout has none, kNoMemorySpace when `layout` is empty.
int32_t memory_space_of_layout(std::string_view layout);

// Derives users, computation callers and the name maps once the columns are filled; checks the
// CSR arrays and indices (false with a message when inconsistent); resolves the stack frames.
bool finish_module(HloModule* m, std::string* error);
// The stack-frame part of finish_module (hlo_stack_frames.cc).
void resolve_stack_frames(HloModule* m);

}  // namespace strata::hlo
