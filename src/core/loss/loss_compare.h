// Loss comparison math (the seed's "Loss比对看板"), on LossSeries columns:
//   * an iteration's value in a file: when a file logs the same iteration more than once (a
//     resumed run), its last line wins, the value a resumed run continues from;
//   * full table: every iteration of the given files, ascending, NaN where a file has none
//     (shown "NA");
//   * comparison of two files over the iterations both have: Normal = b - a (b chosen second),
//     Absolute = |b - a|, Relative = |b - a| / a (NaN when a is 0), with the mean and the max
//     of those values (NaN values skipped);
//   * EMA smoothing for display; CSV text for export.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/loss_log/log_scanner.h"

namespace strata {

enum class CompareMode { kNormal, kAbsolute, kRelative };
const char* compare_mode_name(CompareMode m);  // "normal" / "absolute" / "relative"
bool parse_compare_mode(const std::string& s, CompareMode* out);

// One value per iteration (last line wins), ascending by iteration.
LossSeries unique_by_iteration(const LossSeries& s);

struct FullTable {
  std::vector<int64_t> iteration;
  std::vector<std::vector<double>> values;  // values[file][row], NaN = NA
};
FullTable full_table(const std::vector<const LossSeries*>& files);

struct Comparison {
  std::vector<int64_t> iteration;
  std::vector<double> a, b, value;  // per common iteration
  double mean = 0, max = 0;         // over the finite values; NaN when there are none
  size_t count() const { return iteration.size(); }
};
Comparison compare_series(const LossSeries& a, const LossSeries& b, CompareMode mode);

// Exponential moving average (TensorBoard-style smoothing): s0 = x0, s = w*s + (1-w)*x.
std::vector<double> ema(const std::vector<double>& x, double weight);

// "iteration,loss\n" + one row per point (file order), numbers in shortest round-trip form.
std::string loss_points_csv(const LossSeries& s);
// "iteration,<nameA>,<nameB>,<mode>\n" + one row per common iteration; NaN → NA.
std::string comparison_csv(const Comparison& c, const std::string& name_a,
                           const std::string& name_b, CompareMode mode);
// A CSV field, quoted when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);
// Shortest text that reads back as the same double ("%.17g" trimmed); "NA" for NaN.
std::string format_double(double v);

}  // namespace strata
