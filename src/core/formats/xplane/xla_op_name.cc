#include "core/formats/xplane/xla_op_name.h"

#include "core/base/text.h"

namespace strata {

namespace {

// An HLO instruction name: no spaces, no '=', not empty.
bool is_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c == ' ' || c == '\t' || c == '=' || c == '(' || c == ')' || c == ',') return false;
  return true;
}

}  // namespace

std::string_view hlo_text_instruction_name(std::string_view text) {
  text = trim(text);
  const size_t eq = text.find(" = ");
  if (eq == std::string_view::npos) return {};
  std::string_view lhs = trim(text.substr(0, eq));
  if (lhs.starts_with("ROOT ")) lhs = trim(lhs.substr(5));
  if (lhs.starts_with('%')) lhs.remove_prefix(1);
  return is_name(lhs) ? lhs : std::string_view();
}

std::string_view xla_hlo_instruction(const XlaOpNaming& e) {
  if (std::string_view op = trim(e.hlo_op); !op.empty()) return op;
  if (e.on_xla_ops_line || e.has_program_or_module) {
    if (std::string_view from_text = hlo_text_instruction_name(e.metadata_name); !from_text.empty())
      return from_text;
    std::string_view name = trim(e.metadata_name);
    if (name.starts_with('%')) name.remove_prefix(1);
    if (is_name(name)) return name;
  }
  return hlo_text_instruction_name(e.long_name);
}

}  // namespace strata
