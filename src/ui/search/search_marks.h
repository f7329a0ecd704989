// The search's marks on the timeline: every match as a tick in the ruler (so matches too small
// to see at full zoom can still be found), and the colour non-matching slices fade to. The
// timeline calls these; the search panel fills SearchMarks from the engine's find reply.
#pragma once
#include <cstdint>
#include <vector>

#include "core/view/time_view.h"

struct ImDrawList;

namespace strata {

struct SearchMarks {
  // Matches per equal slice of [bins_start, bins_end] (relative ns), every match of the trace.
  double bins_start = 0, bins_end = 0;
  std::vector<uint32_t> bins;
  // Start times (relative ns) of the listed matches; `listed_all` when that is every match.
  std::vector<double> starts;
  bool listed_all = false;
  // The last frame's marks, [x0, x1) CSS px each, for the script API.
  std::vector<std::pair<float, float>> drawn;
  float ruler_x = 0, ruler_y = 0, ruler_w = 0, ruler_h = 0;
};

// Forgets the marks (the search ended or a new one is on its way).
void search_marks_clear(SearchMarks* m);
// Draws the marks (if a search has any) into the ruler strip (x0, y0, w, h) of view `v`.
void draw_search_marks(SearchMarks* m, const TimeView& v, float x0, float y0, float w, float h,
                       ImDrawList* dl);
// A slice that does not match, faded toward the canvas background: lighter in the light theme,
// darker in the dark one, never a dark slab on a light canvas.
uint32_t search_dim_color(uint32_t rgba);

}  // namespace strata
