// The step chart above the Overview and Steps tables: one stacked bar per step (the overview's
// parts in the theme's step colours, or the step's duration), a legend, the tallest step's time
// on the axis. Hovering a bar shows its parts; a click picks the step (the view then selects its
// row, so its events, and zooms the timeline to it).
#pragma once
#include <cstdint>
#include <string>

#include "ui/analysis/step_chart_math.h"

namespace strata {

struct StepChart {
  StepChartData data;
  int hovered = -1;  // bar under the mouse in the last frame
  int chosen = -1;   // the picked bar (clicked, or from the deep link)
  std::string hover_text;
  ChartBox plot;  // what the last frame drew (CSS px); w == 0: not drawn
};

// A new table: its bars (none when it has no step rows).
void step_chart_set(StepChart* c, const AnalysisTableModel& m);
// Draws at the cursor across `width` when there are bars; the bar clicked this frame or -1.
int step_chart_draw(StepChart* c, float width);
// The chosen bar's step as the deep link writes it ("12" for ProfilerStep#12), or "".
std::string step_chart_chosen_step(const StepChart& c);
// {bars, parts:[{key,label,colour:"#rrggbb"}], plot:[x,y,w,h], hovered, chosen, hoverText,
//  boxes:[{row, name, x0, x1, segments:[{part, y0, y1}]}] (the first 200)}
std::string step_chart_json(const StepChart& c);

}  // namespace strata
