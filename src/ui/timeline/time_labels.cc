#include "ui/timeline/time_labels.h"

#include <cmath>
#include <cstdlib>

namespace strata {

std::string format_time_offset(double offset_ns, double resolution_ns) {
  const double res = resolution_ns > 0 ? resolution_ns : 1;
  // Round to the resolution first, so -0.0001 ns reads "+0 ns", never "-0 ns".
  const double rounded = std::round(offset_ns / res) * res;
  const bool negative = rounded < 0;
  return (negative ? "-" : "+") + format_tick(std::fabs(rounded), res);
}

std::string format_time_base(double rel_ns, double resolution_ns) {
  return format_tick(rel_ns, resolution_ns > 0 ? resolution_ns : 1);
}

bool wants_time_base(double t_abs_max, double step_ns) {
  return step_ns > 0 && std::fabs(t_abs_max) / step_ns >= kMaxStepsForAbsoluteLabels;
}

double ruler_base(const TimeView& v, const std::vector<std::pair<double, double>>& marks,
                  double step, bool* from_mark) {
  *from_mark = false;
  double base = 0;
  for (const auto& m : marks) {
    if (m.first >= v.start && m.first <= v.end) {
      base = m.first;
      *from_mark = true;
    }
  }
  if (*from_mark) return base;
  return step > 0 ? std::floor(v.start / step) * step : v.start;
}

bool parse_absolute_ns(const char* text, TimeNs origin, double* rel) {
  if (!text) return false;
  const char* p = text;
  while (*p == ' ') ++p;
  bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  if (*p < '0' || *p > '9') return false;
  // Whole ns as an exact integer; the difference from the origin is small enough for a double.
  __int128 whole = 0;
  while (*p >= '0' && *p <= '9') {
    whole = whole * 10 + (*p - '0');
    if (whole > (static_cast<__int128>(1) << 100)) return false;
    ++p;
  }
  double frac = 0;
  if (*p == '.') {
    const char* f = p;
    ++p;
    while (*p >= '0' && *p <= '9') ++p;
    frac = std::strtod(f, nullptr);
  }
  while (*p == ' ') ++p;
  if (*p != 0) return false;
  const __int128 diff = (negative ? -whole : whole) - static_cast<__int128>(origin);
  *rel = static_cast<double>(diff) + (negative ? -frac : frac);
  return true;
}

std::string origin_ns_text(TimeNs origin) { return std::to_string(origin); }

}  // namespace strata
