// The selection summary (several events selected): count, total, self, average, min and max
// duration by name, with a total row, as Perfetto's slice aggregation shows an area selection.
// Number columns sort largest first on their first click; clicking a row selects that name's
// events on the timeline and zooms to the longest of them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct Timeline;
struct TraceData;

struct SummaryLine {
  std::string name;
  uint64_t count = 0;
  double total = 0, self = 0, min = 0, max = 0, avg = 0;  // ns
};

// One selected event as the engine's "select" answer lists it.
struct SummaryEvent {
  uint32_t event = 0, track = 0, depth = 0;  // track: display index
  double start = 0, end = 0;                 // relative ns
  std::string name;
};

// A column of the table as last drawn (CSS px), for the script API.
struct SummaryColumn {
  const char* name;
  float x, w;
};

struct SelectionSummary {
  uint64_t count = 0;  // events selected in all (the lists may hold fewer)
  std::vector<SummaryLine> lines;
  std::vector<SummaryEvent> events;
  SummaryLine total;
  std::string picked;  // the row whose events were selected by a click, "" = none
  // The last frame's table, for the script API.
  std::vector<SummaryColumn> columns;
  std::vector<float> row_y;  // per line, in its current order; total_y for the total row
  float header_y = -1, total_y = -1;
  int sort_column = -1;
  bool sort_descending = false;
};

// Fills `s` from the flattened "select" answer (its events and summary sections).
void summary_set(SelectionSummary* s, const char* json);
void summary_draw(SelectionSummary* s, Timeline* t, const TraceData& d);
// Brings the longest of the summary's events into view (as a click on a row does).
void summary_show_longest(const SelectionSummary& s, Timeline* t, const TraceData& d);

}  // namespace strata
