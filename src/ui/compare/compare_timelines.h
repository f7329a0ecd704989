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
#include "ui/compare/compare_model.h"
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
};

// A message of B's engine (its track list, or a reply to B's view request).
void compare_timelines_receive(CompareTimelines* c, const uint8_t* data, size_t n);
// The selector and the two timelines in (x, y, w, h); A's geometry goes into a_batch, B's into
// b_batch (each batch has one clip rectangle). `result` counts the replies the tab has read.
void compare_timelines_frame(CompareTimelines* c, const CompareModel& m, const CompareTable& shown,
                             uint64_t result, Timeline* a, const TraceData& a_data, NavKeys* keys,
                             float x, float y, float w, float h, double now_ms, RectBatch* a_batch,
                             RectBatch* b_batch);
// B's select query answered: its events become B's selection.
void compare_timelines_select_answer(CompareTimelines* c, const std::vector<uint32_t>& events,
                                     const std::vector<double>& starts,
                                     const std::vector<double>& ends);
// For strata.compareView(): {bLoaded, offsetNs, aStart, aEnd, bStart, bEnd (relative ns of
// each view), aSelected, bSelected, bSelStart, bSelEnd (B's first selected event), aOutlined,
// bOutlined (names), bTiles, eventsX, eventsW, aY, aH, bY, bH (the events areas, CSS px),
// bSettled}.
std::string compare_timelines_json(const CompareTimelines& c, const CompareModel& m,
                                   const Timeline& a);

}  // namespace strata
