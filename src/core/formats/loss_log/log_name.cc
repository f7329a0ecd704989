#include "core/formats/loss_log/log_name.h"

namespace strata {

std::string loss_log_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (slash == std::string_view::npos || file.find("tfevents") == std::string_view::npos)
    return std::string(file);
  std::string_view dir = path.substr(0, slash);
  while (!dir.empty() && dir.front() == '/') dir.remove_prefix(1);
  const size_t first = dir.find('/');
  // Under the dropped folder (its name is the first part of every path), else the folder.
  const std::string_view run = first == std::string_view::npos ? dir : dir.substr(first + 1);
  return run.empty() ? std::string(file) : std::string(run);
}

}  // namespace strata
