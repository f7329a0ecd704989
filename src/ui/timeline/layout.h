// Vertical layout of the timeline (sections, tracks, rows) and the mapping from time and rows
// to screen positions, shared by drawing, hit testing and locate().
#pragma once
#include "ui/timeline/timeline.h"

namespace strata {

constexpr float kRowH = 18.0f;
constexpr float kTrackPad = 4.0f;
constexpr float kProcessHeaderH = 22.0f;
constexpr float kCounterH = 44.0f;
constexpr float kRulerH = 26.0f;

void compute_layout(Timeline* t, const TraceData& d);

struct RowGeom {
  float top;     // CSS px of the track's first row
  bool visible;  // the track intersects the events area
};
RowGeom track_geom(const Timeline& t, uint32_t track);
// Screen x of a relative time, clamped a little outside the events area.
float to_x(const Timeline& t, double rel);
double ns_per_px(const TimeView& v, float w);
// The track and row under a screen y (false when none).
bool row_at(const Timeline& t, const TraceData& d, float y, uint32_t* track, uint32_t* depth);
// The process whose header is under (x, y) in the label column, or -1.
int process_header_at(const Timeline& t, const TraceData& d, float y);

}  // namespace strata
