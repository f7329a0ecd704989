#include "ui/analysis/step_chart_math.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

int column_of(const AnalysisTableModel& m, const std::string& key) {
  for (size_t c = 0; c < m.columns.size(); ++c)
    if (m.columns[c].key == key) return static_cast<int>(c);
  return -1;
}

bool number_at(const TableRow& r, int c, double* v) {
  if (c < 0 || static_cast<size_t>(c) >= r.cells.size()) return false;
  if (r.cells[static_cast<size_t>(c)].kind != TableCell::Kind::kNumber) return false;
  *v = r.cells[static_cast<size_t>(c)].number;
  return true;
}

// The number after the last '#' (or the whole name), "" when it is not all digits.
std::string step_number(const std::string& name) {
  const size_t hash = name.rfind('#');
  std::string n = hash == std::string::npos ? name : name.substr(hash + 1);
  if (n.empty() || !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return {};
  return n;
}

}  // namespace

StepChartData step_chart_data(const AnalysisTableModel& m) {
  StepChartData d;
  const int start = column_of(m, "start"), duration = column_of(m, "duration");
  if (start < 0 || duration < 0) return d;
  for (size_t k = 0; k < kStepChartParts; ++k) {
    const int c = column_of(m, kStepChartPartKeys[k]);
    if (c >= 0)
      d.parts.push_back({kStepChartPartKeys[k], m.columns[static_cast<size_t>(c)].label, c, k});
  }
  // Without part columns the bar is the step's duration, in the colour of "other".
  if (d.parts.empty())
    d.parts.push_back({"duration", m.columns[static_cast<size_t>(duration)].label, duration,
                       kStepChartParts - 2});
  for (size_t i = 0; i < m.rows.size(); ++i) {
    const TableRow& r = m.rows[i];
    StepBar b;
    if (!number_at(r, start, &b.start_ns) || !number_at(r, duration, &b.duration_ns)) continue;
    b.row = static_cast<int32_t>(i);
    b.name = !r.cells.empty() && r.cells[0].kind == TableCell::Kind::kText ? r.cells[0].text
                                                                           : r.link.name;
    double total = 0;
    for (const StepChartPart& p : d.parts) {
      double v = 0;
      number_at(r, p.column, &v);  // an empty cell (a part that does not apply) is 0
      b.parts.push_back(std::max(0.0, v));
      total += std::max(0.0, v);
    }
    d.max_total = std::max(d.max_total, total);
    d.bars.push_back(std::move(b));
  }
  return d;
}

void step_bar_x(const ChartBox& plot, size_t n, size_t i, float max_gap, float* x0, float* x1) {
  const float slot = n ? plot.w / static_cast<float>(n) : plot.w;
  const float gap = std::min(slot / 4, max_gap);
  *x0 = plot.x + slot * static_cast<float>(i) + gap / 2;
  *x1 = plot.x + slot * static_cast<float>(i + 1) - gap / 2;
}

float step_bar_height(const ChartBox& plot, double value, double max) {
  if (!(max > 0) || !(value > 0)) return 0;
  return static_cast<float>(std::min(1.0, value / max)) * plot.h;
}

int step_bar_at(const ChartBox& plot, size_t n, float px, float py) {
  if (n == 0 || px < plot.x || px >= plot.x + plot.w || py < plot.y || py > plot.y + plot.h)
    return -1;
  const float slot = plot.w / static_cast<float>(n);
  return std::min(static_cast<int>((px - plot.x) / slot), static_cast<int>(n) - 1);
}

std::vector<BarSegment> step_bar_segments(const StepChartData& d, const ChartBox& plot, size_t i) {
  std::vector<BarSegment> out;
  if (i >= d.bars.size()) return out;
  const StepBar& b = d.bars[i];
  double below = 0;
  const float bottom = plot.y + plot.h;
  for (size_t p = 0; p < b.parts.size(); ++p) {
    if (!(b.parts[p] > 0)) continue;
    const float y0 = bottom - step_bar_height(plot, below, d.max_total);
    below += b.parts[p];
    const float y1 = bottom - step_bar_height(plot, below, d.max_total);
    out.push_back({p, y0, y1});
  }
  return out;
}

int step_bar_named(const StepChartData& d, const std::string& step) {
  if (step.empty()) return -1;
  for (size_t i = 0; i < d.bars.size(); ++i)
    if (d.bars[i].name == step || step_number(d.bars[i].name) == step) return static_cast<int>(i);
  return -1;
}

}  // namespace strata
