// A line chart over iterations, drawn with ImGui's draw list: axes with round ticks, linear or
// log-10 value axis, one polyline per series (folded to min/max per pixel column when a series
// has more points than pixels, so a million-point log draws as fast as a small one), and a
// cursor line shared by every chart of the loss view (hovering one sets it for all).
#pragma once
#include <cstdint>
#include <vector>

namespace strata {

struct ChartSeries {
  const std::vector<int64_t>* x;  // ascending
  const std::vector<double>* y;   // same length; non-finite values are gaps
  uint32_t color;
  const char* label;
};

// Draws at the current ImGui cursor, w × h pixels. `cursor_iter` (NaN: none) is drawn and, when
// the mouse is over this chart, replaced by the iteration under it.
// `x_title` and `y_title` name the axes (under the X ticks, above the Y ones).
void draw_loss_chart(const char* id, const std::vector<ChartSeries>& series, bool log_y,
                     double* cursor_iter, bool* cursor_here, float w, float h, const char* x_title,
                     const char* y_title);

// A series colour by index (distinct for the first eight).
uint32_t loss_series_color(size_t i);

}  // namespace strata
