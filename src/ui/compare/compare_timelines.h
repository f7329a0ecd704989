// The Compare tab's aligned timelines: A's (the main timeline, the trace loaded now) above B's
// (a second Timeline over B's TraceData, fed by B's engine in the worker through the compare
// messages), on one time axis: B is drawn shifted by the alignment's offset, so the chosen step,
// event or start of each sits at the same x, and B's ruler counts in A's time. A pan, zoom or
// key of either moves both. Above them the alignment selector (starts, a step by number or by
// order, an event's name). Names on one side only (the shown key's added / removed rows) are
// outlined in the theme's difference colour; a diff row's events are selected in both.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/gl/rect_renderer.h"
#include "ui/compare/compare_match_model.h"
#include "ui/compare/compare_model.h"
#include "ui/details/details_pane.h"
#include "ui/input/keymap.h"
#include "ui/timeline/timeline.h"
#include "ui/trace_data.h"

namespace strata {

struct CompareTimelines {
  TraceData b_data;
  Timeline b;
  // The selector: a mode (index into the modes start, step, order, event), its step and event.
  int mode = 0;
  int step = -1;
  char event[256] = "";
  uint64_t seen_result = 0;  // the reply the selector last took its values from
  // Outlined names by string id, recomputed when the names known, the table or the reply change.
  std::vector<uint8_t> a_outline;
  size_t a_outline_names = 0, b_outline_names = 0;
  std::string outline_key;
  uint64_t outline_result = 0;
  uint32_t b_select_query = 0;  // B's select query awaited (a diff row's events in B)
  // The linked selection: a click, ctrl-click or drag in one timeline selects the counterparts
  // in the other (the engine's match, compare_match_model.h). The match query awaited, the
  // select queries whose answer is then matched (a drag's, B's several events'), the answer.
  uint32_t match_query = 0;
  uint32_t a_link_select = 0, b_link_select = 0;
  CompareMatch match;
  DetailsPane b_details;         // B's selected event (B's engine's details), beside A's
  DetailsLayout details_layout;  // the two panes' collapse
  DetailsLayout b_details_layout;
};

// A message of B's engine (its track list, or a reply to B's view request).
void compare_timelines_receive(CompareTimelines* c, const uint8_t* data, size_t n);
// The selector and the two timelines in (x, y, w, h); A's geometry goes into a_batch, B's into
// b_batch (each batch has one clip rectangle). `result` counts the replies the tab has read.
void compare_timelines_frame(CompareTimelines* c, const CompareModel& m, const CompareTable& shown,
                             uint64_t result, Timeline* a, const TraceData& a_data, NavKeys* keys,
                             float x, float y, float w, float h, double now_ms, RectBatch* a_batch,
                             RectBatch* b_batch);
// B's select query answered (`json`, the select reply): its events become B's selection and
// B's details show them (one event: asks B's engine for its details).
void compare_timelines_select_answer(CompareTimelines* c, const char* json);
// The match answered: the counterparts become the other side's selection. B's are set here
// (and B's details asked); true when they are A's, for the App to set (`m`: the answer read).
bool compare_timelines_match_answer(CompareTimelines* c, const char* json);
// Scrolls `t` to the row of the match's first counterpart (a counterpart is shown where it is).
void compare_timelines_reveal_match(const CompareMatch& m, Timeline* t, const TraceData& d);
// One side's selection changed by the user: the other side's follows. B's: its details.
void compare_timelines_b_selection_changed(CompareTimelines* c);
// B's details arrived (ui_compare_details).
void compare_timelines_b_details(CompareTimelines* c, int64_t event, const char* json);
// For strata.compareView(): {bLoaded, offsetNs, aStart, aEnd, bStart, bEnd (relative ns of
// each view), aSelected, bSelected, bSelStart, bSelEnd, bSelEvent (B's first selected event),
// bSelShown (drawn in B's events area), aOutlined, bOutlined (names), bTiles, eventsX, eventsW, aY,
// aH, bY, bH (the events areas, CSS px), bSettled}. match: {from, kind, ordinal, occurrences,
// nearest, none, text} (the last linked selection), aName, bName, aDurNs, bDurNs, deltaNs (the two
// details panes' events; "" / 0 when none).
std::string compare_timelines_json(const CompareTimelines& c, const CompareModel& m,
                                   const Timeline& a, const DetailsPane& a_details);

}  // namespace strata
