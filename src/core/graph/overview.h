// Where the Graph tab starts on a computation too big to read whole. Laid out entire, tens of
// thousands of boxes fit the screen only as a grey mass; so such a computation opens, as XProf's
// graph viewer opens on one op with a small graph width, on the neighbourhood of its largest op,
// and the whole graph stays one click away.
#pragma once
#include <cstdint>

#include "core/formats/hlo/hlo_module.h"

namespace strata::graph {

// A computation with more instructions than this opens on its overview.
constexpr uint32_t kOverviewMinNodes = 1000;
// The overview's radius: the most hops (up to kOverviewMaxHops, at least one) whose
// neighbourhood keeps at most kOverviewMaxNodes boxes, so it stays readable when fitted.
constexpr uint32_t kOverviewMaxHops = 3;
constexpr uint32_t kOverviewMaxNodes = 150;

struct OverviewStart {
  uint32_t instr = kNone;  // kNone: show the computation whole
  uint32_t hops = 0;
};

// Bytes of an array instruction's result (its dims times its element size); 0 for tuples,
// tokens and unknown types.
uint64_t result_bytes(const hlo::HloModule& m, uint32_t instr);

// Instructions held in the computations a fusion, call, while, conditional or async-start
// calls, counted through nested calls; 0 for other instructions (a reduce's to_apply is a
// helper, not structure).
uint64_t held_instructions(const hlo::HloModule& m, uint32_t instr);

// The computation's largest op: the one holding the most instructions (a while loop's body, a
// call, a big fusion: the top-level structure), then the one writing the most bytes, then the
// first. Parameters, constants and ops that only relabel, fill or pass data on (tuple,
// get-tuple-element, bitcast, reshape, broadcast, copy, convert, iota) are not candidates.
// kNone when the computation has none.
uint32_t largest_op(const hlo::HloModule& m, uint32_t computation);

// The start for `computation`: its largest op and radius when it has more than
// kOverviewMinNodes instructions, else {kNone, 0}.
OverviewStart overview_start(const hlo::HloModule& m, uint32_t computation);

}  // namespace strata::graph
