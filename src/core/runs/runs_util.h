// Small helpers shared by the run-statistics files: reading a CSV cell as a number, picking a
// column among the names different profiler versions give it, and sorting grouped rows.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/ascend_csv/csv_reader.h"

namespace strata::runs {

// The first of `names` the table has (case-insensitive), or -1.
int find_column(const CsvTable& t, std::initializer_list<std::string_view> names);
// The cell as a number; NaN when the column is absent (-1) or the cell is empty/not a number
// ("N/A", "-", ...).
double cell_number(const CsvTable& t, size_t row, int col);
// The cell's text, "" when the column is absent.
std::string cell_text(const CsvTable& t, size_t row, int col);
// NaN counts as 0 in sums.
inline double or_zero(double v) { return v == v ? v : 0.0; }
// A count read as a number: NaN and negatives are 0, and a value past uint64_t's range (a
// hostile or corrupt cell) is clamped rather than converted, which would be undefined.
inline uint64_t count_or_zero(double v) {
  if (!(v > 0)) return 0;
  return v >= 18446744073709551615.0 ? UINT64_MAX : static_cast<uint64_t>(v);
}
// Case-insensitive ASCII equality / substring.
bool iequals(std::string_view a, std::string_view b);
bool icontains(std::string_view hay, std::string_view needle);

// Running min/max/sum of durations, for the kernel statistics.
struct DurStats {
  uint64_t count = 0;
  double total = 0, min = 0, max = 0;
  void add(double us) {
    if (count == 0 || us < min) min = us;
    if (count == 0 || us > max) max = us;
    total += us;
    ++count;
  }
  double avg() const { return count ? total / double(count) : 0.0; }
};

}  // namespace strata::runs
