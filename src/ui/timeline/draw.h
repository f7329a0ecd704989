// Drawing the timeline: backgrounds and grid, slices and folded runs (with elided labels),
// counters, the track-name column, and the overlays (selection, marks, timing, drag region).
#pragma once
#include "ui/timeline/timeline.h"

struct ImDrawList;

namespace strata {

void draw_backgrounds(const Timeline& t, const TraceData& d, RectBatch* batch);
// Draws `slices`, leaving out the part of time in [skip_start, skip_end] (relative ns; pass an
// empty interval to draw everything): the coarse overview fills in around the current reply.
void draw_slices(const Timeline& t, const TraceData& d, const std::vector<proto::SliceEntry>& slices,
                 double skip_start, double skip_end, RectBatch* batch, ImDrawList* dl);
void draw_counters(const Timeline& t, const TraceData& d, RectBatch* batch);
void draw_labels(Timeline* t, const TraceData& d, float x, ImDrawList* dl);
// Flow arrows: curves from the end of the source slice to the start of the target slice.
void draw_flows(const Timeline& t, const std::vector<proto::FlowEntry>& flows, ImDrawList* dl, uint32_t color);
// Marks (`m`), the timing interval, and a rectangle being dragged (x0 < 0: none).
void draw_overlays(const Timeline& t, ImDrawList* dl, float drag_x0, float drag_y0, float drag_x1,
                   float drag_y1, bool drag_is_range);

}  // namespace strata
