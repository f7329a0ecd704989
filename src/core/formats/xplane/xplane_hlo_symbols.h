// XProf's symbol resolver for device planes: a GPU kernel names the HLO instruction it runs
// (`hlo_op`, with `hlo_module` / `program_id`) but not the framework op behind it. That op is
// the instruction's `metadata.op_name` (and `source_file:source_line`) in the module's
// HloProto, which the profiler stores on the `/host:metadata` plane. These tables map
// (program, instruction) → framework op and source, so the GPU "Framework Ops", "Framework Name
// Scope" and "Source code" rows exist for JAX and other XLA programs as XProf draws them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "core/base/string_table.h"
#include "core/base/types.h"
#include "core/formats/xplane/xplane_tables.h"

namespace strata {

struct HloSymbol {
  StrId tf_op = 0;   // metadata op_name ("jit(step)/jit(main)/dot_general"), 0 when none
  StrId source = 0;  // "file:line", 0 when none
};

struct HloSymbols {
  // program id → (instruction name, interned in the trace's strings) → symbol.
  std::unordered_map<int64_t, std::unordered_map<StrId, HloSymbol>> by_program;
  std::unordered_map<StrId, int64_t> program_of_module;  // module name → program id

  bool empty() const { return by_program.empty(); }
  // The symbol of `hlo_op` in the event's program (its program_id stat, else its module's
  // name); nullptr when unknown.
  const HloSymbol* find(bool has_program, int64_t program, StrId module, StrId hlo_op) const;
};

// Parses one serialized xla.HloProto and adds the instructions of its non-fused computations
// (the ones kernels are launched for: fusions, custom calls, copies...) that carry an op_name
// or a source line; and, when `texts` is given, every such instruction's expression and
// category (and a fusion's called instructions, xla_op_text.h). False, with `error`, when the proto
// does not parse; nothing is added then.
bool add_hlo_symbols(const uint8_t* data, size_t size, int64_t program_id, StringTable* strings,
                     HloSymbols* out, std::string* error, HloOpTexts* texts = nullptr);

}  // namespace strata
