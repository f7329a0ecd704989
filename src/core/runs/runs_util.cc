#include "core/runs/runs_util.h"

#include <cmath>

#include "core/runs/run_stats.h"

namespace strata::runs {

int find_column(const CsvTable& t, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    int c = t.column(n);
    if (c >= 0) return c;
  }
  return -1;
}

double cell_number(const CsvTable& t, size_t row, int col) {
  if (col < 0) return kMissing;
  double v = 0;
  if (!csv_parse_number(t.cell(row, col), &v)) return kMissing;
  return v;
}

std::string cell_text(const CsvTable& t, size_t row, int col) {
  if (col < 0) return std::string();
  return t.cell(row, col);
}

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool icontains(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  if (needle.size() > hay.size()) return false;
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i)
    if (iequals(hay.substr(i, needle.size()), needle)) return true;
  return false;
}

}  // namespace strata::runs
