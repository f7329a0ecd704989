// The details pane: everything about the selection. One event: name, category, start, end,
// duration, self time, process/thread, args as a tree (read lazily from the file), its parent
// and children (click to go there). Several events (ctrl-click or a dragged rectangle): the
// seed's summary table, count and total / average / min / max duration by name.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"

namespace strata {

struct Timeline;

struct SummaryLine {
  std::string name;
  uint64_t count = 0;
  double total = 0, min = 0, max = 0, avg = 0;  // ns
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
  std::vector<SummaryLine> summary;
};

// Replaces the content with the engine's details JSON for `event`.
void details_set(DetailsPane* p, int64_t event, const char* json);
// Replaces the summary with the engine's "select" answer; returns the selected events it lists
// (event, start, end relative ns) so the timeline can outline them.
void details_set_summary(DetailsPane* p, const char* json, std::vector<uint32_t>* events,
                         std::vector<double>* starts, std::vector<double>* ends);
void details_draw(DetailsPane* p, Timeline* t, int64_t origin_ns, float x, float y, float w,
                  float h);

}  // namespace strata
