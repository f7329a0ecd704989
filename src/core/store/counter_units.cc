#include "core/store/counter_units.h"

#include "core/base/text.h"

namespace strata {
namespace {

// KB, MB and GB are read as binary (1024-based), as their producers mean them: PyTorch's
// TensorBoard profiler plugin converts its memory curves with KB = 1024, MB = 1024^2,
// GB = 1024^3 (torch_tb_profiler/utils.py), PyTorch's memory timeline divides by 1024^3 for
// "GB", and TensorFlow's memory tools say MiB outright. A decimal reading would make 1120 "MB"
// 4.9% smaller than what the producer measured.
double bytes_per_unit(std::string_view u) {
  if (u == "B" || u == "bytes" || u == "Bytes") return 1;
  if (u == "KB" || u == "kB" || u == "KiB") return 1024.0;
  if (u == "MB" || u == "MiB") return 1024.0 * 1024;
  if (u == "GB" || u == "GiB") return 1024.0 * 1024 * 1024;
  return 0;
}

constexpr std::string_view kSpaceAndTab = " \t";

}  // namespace

CounterUnit counter_unit_of_name(std::string_view name) {
  CounterUnit u;
  // "(MB)" or "[MB]": the last such group that is a unit.
  for (size_t close = name.size(); close-- > 0;) {
    const char c = name[close];
    if (c != ')' && c != ']') continue;
    const size_t open = name.rfind(c == ')' ? '(' : '[', close);
    if (open == std::string_view::npos) break;
    const double scale =
        bytes_per_unit(trim(name.substr(open + 1, close - open - 1), kSpaceAndTab));
    if (scale > 0) {
      u.bytes = true;
      u.scale = scale;
      return u;
    }
    close = open;
  }
  // "... MB": the last word, after a space.
  std::string_view t = trim(name, kSpaceAndTab);
  const size_t space = t.find_last_of(" \t");
  if (space == std::string_view::npos) return u;
  const std::string_view word = t.substr(space + 1);
  // A lone trailing "B" is as often a label ("Stream B") as a unit: only bracketed.
  const double scale = word == "B" ? 0 : bytes_per_unit(word);
  if (scale > 0) {
    u.bytes = true;
    u.scale = scale;
  }
  return u;
}

}  // namespace strata
