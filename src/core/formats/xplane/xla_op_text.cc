#include "core/formats/xplane/xla_op_text.h"

#include <string_view>

namespace strata {

namespace {

// XLA's elementwise opcodes (HloInstruction::IsOpElementwise), with the instructions that
// declare themselves elementwise (constant, map, rng).
bool is_elementwise_opcode(std::string_view op) {
  static constexpr std::string_view kOps[] = {
      // unary
      "abs", "round-nearest-afz", "round-nearest-even", "ceil", "clz", "convert", "bitcast-convert",
      "copy", "cosine", "erf", "exponential", "exponential-minus-one", "floor", "imag", "is-finite",
      "log", "log-plus-one", "not", "negate", "popcnt", "real", "reduce-precision", "rsqrt",
      "logistic", "sign", "sine", "sqrt", "cbrt", "tan", "tanh",
      // binary
      "add", "atan2", "compare", "complex", "divide", "maximum", "minimum", "multiply", "power",
      "remainder", "subtract", "and", "or", "xor", "shift-left", "shift-right-arithmetic",
      "shift-right-logical", "stochastic-convert",
      // ternary
      "clamp", "select",
      // instructions elementwise of their own
      "constant", "map", "rng"};
  for (std::string_view k : kOps)
    if (k == op) return true;
  return false;
}

// Bits of an element (XLA's primitive_util::BitWidth); 0 when unknown.
int bit_width(uint8_t t) {
  using namespace hlo;
  switch (t) {
    case kS1:
    case kU1:
      return 1;
    case kS2:
    case kU2:
      return 2;
    case kS4:
    case kU4:
    case kF4E2M1FN:
      return 4;
    case kPred:
    case kS8:
    case kU8:
    case kF8E5M2:
    case kF8E4M3FN:
    case kF8E4M3B11FNUZ:
    case kF8E5M2FNUZ:
    case kF8E4M3FNUZ:
    case kF8E4M3:
    case kF8E3M4:
    case kF8E8M0FNU:
      return 8;
    case kS16:
    case kU16:
    case kF16:
    case kBF16:
      return 16;
    case kS32:
    case kU32:
    case kF32:
      return 32;
    case kS64:
    case kU64:
    case kF64:
    case kC64:
      return 64;
    case kC128:
      return 128;
    default:
      return 0;
  }
}

void append_computation(std::string* o, const hlo::HloModule& m, uint32_t c) {
  *o += '%';
  *o += m.str(m.comp_name[c]);
}

// The called computations as XLA prints them for the opcode.
void append_called(std::string* o, const hlo::HloModule& m, uint32_t i, std::string_view op) {
  const auto called = m.called_of(i);
  if (called.empty()) return;
  auto list = [&](std::string_view key) {
    *o += ", ";
    *o += key;
    *o += "={";
    for (size_t k = 0; k < called.size(); ++k) {
      if (k) *o += ", ";
      append_computation(o, m, called[k]);
    }
    *o += '}';
  };
  auto one = [&](std::string_view key, uint32_t c) {
    *o += ", ";
    *o += key;
    *o += '=';
    append_computation(o, m, c);
  };
  if (op == "while" && called.size() == 2) {  // XLA keeps the body first
    one("condition", called[1]);
    one("body", called[0]);
  } else if (op == "conditional") {
    list("branch_computations");
  } else if (op == "custom-call") {
    list("called_computations");
  } else if (op == "select-and-scatter" && called.size() == 2) {
    one("select", called[0]);
    one("scatter", called[1]);
  } else if (called.size() == 1) {
    const bool calls = op == "fusion" || op.starts_with("async-");
    one(calls ? "calls" : "to_apply", called[0]);
  } else {
    list("calls");
  }
}

}  // namespace

std::string hlo_instruction_expression(const hlo::HloModule& m, uint32_t i) {
  if (i >= m.instruction_count()) return {};
  const std::string_view op = m.str(m.opcode[i]);
  if (op.empty() || op == "constant") return {};
  std::string o = "%";
  o += m.str(m.name[i]);
  o += " = ";
  o += m.str(m.shape[i]);
  o += ' ';
  o += op;
  o += '(';
  if (op == "parameter" && m.parameter_number[i] >= 0) o += std::to_string(m.parameter_number[i]);
  bool first = true;
  for (uint32_t a : m.operands_of(i)) {
    if (!first) o += ", ";
    first = false;
    o += m.str(m.shape[a]);
    o += " %";
    o += m.str(m.name[a]);
  }
  o += ')';
  if (m.fusion_kind[i]) {
    o += ", kind=";
    o += m.str(m.fusion_kind[i]);
  }
  if (m.attrs[i]) {
    o += ", ";
    o += m.str(m.attrs[i]);
  }
  append_called(&o, m, i, op);
  if (m.custom_call_target[i]) {
    o += ", custom_call_target=\"";
    o += m.str(m.custom_call_target[i]);
    o += '"';
  }
  return o;
}

std::string hlo_instruction_category(const hlo::HloModule& m, uint32_t i) {
  if (i >= m.instruction_count()) return {};
  const std::string_view op = m.str(m.opcode[i]);
  if (op == "fusion") {
    const std::string_view kind = m.fusion_kind[i] ? m.str(m.fusion_kind[i]) : "";
    if (kind == "kLoop") return "loop fusion";
    if (kind == "kInput") return "input fusion";
    if (kind == "kOutput") return "output fusion";
    if (kind == "kCustom") return "custom fusion";
    return {};
  }
  if (op == "transpose" || op == "copy" || op == "reshape" || op == "dynamic-reshape")
    return "data formatting";
  if (is_elementwise_opcode(op)) {
    // A bitcast-convert between element widths is not elementwise.
    const auto operands = m.operands_of(i);
    if (op != "bitcast-convert" || (operands.size() == 1 && bit_width(m.dtype[i]) != 0 &&
                                    bit_width(m.dtype[i]) == bit_width(m.dtype[operands[0]])))
      return "non-fusion elementwise";
  }
  return std::string(op);
}

namespace {

// Fusions nest a level or two; a bound keeps a malformed module (a computation calling itself)
// from recursing for ever.
constexpr int kMaxFusionDepth = 8;

void add_fused(const hlo::HloModule& m, uint32_t instr, int depth, std::vector<HloFusedOp>* out) {
  if (depth > kMaxFusionDepth || m.str(m.opcode[instr]) != "fusion") return;
  for (uint32_t c : m.called_of(instr)) {
    if (c >= m.computation_count()) continue;
    for (uint32_t i = m.comp_first[c]; i < m.comp_first[c] + m.comp_count[c]; ++i) {
      const std::string_view op = m.str(m.opcode[i]);
      if (op == "parameter" || op == "tuple") continue;
      HloFusedOp f;
      f.name = std::string(m.str(m.name[i]));
      f.expression = hlo_instruction_expression(m, i);
      f.category = hlo_instruction_category(m, i);
      add_fused(m, i, depth + 1, &f.fused);
      out->push_back(std::move(f));
    }
  }
}

}  // namespace

std::vector<HloFusedOp> hlo_fused_instructions(const hlo::HloModule& m, uint32_t instr) {
  std::vector<HloFusedOp> out;
  if (instr < m.instruction_count()) add_fused(m, instr, 0, &out);
  return out;
}

}  // namespace strata
