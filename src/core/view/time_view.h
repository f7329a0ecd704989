// View math for every time axis (timeline, later memory chart): the visible time range, the
// mapping between time and pixels, zoom about an anchor, pan, clamping, and ruler ticks.
//
// Times here are doubles in ns *relative to an origin* (the trace start): a double is exact to
// 2^53 ns (104 days), whereas absolute epoch timestamps (~1.7e18 ns) would lose precision.
#pragma once
#include <string>
#include <vector>

#include "core/base/types.h"

namespace strata {

struct TimeView {
  TimeNs origin = 0;  // absolute ns of relative time 0
  double start = 0;   // visible range, relative ns
  double end = 1;
  double span() const { return end - start; }
};

// Limits a view must stay in: the trace extent (with a margin) and the narrowest span.
struct ViewLimits {
  double min_time = 0;  // relative ns
  double max_time = 1;
  double min_span = 10;  // ns; below this a pixel is far under a nanosecond
};

inline double time_to_px(const TimeView& v, double t, double width_px) {
  return (t - v.start) / v.span() * width_px;
}
inline double px_to_time(const TimeView& v, double px, double width_px) {
  return v.start + px / width_px * v.span();
}

// Zooms by `factor` (< 1 zooms in) keeping `anchor` (relative ns) at the same pixel.
TimeView zoom_about(const TimeView& v, double anchor, double factor, const ViewLimits& lim);
// Moves the view by `delta` ns (positive = later), without changing its span.
TimeView pan_by(const TimeView& v, double delta, const ViewLimits& lim);
// Brings a view inside the limits: span at least min_span and at most the whole extent,
// shifted (not shrunk) to stay within [min_time, max_time].
TimeView clamp_view(const TimeView& v, const ViewLimits& lim);
// Limits for a trace spanning [0, extent] relative ns: 2% margin either side.
ViewLimits limits_for_extent(double extent_ns);

// Ruler: the tick step (1, 2 or 5 × 10^k ns) so ticks are at least `min_px` apart.
double tick_step(double span_ns, double width_px, double min_px);
// Tick positions (relative ns) of `step` inside the view.
std::vector<double> ticks(const TimeView& v, double step);

// "12.5 ms", "850 ns", "3.2 s": a duration with 3 significant digits and a unit.
std::string format_duration(double ns);
// A tick label: time since the view origin with the precision the step needs ("1.250 ms").
std::string format_tick(double t_ns, double step_ns);

}  // namespace strata
