// The Roofline chart's maths, apart from drawing (tested natively in strata_ui_model): the
// peaks and ridge read from the roofline table's `extra`, one point per program and per op row
// that has both an operational intensity and an achieved rate, log-log axes covering them and
// the roofs, value ↔ pixel on those axes, the roofs' corners and the hit test of the dots.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ui/analysis/analysis_model.h"

namespace strata {

struct RooflinePeaks {
  double flops_per_sec = 0, bytes_per_sec = 0;  // per core; 0: unknown
  double ridge = 0;                             // FLOP/byte where the roofs meet; 0: none
  std::string source, why;                      // where they came from / what is missing
  bool known() const { return flops_per_sec > 0 && bytes_per_sec > 0; }
};

// The roofline reply's extra.peaks and extra.ridge; false (peaks left unknown) when the reply
// carries none.
bool read_roofline_peaks(const char* json, RooflinePeaks* out);

struct RooflinePoint {
  int32_t row = 0;  // into the table's rows
  bool program = false;
  double intensity = 0, flop_rate = 0, time_ns = 0;
  double share = 0;  // of the programs' total time, 0..1
};

// The points of a roofline table (columns by key: kind, intensity, flop_rate, time): rows whose
// intensity and rate are positive numbers. Ops are listed before programs, so a program's
// marker is drawn over its ops.
std::vector<RooflinePoint> roofline_points(const AnalysisTableModel& m);
// Keeps the `max_ops` ops with the most time (and every program), in their order; returns how
// many ops were left out.
size_t roofline_keep_top_ops(std::vector<RooflinePoint>* points, size_t max_ops);

// A logarithmic axis from lo to hi (both > 0, whole decades).
struct LogAxis {
  double lo = 1, hi = 10;
};
// The decades around [min, max] (both > 0; at least one decade wide).
LogAxis log_axis_covering(double min, double max);
// v's pixel on an axis drawn from px_lo (at lo) to px_hi (at hi); works for a y axis drawn
// upwards (px_lo below px_hi on screen).
float log_axis_px(const LogAxis& a, double v, float px_lo, float px_hi);
double log_axis_value(const LogAxis& a, float px, float px_lo, float px_hi);
// 10^k for every decade from lo to hi, both included.
std::vector<double> log_axis_decades(const LogAxis& a);

// The axes for these points and peaks: intensity covers the points and, with peaks, a decade
// either side of the ridge; the rate covers the points and, with peaks, the compute roof.
void roofline_axes(const std::vector<RooflinePoint>& points, const RooflinePeaks& peaks, LogAxis* x,
                   LogAxis* y);

// The best rate at this intensity: min(intensity x bandwidth, peak FLOP/s); 0 without peaks.
double roof_at(const RooflinePeaks& peaks, double intensity);

// The plot's pixel frame: x from left (x.lo) to right (x.hi), y from bottom (y.lo) to top.
struct RooflineFrame {
  float left = 0, top = 0, right = 0, bottom = 0;
  LogAxis x, y;
  float px_x(double intensity) const { return log_axis_px(x, intensity, left, right); }
  float px_y(double rate) const { return log_axis_px(y, rate, bottom, top); }
};

// A dot's radius for its time share: the smallest dot at no time, the largest at all of it
// (by area).
float roofline_dot_radius(double share, bool program);

struct RooflineDot {
  float x = 0, y = 0, r = 0;
};
// The dots of the points on the frame.
std::vector<RooflineDot> roofline_dots(const std::vector<RooflinePoint>& points,
                                       const RooflineFrame& f);
// The dot under (mx, my): the nearest whose disc grown by `slop` holds it; among equals the
// later (drawn on top); -1 for none.
int roofline_hit(const std::vector<RooflineDot>& dots, float mx, float my, float slop);

}  // namespace strata
