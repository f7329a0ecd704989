// Min/max pyramid over one column of samples: level k holds the min and max of each block of
// 8^k samples, so the extremes of any index range are read from O(log n) entries. The memory
// chart asks it for every pixel column, which keeps the peaks exact at every zoom while a
// reply stays O(pixels) whatever the sample count. NaN samples (a value the source did not
// record) are ignored.
#pragma once
#include <cstddef>
#include <vector>

namespace strata {

struct MinMaxPyramid {
  static constexpr size_t kFan = 8;
  // levels[0] summarises blocks of 8 samples, levels[k] blocks of 8^(k+1).
  struct Level {
    std::vector<double> min, max;
  };
  std::vector<Level> levels;
};

MinMaxPyramid build_minmax_pyramid(const std::vector<double>& values);

// Min and max of values[a, b) (b clamped to the size). False when the range holds no
// non-NaN sample (then *mn, *mx are untouched).
bool range_minmax(const MinMaxPyramid& p, const std::vector<double>& values, size_t a, size_t b,
                  double* mn, double* mx);

}  // namespace strata
