// Exports for the timeline's selection (the script API's select / selection / clear).
#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

extern "C" {

EMSCRIPTEN_KEEPALIVE double ui_selected_event() {
  const auto& sel = strata::ui_app()->timeline.selection;
  return sel.empty() ? -1 : static_cast<double>(sel[0].event);
}
// Selection for the script API: count, and the i-th selected event index.
EMSCRIPTEN_KEEPALIVE int ui_selection_count() {
  return static_cast<int>(strata::ui_app()->timeline.selection.size());
}
EMSCRIPTEN_KEEPALIVE double ui_selection_event(int i) {
  const auto& sel = strata::ui_app()->timeline.selection;
  return i >= 0 && i < static_cast<int>(sel.size()) ? sel[i].event : -1;
}
// Selects one event (start/end in ns relative to the trace start) and brings it into view.
EMSCRIPTEN_KEEPALIVE void ui_select_event(uint32_t event, double start_rel, double end_rel,
                                          int reveal) {
  strata::timeline_select(&strata::ui_app()->timeline, {event, start_rel, end_rel}, reveal != 0);
  strata::request_redraw();
}
EMSCRIPTEN_KEEPALIVE void ui_clear_selection() {
  strata::Timeline& t = strata::ui_app()->timeline;
  t.selection.clear();
  t.selection_changed = true;
  strata::request_redraw();
}

}  // extern "C"
