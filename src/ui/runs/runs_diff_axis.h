// The Diff chart's bar axis: linear from 0 at round ticks, or logarithmic (ticks at powers of
// ten) when one operator type's time dwarfs the others', so the rest do not shrink to a pixel.
#pragma once
#include <string>
#include <vector>

#include "ui/widgets/number_format.h"

namespace strata {

// Above this ratio of the largest to the second largest type, the axis is logarithmic.
constexpr double kDiffDominance = 10;

struct DiffAxis {
  bool log = false;
  double lo = 0, hi = 1;      // linear: [0, hi]; log: [lo, hi], both powers of ten
  std::vector<double> ticks;  // values, bottom to top
  // Where `v` sits, 0 (bottom) to 1 (top); values under lo sit at the bottom.
  double at(double v) const;
};

// `values`: each operator type's larger time (baseline or experiment), µs.
DiffAxis diff_bar_axis(const std::vector<double>& values);

// µs for axis labels: "0", "250", "1.5k", "12M" (3 significant digits at most).
inline std::string runs_us_short(double us) { return format_compact(us); }

}  // namespace strata
