#include "ui/runs/runs_diff_axis.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace strata {

namespace {
constexpr int kLinearTicks = 4;  // about this many intervals on a linear axis
}  // namespace

double DiffAxis::at(double v) const {
  if (!log) return hi > 0 ? std::clamp(v / hi, 0.0, 1.0) : 0;
  if (!(v > lo)) return 0;
  return std::clamp((std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)), 0.0, 1.0);
}

DiffAxis diff_bar_axis(const std::vector<double>& values) {
  std::vector<double> v;
  for (double x : values)
    if (x > 0 && std::isfinite(x)) v.push_back(x);
  std::sort(v.begin(), v.end(), std::greater<double>());
  DiffAxis a;
  if (v.empty()) {
    a.ticks = {0, 1};
    return a;
  }
  if (v.size() >= 2 && v[0] > kDiffDominance * v[1]) {
    a.log = true;
    a.lo = std::pow(10.0, std::floor(std::log10(v.back())));
    a.hi = std::pow(10.0, std::ceil(std::log10(v[0])));
    if (a.hi <= a.lo) a.hi = a.lo * 10;
    for (double t = a.lo; t <= a.hi * 1.0001; t *= 10) a.ticks.push_back(t);
    return a;
  }
  const double raw = v[0] / kLinearTicks;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / p;
  const double step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  a.hi = std::ceil(v[0] / step - 1e-9) * step;
  for (int i = 0; i * step <= a.hi * 1.0001; ++i) a.ticks.push_back(i * step);
  return a;
}

}  // namespace strata
