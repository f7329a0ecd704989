// The details pane: everything about the selection. One event: name, category, start, end,
// duration, self time, process/thread, an XLA op's expression, category and graph link, its
// parent and children (click to go there), then the raw args as a tree (read lazily from the
// file). Several events (ctrl-click or a dragged rectangle): the summary table by name
// (selection_summary.h). The pane's top edge drags to resize it; its arrow collapses it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "ui/details/selection_summary.h"

namespace strata {

struct Timeline;
struct TraceData;

// One time row as drawn: "Start", "+12.345 us", and the absolute time it copies (decimal ns,
// "" for a duration); x, y: CSS px of its text's top left.
struct ShownTimeRow {
  std::string label, text, abs_ns;
  float x = -1, y = -1;
};

struct DetailsPane {
  int64_t event = -1;           // single selected event, -1 = none
  bool waiting = false;         // details requested, not arrived
  std::string error;            // why details could not be shown
  std::vector<JsonLine> lines;  // the details JSON, flattened (see json_flat.h)
  // Multi-selection summary.
  bool multi = false;
  bool summary_waiting = false;
  uint64_t selection_count = 0;
  SelectionSummary summary;
  // What the last frame showed of an XLA op, for the script API (y: CSS px, -1 when not shown).
  float xla_y = -1, graph_link_y = -1, args_y = -1;
  // The time rows the last frame showed, for the script API.
  std::vector<ShownTimeRow> time_rows;
};

// The pane's size and state: kept across selections (DetailsPane is replaced on each).
struct DetailsLayout {
  float height = 0;  // chosen by dragging the top edge (CSS px); 0 = a share of the window
  bool collapsed = false;
  bool dragging = false;
  float drag_offset = 0;             // mouse y minus the pane's top when the drag began
  float x = 0, y = 0, w = 0, h = 0;  // the last frame's rectangle
  float title_h = 0;                 // its title bar (the drag handle)
};

// The height the pane takes out of `avail` (the space under the toolbar) of a canvas `canvas_h`
// tall, collapsed or not.
float details_pane_height(const DetailsLayout& l, float canvas_h, float avail);
// Replaces the content with the engine's details JSON for `event`.
void details_set(DetailsPane* p, int64_t event, const char* json);
// Replaces the summary with the engine's "select" answer; returns the selected events it lists
// (event, start, end relative ns) so the timeline can outline them.
void details_set_summary(DetailsPane* p, const char* json, std::vector<uint32_t>* events,
                         std::vector<double>* starts, std::vector<double>* ends);
// `title`: the window's (an ImGui name: "A###details_a" when two panes are drawn side by side).
void details_draw(DetailsPane* p, DetailsLayout* l, Timeline* t, const TraceData& d,
                  int64_t origin_ns, float x, float y, float w, float h,
                  const char* title = "Details");

}  // namespace strata
