// The time ruler above the tracks and the grid lines behind them. Labels are times since the
// trace start, or at deep zoom offsets from a base shown once at the ruler's left
// (time_labels.h).
#pragma once
#include "core/view/time_view.h"
#include "platform/gl/rect_renderer.h"
#include "ui/timeline/timeline.h"

struct ImDrawList;

namespace strata {

// Vertical grid lines at the ruler's major ticks, behind the slices.
void draw_ruler_grid(const TimeView& v, float x0, float y0, float w, float h, RectBatch* batch);
// Tick marks and labels in the band (x0, y0, w, h); records what it drew in t->ruler.
void draw_ruler(Timeline* t, float x0, float y0, float w, float h, ImDrawList* dl);
// The label of relative time `rel` at `resolution` ns as the ruler writes it this frame: an
// offset from its base when it has one, else the time since the trace start.
std::string ruler_time_label(const Timeline& t, double rel, double resolution);

}  // namespace strata
