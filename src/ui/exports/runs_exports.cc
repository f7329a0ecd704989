// Exports for the Runs tab (web/page/runs.js calls these).
#include <emscripten/emscripten.h>

#include <string>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

namespace {
strata::RunsView* runs() { return &strata::ui_app()->runs; }
}  // namespace

extern "C" {

// A profiler folder's relative paths, one per line: discovery runs here; returns its JSON.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_folder(const char* paths) {
  static std::string out;
  out = strata::runs_view_set_folder(runs(), paths);
  strata::app_runs_folder_opened(strata::ui_app());
  strata::request_redraw();
  return out.c_str();
}
// The selection set by the script API (strata.selectRun); the same selection again, as the
// page may send back after a selector click, is harmless.
EMSCRIPTEN_KEEPALIVE void ui_runs_select(int run, int profile, int view) {
  strata::runs_view_select(runs(), run, profile, view);
  runs()->status.clear();
  strata::request_redraw();
}
// The files the Trace or Memory view of the selection needs are open: the UI shows that tab.
EMSCRIPTEN_KEEPALIVE void ui_runs_profile_loaded() {
  strata::app_runs_profile_loaded(strata::ui_app());
  strata::request_redraw();
}
// The UI's selection: runs_view_selection_json's; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_selection_json() {
  static std::string out;
  out = strata::runs_view_selection_json(*runs());
  return out.c_str();
}
// part: "operators" | "kernels" | "distributed" | "diff"; json: engine/runs_json.h's.
EMSCRIPTEN_KEEPALIVE void ui_runs_stats(const char* part, const char* json) {
  strata::runs_view_stats(runs(), part, json);
  strata::request_redraw();
}
// The operator table's grouping as set by the script API (the UI's own combo sets it too).
EMSCRIPTEN_KEEPALIVE void ui_runs_group_by_shape(int on) {
  runs()->group_by_shape = on != 0;
  strata::request_redraw();
}
// What the Runs tab's charts showed last frame: runs_view_chart_json's; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_chart_json() {
  static std::string out;
  out = strata::runs_view_chart_json(*runs());
  return out.c_str();
}
EMSCRIPTEN_KEEPALIVE void ui_runs_status(const char* text) {
  runs()->status = text;
  strata::request_redraw();
}

}  // extern "C"
