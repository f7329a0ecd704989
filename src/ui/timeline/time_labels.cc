#include "ui/timeline/time_labels.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
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

namespace {

// |v| as decimal text with no sign and no exponent ("1695835542513910123").
std::string int128_text(__int128 v) {
  if (v < 0) v = -v;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return digits;
}

// The shortest decimals of `f` (0 < f < 1) that strtod reads back as `f`: ".25".
std::string fraction_text(double f) {
  char buf[96];
  for (int digits = 1; digits <= 60; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*f", digits, f);
    if (std::strtod(buf, nullptr) == f) break;
  }
  std::string s = buf;
  while (s.size() > 2 && s.back() == '0') s.pop_back();
  return s.size() > 2 ? s.substr(1) : std::string();
}

}  // namespace

std::string absolute_ns_text(TimeNs origin, double rel) {
  if (!std::isfinite(rel)) rel = 0;
  // rel = whole + frac exactly (frac = rel - floor(rel) is exact in binary floating point), and
  // parse_absolute_ns adds them back: a double of whole ns (< 2^53) plus the same frac.
  const double whole_rel = std::floor(rel);
  const double frac = rel - whole_rel;
  const __int128 whole = static_cast<__int128>(origin) + static_cast<__int128>(whole_rel);
  if (frac == 0) return (whole < 0 ? "-" : "") + int128_text(whole);
  if (whole >= 0) return int128_text(whole) + fraction_text(frac);
  // Negative with a fraction: -(|whole| - frac), written as -(|whole| - 1) . (1 - frac).
  // Only a trace at the epoch itself has times before 0: 1 - frac is exact for such small rel.
  return "-" + int128_text(-whole - 1) + fraction_text(1 - frac);
}

std::string format_duration_exact(double ns) {
  if (!std::isfinite(ns)) return "?";
  struct Unit {
    double ns;
    int decimals;  // digits after the point that 0.001 ns needs in this unit
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1e9, 12, "s"}, {1e6, 9, "ms"}, {1e3, 6, "us"}, {1, 3, "ns"}};
  const double a = std::fabs(ns);
  const Unit* u = &kUnits[3];
  for (const Unit& c : kUnits)
    if (a >= c.ns) {
      u = &c;
      break;
    }
  // Counted in thousandths of a ns, as an integer, so no digit is a floating-point guess; past
  // about 100 days those no longer fit an int64, and whole ns do.
  const bool fine = a < 9e15;
  const int64_t count = static_cast<int64_t>(std::llround(fine ? a * 1000 : a));
  const int digits = fine ? u->decimals : u->decimals - 3;
  int64_t per_unit = 1;
  for (int i = 0; i < digits; ++i) per_unit *= 10;
  const int64_t whole = count / per_unit, frac = count % per_unit;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%" PRId64, whole);
  std::string out = buf;
  if (frac != 0) {
    std::snprintf(buf, sizeof buf, "%0*" PRId64, digits, frac);
    std::string f = buf;
    while (!f.empty() && f.back() == '0') f.pop_back();
    out += "." + f;
  }
  return out + " " + u->name;
}

std::string format_offset_exact(double offset_ns) {
  const std::string mag = format_duration_exact(offset_ns);
  // "+0 ns" for anything that rounds to zero, never "-0 ns".
  const bool negative = offset_ns < 0 && mag.rfind("0 ", 0) != 0;
  return (negative ? "-" : "+") + mag;
}

std::string time_base_label(const TimeBase& b) {
  return b.has_base ? (b.from_mark ? "mark @ " : "@ ") + b.base_text : "trace start";
}

EventTimeText event_time_text(const TimeBase& b, TimeNs origin, TimeNs start_abs, int64_t dur_ns) {
  EventTimeText t;
  // Relative ns in integers first: epoch ns do not fit a double exactly, their differences do.
  const double start_rel = static_cast<double>(start_abs - origin);
  const double end_rel = static_cast<double>(start_abs + dur_ns - origin);
  const double base = b.has_base ? b.base : 0;
  t.base = time_base_label(b);
  t.start = format_offset_exact(start_rel - base);
  t.end = format_offset_exact(end_rel - base);
  t.duration = format_duration_exact(static_cast<double>(dur_ns));
  t.start_abs = std::to_string(start_abs);
  t.end_abs = std::to_string(start_abs + dur_ns);
  return t;
}

}  // namespace strata
