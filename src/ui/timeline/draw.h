// Drawing the timeline: backgrounds and grid, slices and folded runs (with elided labels),
// counters, the track-name column, and the overlays (selection, marks, timing, drag region).
#pragma once
#include "ui/timeline/timeline.h"

struct ImDrawList;

namespace strata {

void draw_backgrounds(const Timeline& t, const TraceData& d, RectBatch* batch);
// Draws the part of `slices` (one tile's) that falls in [a, b] (relative ns): folded runs are
// cut to it; an event that starts before `a` is left out when it starts at or after
// `skip_from` (an earlier tile of the same level drew it whole), else drawn from `a`; events
// are cut at `right` (where a tile of another level takes over).
void draw_slices(const Timeline& t, const TraceData& d,
                 const std::vector<proto::SliceEntry>& slices, double a, double b, double skip_from,
                 double right, RectBatch* batch, ImDrawList* dl);
// Counter buckets of one tile, cut to [a, b].
void draw_counters(const Timeline& t, const TraceData& d,
                   const std::vector<proto::BucketEntry>& buckets, double a, double b,
                   RectBatch* batch);
// Each counter track's scale ("max 1.09 GiB") over its top left corner.
void draw_counter_scales(const Timeline& t, const TraceData& d, ImDrawList* dl);
// The name column: process headers and track names, cut with "..." to the column's width;
// records what it drew in t->drawn_headers.
void draw_labels(Timeline* t, const TraceData& d, float x, ImDrawList* dl);
// Flow arrows: curves from the end of the source slice to the start of the target slice.
void draw_flows(const Timeline& t, const std::vector<proto::FlowEntry>& flows, ImDrawList* dl,
                uint32_t color);
// Marks (`m`), the timing interval, and a rectangle being dragged (x0 < 0: none).
void draw_overlays(const Timeline& t, ImDrawList* dl, float drag_x0, float drag_y0, float drag_x1,
                   float drag_y1, bool drag_is_range);

}  // namespace strata
