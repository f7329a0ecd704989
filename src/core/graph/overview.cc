#include "core/graph/overview.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/graph/hlo_graph.h"

namespace strata::graph {

namespace {

uint64_t element_bytes(uint8_t type) {
  switch (type) {
    case hlo::kS16:
    case hlo::kU16:
    case hlo::kF16:
    case hlo::kBF16:
      return 2;
    case hlo::kS32:
    case hlo::kU32:
    case hlo::kF32:
      return 4;
    case hlo::kS64:
    case hlo::kU64:
    case hlo::kF64:
    case hlo::kC64:
      return 8;
    case hlo::kC128:
      return 16;
    case hlo::kInvalidType:
    case hlo::kTuple:
    case hlo::kOpaque:
    case hlo::kToken:
    case hlo::kBuffer:
      return 0;
    default:  // pred, 8-bit and narrower types: a byte each, as XLA stores them unpacked
      return 1;
  }
}

uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

// Instructions of each computation with those of everything it calls. XLA prints callees
// before their callers, so one pass in index order sees every callee done; a callee printed
// later (not valid HLO) counts only its own instructions.
std::vector<uint64_t> computation_sizes(const hlo::HloModule& m) {
  const uint32_t comps = m.computation_count();
  std::vector<uint64_t> size(comps, 0);
  for (uint32_t c = 0; c < comps; ++c) {
    uint64_t s = m.comp_count[c];
    const uint32_t first = m.comp_first[c], end = first + m.comp_count[c];
    for (uint32_t i = first; i < end; ++i)
      for (uint32_t cc : m.called_of(i))
        s = saturating_add(s, cc < c ? size[cc] : m.comp_count[cc]);
    size[c] = s;
  }
  return size;
}

// Ops whose called computations are part of the program's structure (the Graph tab opens them
// as groups); a reduce's or a sort's to_apply is a few-instruction helper, not structure.
bool holds_structure(std::string_view op) {
  return op == "fusion" || op == "call" || op == "while" || op == "conditional" ||
         op == "async-start";
}

uint64_t held(const hlo::HloModule& m, const std::vector<uint64_t>& sizes, uint32_t instr) {
  uint64_t s = 0;
  if (!holds_structure(m.str(m.opcode[instr]))) return 0;
  for (uint32_t cc : m.called_of(instr)) s = saturating_add(s, sizes[cc]);
  return s;
}

bool candidate(std::string_view op) {
  static constexpr std::string_view kPassive[] = {
      "parameter", "constant", "iota",      "tuple", "get-tuple-element",
      "bitcast",   "reshape",  "broadcast", "copy",  "convert"};
  return std::find(std::begin(kPassive), std::end(kPassive), op) == std::end(kPassive);
}

}  // namespace

uint64_t result_bytes(const hlo::HloModule& m, uint32_t instr) {
  if (instr >= m.instruction_count()) return 0;
  uint64_t n = element_bytes(m.dtype[instr]);
  for (uint32_t k = m.dims_begin[instr]; n && k < m.dims_begin[instr + 1]; ++k) {
    const uint64_t d = m.dims[k] > 0 ? static_cast<uint64_t>(m.dims[k]) : 1;  // `?`: one
    n = n > UINT64_MAX / d ? UINT64_MAX : n * d;
  }
  return n;
}

uint64_t held_instructions(const hlo::HloModule& m, uint32_t instr) {
  if (instr >= m.instruction_count()) return 0;
  return held(m, computation_sizes(m), instr);
}

uint32_t largest_op(const hlo::HloModule& m, uint32_t computation) {
  if (computation >= m.computation_count()) return kNone;
  const std::vector<uint64_t> sizes = computation_sizes(m);
  uint32_t best = kNone;
  uint64_t best_held = 0, best_bytes = 0;
  const uint32_t first = m.comp_first[computation], end = first + m.comp_count[computation];
  for (uint32_t i = first; i < end; ++i) {
    if (!candidate(m.str(m.opcode[i]))) continue;
    const uint64_t h = held(m, sizes, i), b = result_bytes(m, i);
    if (best == kNone || h > best_held || (h == best_held && b > best_bytes)) {
      best = i;
      best_held = h;
      best_bytes = b;
    }
  }
  return best;
}

OverviewStart overview_start(const hlo::HloModule& m, uint32_t computation) {
  OverviewStart s;
  if (computation >= m.computation_count() || m.comp_count[computation] <= kOverviewMinNodes)
    return s;
  s.instr = largest_op(m, computation);
  if (s.instr == kNone) return s;
  s.hops = 1;
  for (uint32_t h = 2; h <= kOverviewMaxHops; ++h) {
    if (hlo::neighbourhood(m, s.instr, h).size() > kOverviewMaxNodes) break;
    s.hops = h;
  }
  return s;
}

}  // namespace strata::graph
