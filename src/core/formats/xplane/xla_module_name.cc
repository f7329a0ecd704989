#include "core/formats/xplane/xla_module_name.h"

namespace strata {

bool split_module_name(std::string_view n, std::string_view* module, std::string_view* program) {
  if (n.size() < 3 || n.back() != ')') return false;
  const size_t open = n.rfind('(');
  if (open == std::string_view::npos || open + 2 > n.size() - 1) return false;
  const std::string_view digits = n.substr(open + 1, n.size() - open - 2);
  for (char c : digits)
    if (c < '0' || c > '9') return false;
  *module = n.substr(0, open);
  *program = digits;
  return true;
}

}  // namespace strata
