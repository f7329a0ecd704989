// Search over the whole trace (not just the visible range, unlike the seed): substring or
// regular expression over event names, the match count, a result list to jump from, Enter /
// shift+Enter to walk the results; matches stay coloured on the timeline, the rest fades, and
// every match is ticked in the ruler (search_marks.h). The result list names each match's track.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct Timeline;
struct TraceData;

struct SearchMatch {
  uint32_t event, track, depth;
  double start, end;  // relative ns
  std::string name;
};

struct SearchPanel {
  char text[256] = {0};
  bool regex = false;
  bool focus_request = false;
  bool show_results = false;
  std::string sent;       // the query text + mode last sent to the engine
  double changed_ms = 0;  // when the text last changed (queries wait for typing to pause)
  uint32_t pending_id = 0;
  int step_when_answered = 0;  // Enter pressed while the query was on its way: walk on arrival
  uint64_t count = 0;
  int current = -1;
  std::string error;
  std::vector<SearchMatch> matches;
  float results_rect[4] = {0, 0, 0, 0};  // the result list's x, y, w, h last frame (0 w: closed)
  float list_button[4] = {0, 0, 0, 0};   // the "list" button's x, y, w, h
};

// Draws the search box (and the results popup) at the cursor; sends queries via `send`.
void search_panel_draw(SearchPanel* p, Timeline* t, const TraceData& d, double now_ms,
                       uint32_t (*send)(const char* kind, const std::string& args));
// The engine's answer to the find query `id`.
void search_panel_result(SearchPanel* p, Timeline* t, const TraceData& d, uint32_t id,
                         const char* json);
// "process / thread" of a display track, as the result list's Track column shows it.
std::string search_track_label(const TraceData& d, uint32_t track);
// Next (+1) or previous (-1) result: selects it and brings it into view.
void search_panel_step(SearchPanel* p, Timeline* t, const TraceData& d, int dir);

}  // namespace strata
