#include "ui/widgets/number_format.h"

#include <cmath>
#include <cstdio>

namespace strata {

std::string format_thousands(double v, int decimals) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  size_t dot = s.find('.');
  if (dot == std::string::npos) dot = s.size();
  const size_t start = s[0] == '-' ? 1 : 0;
  for (size_t i = dot; i > start + 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

std::string format_compact(double v) {
  if (!std::isfinite(v)) return "-";
  const double a = std::fabs(v);
  const char* suffix = a >= 1e9 ? "G" : a >= 1e6 ? "M" : a >= 1e3 ? "k" : "";
  const double d = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g%s", v / d, suffix);
  return buf;
}

}  // namespace strata
