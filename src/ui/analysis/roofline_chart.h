// The Roofline chart above the roofline table: log-log axes (operational intensity x achieved
// FLOP/s), the memory roof's slope and the compute roof from the peaks, the ridge point marked
// and labelled, one dot per op and one diamond per program (sized by time share). Hovering a
// marker shows the op; a click selects its row. Beside it the peaks, with two fields where the
// user types them (they re-run the analysis with peakTflops / peakGBps); where the file has none
// the chart says so. The maths are roofline_chart_model's.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ui/analysis/analysis_model.h"
#include "ui/analysis/chart_parts.h"
#include "ui/analysis/roofline_chart_model.h"

namespace strata {

using RooflineBox = ChartBox;

struct RooflineChart {
  // The peaks the user typed, in TFLOP/s and GB/s (0: the file's); they outlive a table.
  double typed_tflops = 0, typed_gbps = 0;
  char tflops_text[32] = {}, gbps_text[32] = {};
  bool peaks_changed = false;  // an ask of the view: run the analysis again with the typed peaks
  // Of the table shown.
  RooflinePeaks peaks;
  std::vector<RooflinePoint> points;  // those drawn
  size_t ops_left_out = 0;            // ops with a point but beyond the most a chart draws
  // What the last frame drew (CSS px), for the script API.
  bool drawn = false;
  RooflineFrame frame;
  std::vector<RooflineDot> dots;  // one per point
  int hovered = -1;               // index into points
  std::string tooltip;
  RooflineBox tflops_box, gbps_box;
};

// The arguments the typed peaks add to the roofline query: ,"peakTflops":n,"peakGBps":n (each
// only when typed), to append inside the args object.
std::string roofline_args(const RooflineChart& c);
// Types the peaks (a deep link's), TFLOP/s and GB/s: 0 leaves the file's.
void roofline_set_typed(RooflineChart* c, double tflops, double gbps);
// A new roofline table: its peaks (from the reply's JSON) and points.
void roofline_chart_set_table(RooflineChart* c, const AnalysisTableModel& m, const char* json);
// Draws the chart and the peaks beside it in a box w x h at the cursor; returns the row of a
// clicked marker, or -1.
int32_t roofline_chart_frame(RooflineChart* c, const AnalysisTableModel& m, int32_t selected,
                             float w, float h);
// {drawn, peaks:{flopsPerSec, bytesPerSec, ridge, source, why, typedTflops, typedGBps},
//  message, plot:[x,y,w,h], axes:{x:[lo,hi], y:[lo,hi]}, ridge:{intensity, flopsPerSec, x, y}|null,
//  roof:{memory:[x0,y0,x1,y1], compute:[x0,y0,x1,y1]}|null, colours, pointCount, opsLeftOut,
//  points:[{row, kind, intensity, flopRate, share, x, y, r}] (programs first), hovered:{row, name,
//  ...}|null, tooltip, layout:{tflops, gbps}}
std::string roofline_chart_json(const RooflineChart& c, const AnalysisTableModel& m);

}  // namespace strata
