#include "core/loss/loss_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>

namespace strata {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

const char* compare_mode_name(CompareMode m) {
  switch (m) {
    case CompareMode::kNormal:
      return "normal";
    case CompareMode::kAbsolute:
      return "absolute";
    case CompareMode::kRelative:
      return "relative";
  }
  return "normal";
}

bool parse_compare_mode(const std::string& s, CompareMode* out) {
  for (CompareMode m : {CompareMode::kNormal, CompareMode::kAbsolute, CompareMode::kRelative}) {
    if (s == compare_mode_name(m)) return *out = m, true;
  }
  return false;
}

LossSeries unique_by_iteration(const LossSeries& s) {
  std::vector<uint32_t> order(s.size());
  std::iota(order.begin(), order.end(), 0u);
  // Stable by iteration, so among equal iterations the file order stays; keep the last.
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t x, uint32_t y) { return s.iteration[x] < s.iteration[y]; });
  LossSeries out;
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t i = order[k];
    if (k + 1 < order.size() && s.iteration[order[k + 1]] == s.iteration[i]) continue;
    out.iteration.push_back(s.iteration[i]);
    out.loss.push_back(s.loss[i]);
  }
  return out;
}

FullTable full_table(const std::vector<const LossSeries*>& files) {
  std::vector<LossSeries> u;
  u.reserve(files.size());
  for (const LossSeries* f : files) u.push_back(unique_by_iteration(*f));
  FullTable t;
  for (const LossSeries& s : u)
    t.iteration.insert(t.iteration.end(), s.iteration.begin(), s.iteration.end());
  std::sort(t.iteration.begin(), t.iteration.end());
  t.iteration.erase(std::unique(t.iteration.begin(), t.iteration.end()), t.iteration.end());
  for (const LossSeries& s : u) {
    std::vector<double> col(t.iteration.size(), kNaN);
    size_t j = 0;
    for (size_t r = 0; r < t.iteration.size() && j < s.size(); ++r) {
      if (s.iteration[j] == t.iteration[r]) col[r] = s.loss[j++];
    }
    t.values.push_back(std::move(col));
  }
  return t;
}

Comparison compare_series(const LossSeries& a_in, const LossSeries& b_in, CompareMode mode) {
  const LossSeries a = unique_by_iteration(a_in), b = unique_by_iteration(b_in);
  Comparison c;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a.iteration[i] < b.iteration[j]) {
      ++i;
    } else if (b.iteration[j] < a.iteration[i]) {
      ++j;
    } else {
      const double d = b.loss[j] - a.loss[i];
      double v = d;
      if (mode == CompareMode::kAbsolute) v = std::fabs(d);
      if (mode == CompareMode::kRelative) v = a.loss[i] != 0 ? std::fabs(d) / a.loss[i] : kNaN;
      c.iteration.push_back(a.iteration[i]);
      c.a.push_back(a.loss[i]);
      c.b.push_back(b.loss[j]);
      c.value.push_back(v);
      ++i, ++j;
    }
  }
  double sum = 0, mx = -std::numeric_limits<double>::infinity();
  size_t n = 0;
  for (double v : c.value) {
    if (!std::isfinite(v)) continue;
    sum += v, ++n;
    mx = std::max(mx, v);
  }
  c.mean = n ? sum / static_cast<double>(n) : kNaN;
  c.max = n ? mx : kNaN;
  return c;
}

std::vector<double> ema(const std::vector<double>& x, double weight) {
  std::vector<double> out(x.size());
  double s = 0;
  bool first = true;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) {
      out[i] = x[i];
      continue;
    }
    s = first ? x[i] : weight * s + (1 - weight) * x[i];
    first = false;
    out[i] = s;
  }
  return out;
}

std::string format_double(double v) {
  if (std::isnan(v)) return "NA";
  char buf[40];
  for (int prec = 6; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string loss_points_csv(const LossSeries& s) {
  std::string out = "iteration,loss\n";
  for (size_t i = 0; i < s.size(); ++i)
    out += std::to_string(s.iteration[i]) + "," + format_double(s.loss[i]) + "\n";
  return out;
}

std::string comparison_csv(const Comparison& c, const std::string& name_a,
                           const std::string& name_b, CompareMode mode) {
  std::string out = "iteration," + csv_field(name_a) + "," + csv_field(name_b) + "," +
                    compare_mode_name(mode) + "\n";
  for (size_t i = 0; i < c.count(); ++i) {
    out += std::to_string(c.iteration[i]) + "," + format_double(c.a[i]) + "," +
           format_double(c.b[i]) + "," + format_double(c.value[i]) + "\n";
  }
  return out;
}

}  // namespace strata
