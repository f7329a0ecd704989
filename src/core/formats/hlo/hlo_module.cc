#include "core/formats/hlo/hlo_module.h"

#include <charconv>
#include <cstdint>

#include "core/base/text.h"

namespace strata::hlo {
namespace {

struct TypeName {
  uint8_t type;
  std::string_view name;
};
// XLA's primitive_util names.
constexpr TypeName kTypeNames[] = {
    {kPred, "pred"},
    {kS1, "s1"},
    {kS2, "s2"},
    {kS4, "s4"},
    {kS8, "s8"},
    {kS16, "s16"},
    {kS32, "s32"},
    {kS64, "s64"},
    {kU1, "u1"},
    {kU2, "u2"},
    {kU4, "u4"},
    {kU8, "u8"},
    {kU16, "u16"},
    {kU32, "u32"},
    {kU64, "u64"},
    {kF16, "f16"},
    {kF32, "f32"},
    {kBF16, "bf16"},
    {kF64, "f64"},
    {kF8E5M2, "f8e5m2"},
    {kF8E4M3, "f8e4m3"},
    {kF8E4M3FN, "f8e4m3fn"},
    {kF8E4M3B11FNUZ, "f8e4m3b11fnuz"},
    {kF8E3M4, "f8e3m4"},
    {kF8E5M2FNUZ, "f8e5m2fnuz"},
    {kF8E4M3FNUZ, "f8e4m3fnuz"},
    {kF4E2M1FN, "f4e2m1fn"},
    {kF8E8M0FNU, "f8e8m0fnu"},
    {kC64, "c64"},
    {kC128, "c128"},
    {kTuple, "tuple"},
    {kOpaque, "opaque"},
    {kToken, "token"},
    {kBuffer, "buffer"},
};

bool parse_int(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

std::string_view primitive_type_name(uint8_t type) {
  for (const TypeName& t : kTypeNames)
    if (t.type == type) return t.name;
  return "?";
}

uint8_t primitive_type_from_name(std::string_view text) {
  for (const TypeName& t : kTypeNames)
    if (t.name == text) return t.type;
  return kInvalidType;
}

std::string memory_space_label(int32_t space) {
  if (space <= 0) return "";
  if (space == kMemorySpaceTpuVmem) return "VMEM (TPU)";
  if (space == kMemorySpaceHost) return "host";
  return "S(" + std::to_string(space) + ")";
}

int32_t memory_space_of_layout(std::string_view layout) {
  if (layout.empty()) return kNoMemorySpace;
  size_t colon = layout.find(':');
  if (colon == std::string_view::npos) return 0;
  // After the ':' come tiles T(..)(..), element size E(n), memory space S(n), ...: find an 'S('
  // outside parentheses.
  int depth = 0;
  for (size_t i = colon + 1; i < layout.size(); ++i) {
    char c = layout[i];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (depth == 0 && c == 'S' && i + 1 < layout.size() && layout[i + 1] == '(') {
      size_t close = layout.find(')', i + 2);
      if (close == std::string_view::npos) return 0;
      int64_t v;
      if (!parse_int(layout.substr(i + 2, close - i - 2), &v) || v < 0 || v > INT32_MAX) return 0;
      return static_cast<int32_t>(v);
    }
  }
  return 0;
}

bool parse_shape_text(std::string_view text, ParsedShape* out) {
  *out = ParsedShape{};
  text = trim(text);
  if (text.empty()) return false;
  if (text.front() == '(') {
    if (text.back() != ')') return false;
    out->dtype = kTuple;
    return true;
  }
  size_t bracket = text.find('[');
  if (bracket == std::string_view::npos) return false;
  out->dtype = primitive_type_from_name(text.substr(0, bracket));
  if (out->dtype == kInvalidType) return false;
  size_t close = text.find(']', bracket);
  if (close == std::string_view::npos) return false;
  std::string_view dims = text.substr(bracket + 1, close - bracket - 1);
  while (!dims.empty()) {
    size_t comma = dims.find(',');
    std::string_view d = trim(dims.substr(0, comma));
    int64_t v;
    if (d == "?") {
      v = -1;
    } else {
      if (d.starts_with("<=")) d.remove_prefix(2);
      if (!parse_int(d, &v)) return false;
    }
    out->dims.push_back(v);
    if (comma == std::string_view::npos) break;
    dims.remove_prefix(comma + 1);
  }
  std::string_view rest = trim(text.substr(close + 1));
  if (!rest.empty()) {
    if (rest.front() != '{' || rest.back() != '}') return false;
    out->layout = rest;
    out->memory_space = memory_space_of_layout(rest);
  }
  return true;
}

uint32_t HloModule::find(std::string_view instruction_name) const {
  auto it = by_name.find(instruction_name);
  return it == by_name.end() ? kNone : it->second;
}

uint32_t HloModule::find_computation(std::string_view computation_name) const {
  auto it = comp_by_name.find(computation_name);
  return it == comp_by_name.end() ? kNone : it->second;
}

namespace {

// CSR of the reverse relation: for each target t, the sources s with an edge s → t (ascending
// s, one entry per edge).
void reverse_csr(const std::vector<uint32_t>& begin, const std::vector<uint32_t>& targets,
                 size_t target_count, std::vector<uint32_t>* out_begin,
                 std::vector<uint32_t>* out) {
  out_begin->assign(target_count + 1, 0);
  for (uint32_t t : targets) ++(*out_begin)[t + 1];
  for (size_t i = 0; i < target_count; ++i) (*out_begin)[i + 1] += (*out_begin)[i];
  out->assign(targets.size(), 0);
  std::vector<uint32_t> fill(out_begin->begin(), out_begin->end() - 1);
  const size_t rows = begin.empty() ? 0 : begin.size() - 1;
  for (uint32_t s = 0; s < rows; ++s)
    for (uint32_t k = begin[s]; k < begin[s + 1]; ++k) (*out)[fill[targets[k]]++] = s;
}

bool check_csr(const std::vector<uint32_t>& begin, size_t rows, size_t items, const char* what,
               std::string* error) {
  if (begin.size() != rows + 1 || begin.front() != 0 || begin.back() != items) {
    *error = std::string("inconsistent ") + what + " lists";
    return false;
  }
  for (size_t i = 0; i < rows; ++i)
    if (begin[i] > begin[i + 1]) {
      *error = std::string("inconsistent ") + what + " lists";
      return false;
    }
  return true;
}

}  // namespace

bool finish_module(HloModule* m, std::string* error) {
  const size_t n = m->name.size(), c = m->comp_name.size();
  const std::vector<size_t> sizes = {m->opcode.size(),
                                     m->shape.size(),
                                     m->dtype.size(),
                                     m->layout.size(),
                                     m->memory_space.size(),
                                     m->computation.size(),
                                     m->parameter_number.size(),
                                     m->fusion_kind.size(),
                                     m->op_type.size(),
                                     m->op_name.size(),
                                     m->source_file.size(),
                                     m->source_line.size(),
                                     m->custom_call_target.size(),
                                     m->backend_config.size(),
                                     m->attrs.size()};
  for (size_t s : sizes)
    if (s != n) {
      *error = "instruction columns of different lengths";
      return false;
    }
  if (m->comp_is_fusion.size() != c || m->comp_first.size() != c || m->comp_count.size() != c ||
      m->comp_root.size() != c) {
    *error = "computation columns of different lengths";
    return false;
  }
  if (!check_csr(m->dims_begin, n, m->dims.size(), "dimension", error) ||
      !check_csr(m->operand_begin, n, m->operands.size(), "operand", error) ||
      !check_csr(m->called_begin, n, m->called.size(), "called-computation", error))
    return false;
  for (uint32_t o : m->operands)
    if (o >= n) {
      *error = "operand index out of range";
      return false;
    }
  for (uint32_t k : m->called)
    if (k >= c) {
      *error = "called computation index out of range";
      return false;
    }
  for (uint32_t i = 0; i < c; ++i) {
    if (static_cast<uint64_t>(m->comp_first[i]) + m->comp_count[i] > n ||
        (m->comp_root[i] != kNone && (m->comp_root[i] < m->comp_first[i] ||
                                      m->comp_root[i] >= m->comp_first[i] + m->comp_count[i]))) {
      *error = "computation instruction range out of bounds";
      return false;
    }
  }
  if (m->entry != kNone && m->entry >= c) {
    *error = "entry computation index out of range";
    return false;
  }
  reverse_csr(m->operand_begin, m->operands, n, &m->user_begin, &m->users);
  // A user that takes the same operand twice (add(x, x)) is one user.
  {
    std::vector<uint32_t> b(n + 1, 0), u;
    u.reserve(m->users.size());
    for (size_t i = 0; i < n; ++i) {
      b[i] = static_cast<uint32_t>(u.size());
      for (uint32_t k = m->user_begin[i]; k < m->user_begin[i + 1]; ++k)
        if (u.size() == b[i] || u.back() != m->users[k]) u.push_back(m->users[k]);
    }
    b[n] = static_cast<uint32_t>(u.size());
    m->user_begin.swap(b);
    m->users.swap(u);
  }
  reverse_csr(m->called_begin, m->called, c, &m->comp_caller_begin, &m->comp_callers);
  m->by_name.clear();
  m->by_name.reserve(n);
  for (uint32_t i = 0; i < n; ++i) m->by_name.emplace(m->strings.get(m->name[i]), i);
  m->comp_by_name.clear();
  for (uint32_t i = 0; i < c; ++i) m->comp_by_name.emplace(m->strings.get(m->comp_name[i]), i);
  resolve_stack_frames(m);
  return true;
}

}  // namespace strata::hlo
