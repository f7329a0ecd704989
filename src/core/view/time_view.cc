#include "core/view/time_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata {

ViewLimits limits_for_extent(double extent_ns) {
  ViewLimits lim;
  double e = std::max(extent_ns, 1000.0);
  lim.min_time = -0.02 * e;
  lim.max_time = e * 1.02;
  lim.min_span = 10;
  return lim;
}

TimeView clamp_view(const TimeView& v, const ViewLimits& lim) {
  TimeView r = v;
  double max_span = lim.max_time - lim.min_time;
  double span = std::clamp(r.span(), lim.min_span, max_span);
  if (!(span > 0)) span = lim.min_span;  // NaN guard
  double centre = (r.start + r.end) / 2;
  if (!std::isfinite(centre)) centre = (lim.min_time + lim.max_time) / 2;
  r.start = centre - span / 2;
  r.end = centre + span / 2;
  if (r.start < lim.min_time) {
    r.start = lim.min_time;
    r.end = r.start + span;
  }
  if (r.end > lim.max_time) {
    r.end = lim.max_time;
    r.start = r.end - span;
  }
  return r;
}

TimeView zoom_about(const TimeView& v, double anchor, double factor, const ViewLimits& lim) {
  double span = v.span();
  double new_span = std::clamp(span * factor, lim.min_span, lim.max_time - lim.min_time);
  // Keep the anchor's fraction of the view fixed, so the point under the cursor stays put.
  double frac = span > 0 ? (anchor - v.start) / span : 0.5;
  frac = std::clamp(frac, 0.0, 1.0);
  TimeView r = v;
  r.start = anchor - frac * new_span;
  r.end = r.start + new_span;
  return clamp_view(r, lim);
}

TimeView pan_by(const TimeView& v, double delta, const ViewLimits& lim) {
  TimeView r = v;
  r.start += delta;
  r.end += delta;
  return clamp_view(r, lim);
}

double tick_step(double span_ns, double width_px, double min_px) {
  if (!(span_ns > 0) || !(width_px > 0)) return 1;
  double raw = span_ns * min_px / width_px;  // ns between ticks at the minimum spacing
  double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-3))));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw) return std::max(m * p, 1.0);
  }
  return std::max(10 * p, 1.0);
}

std::vector<double> ticks(const TimeView& v, double step) {
  std::vector<double> out;
  if (!(step > 0)) return out;
  double first = std::ceil(v.start / step) * step;
  for (double t = first; t <= v.end && out.size() < 10000; t += step) out.push_back(t);
  return out;
}

namespace {
struct Unit {
  double ns;
  const char* name;
};
constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};

const Unit& unit_for(double ns) {
  double a = std::fabs(ns);
  for (const Unit& u : kUnits)
    if (a >= u.ns) return u;
  return kUnits[3];
}
}  // namespace

std::string format_duration(double ns) {
  if (!std::isfinite(ns)) return "?";
  const Unit& u = unit_for(ns);
  double x = ns / u.ns;
  char buf[48];
  double a = std::fabs(x);
  int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  if (u.ns == 1) decimals = 0;
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, x, u.name);
  return buf;
}

std::string format_tick(double t_ns, double step_ns) {
  if (std::fabs(t_ns) < step_ns * 1e-6) t_ns = 0;  // no "-0 us" from rounding
  const Unit& u = unit_for(std::max(std::fabs(t_ns), step_ns));
  // Enough decimals to write the step exactly, so consecutive ticks differ (0.25 ms → 2).
  int decimals = 0;
  double s = step_ns / u.ns;
  while (decimals < 9) {
    double r = std::round(s);
    if (r >= 1 && std::fabs(s - r) <= 1e-6 * r) break;
    s *= 10;
    ++decimals;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, t_ns / u.ns, u.name);
  return buf;
}

}  // namespace strata
