// The time ruler above the tracks and the grid lines behind them.
#pragma once
#include "core/view/time_view.h"
#include "platform/gl/rect_renderer.h"

struct ImDrawList;

namespace strata {

// Vertical grid lines at the ruler's major ticks, behind the slices.
void draw_ruler_grid(const TimeView& v, float x0, float y0, float w, float h, RectBatch* batch);
// Tick marks and labels (time since the trace start) in the band (x0, y0, w, h).
void draw_ruler(const TimeView& v, float x0, float y0, float w, float h, ImDrawList* dl);

}  // namespace strata
