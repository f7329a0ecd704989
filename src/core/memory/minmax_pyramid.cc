#include "core/memory/minmax_pyramid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata {

MinMaxPyramid build_minmax_pyramid(const std::vector<double>& values) {
  MinMaxPyramid p;
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double>* lo = &values;
  const std::vector<double>* hi = &values;
  while (lo->size() > MinMaxPyramid::kFan) {
    MinMaxPyramid::Level l;
    const size_t n = (lo->size() + MinMaxPyramid::kFan - 1) / MinMaxPyramid::kFan;
    l.min.assign(n, inf);
    l.max.assign(n, -inf);
    for (size_t i = 0; i < lo->size(); ++i) {
      // fmin/fmax return the other operand for a NaN, so unrecorded samples drop out.
      l.min[i / MinMaxPyramid::kFan] = std::fmin(l.min[i / MinMaxPyramid::kFan], (*lo)[i]);
      l.max[i / MinMaxPyramid::kFan] = std::fmax(l.max[i / MinMaxPyramid::kFan], (*hi)[i]);
    }
    p.levels.push_back(std::move(l));
    lo = &p.levels.back().min;
    hi = &p.levels.back().max;
  }
  return p;
}

bool range_minmax(const MinMaxPyramid& p, const std::vector<double>& values, size_t a, size_t b,
                  double* mn, double* mx) {
  b = std::min(b, values.size());
  const double inf = std::numeric_limits<double>::infinity();
  double lo = inf, hi = -inf;
  const std::vector<double>* mins = &values;
  const std::vector<double>* maxs = &values;
  size_t level = 0;  // 0 = the samples themselves; k = p.levels[k - 1]
  auto take = [&](size_t i) {
    lo = std::fmin(lo, (*mins)[i]);
    hi = std::fmax(hi, (*maxs)[i]);
  };
  while (a < b) {
    if (level >= p.levels.size()) {  // no coarser level: read what is left
      for (size_t i = a; i < b; ++i) take(i);
      break;
    }
    // Ragged ends at this level one by one; the aligned middle moves up a level.
    while (a < b && a % MinMaxPyramid::kFan) take(a++);
    while (a < b && b % MinMaxPyramid::kFan) take(--b);
    if (a >= b) break;
    a /= MinMaxPyramid::kFan;
    b /= MinMaxPyramid::kFan;
    mins = &p.levels[level].min;
    maxs = &p.levels[level].max;
    ++level;
  }
  if (!(lo <= hi)) return false;
  *mn = lo;
  *mx = hi;
  return true;
}

}  // namespace strata
