// The step chart's maths, apart from drawing (tested natively): which rows of an analysis table
// are steps and what their stacked parts are, where each bar and segment lands in the plot, and
// which bar a point is over.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "protocol/analysis_keys.h"
#include "ui/analysis/analysis_model.h"
#include "ui/analysis/chart_box.h"

namespace strata {

// The stacked parts a bar can show, in stacking order (bottom first): the overview's columns
// (engine/analysis/overview.cc), or a lone "duration" for a table without them (steps).
inline constexpr const auto& kStepChartPartKeys = protocol::keys::step_parts::kKeys;
inline constexpr size_t kStepChartParts = protocol::keys::step_parts::kCount;

struct StepBar {
  int32_t row = 0;  // index into the table's rows
  std::string name;
  double start_ns = 0, duration_ns = 0;  // from the trace's start
  std::vector<double> parts;             // per chart part (StepChartData::parts)
};

struct StepChartPart {
  std::string key, label;
  int column = -1;    // the table column it comes from
  size_t colour = 0;  // index into kStepChartPartKeys (the theme's colour for it)
};

struct StepChartData {
  std::vector<StepChartPart> parts;
  std::vector<StepBar> bars;  // in table order
  double max_total = 0;       // the tallest bar's sum
};

// The rows with a number in the "start" and "duration" columns are steps. Parts: the part
// columns the table has; none → the duration alone. No step rows → no bars.
StepChartData step_chart_data(const AnalysisTableModel& m);

// Bar i's horizontal extent: n equal slots across the plot, a gap of a quarter slot (at most
// `max_gap` px) between bars.
void step_bar_x(const ChartBox& plot, size_t n, size_t i, float max_gap, float* x0, float* x1);
// The height in px of `value` on the plot (0 at the bottom, max at the top).
float step_bar_height(const ChartBox& plot, double value, double max);
// The bar under (px, py), or -1: the slot under px, when py is within the plot.
int step_bar_at(const ChartBox& plot, size_t n, float px, float py);

struct BarSegment {
  size_t part = 0;       // index into StepChartData::parts
  float y0 = 0, y1 = 0;  // y0 > y1 (the bottom is larger)
};
// The visible segments of bar i, bottom first (empty parts left out).
std::vector<BarSegment> step_bar_segments(const StepChartData& d, const ChartBox& plot, size_t i);

// The bar whose step is number `step` ("ProfilerStep#12" is 12; a name that is a number is
// itself), or -1.
int step_bar_named(const StepChartData& d, const std::string& step);

}  // namespace strata
