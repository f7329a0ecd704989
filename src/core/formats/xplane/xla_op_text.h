// What XProf shows of an HLO instruction when the profile itself does not say (GPU xplanes
// carry neither `long_name` nor `hlo_category`): its expression and category, from the module's
// HloProto as XProf derives them (xprof/utils/hlo_module_map: the instruction printed without
// metadata or backend config, with operand shapes; XLA's HloInstruction::ToCategory).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_module.h"
#include "core/formats/xplane/xplane_tables.h"

namespace strata {

// The instruction's HLO text line as far as the module keeps it: "%fusion.3 = f32[8]{0}
// fusion(f32[8]{0} %p.1), kind=kLoop, calls=%fused_computation.3". Attributes the module does
// not keep (dot dimensions, windows, ...) are left out; "" for a constant, whose literal it
// does not keep.
std::string hlo_instruction_expression(const hlo::HloModule& m, uint32_t instr);

// XLA's category of the instruction: "loop fusion", "input fusion", "output fusion", "custom
// fusion" by fusion kind; "data formatting" for transpose, copy, reshape and dynamic-reshape;
// "non-fusion elementwise" for an elementwise op; else the opcode ("dot", "convolution",
// "custom-call", "all-reduce", ...). "" for a fusion of unknown kind.
std::string hlo_instruction_category(const hlo::HloModule& m, uint32_t instr);

// What a fusion calls, as XProf's op profile lists it under the fusion: the instructions of
// its called computation(s) but parameters and tuples, each with its expression and category,
// nested fusions with theirs. Empty for an instruction that is not a fusion.
std::vector<HloFusedOp> hlo_fused_instructions(const hlo::HloModule& m, uint32_t instr);

}  // namespace strata
