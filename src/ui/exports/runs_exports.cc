// Exports for the Runs tab (web/page/runs.js calls these). The tab's model decides what each
// thing asked of it needs (ui/runs/runs_fetch.h); the page performs the steps it hands out.
#include <emscripten/emscripten.h>

#include <string>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

namespace {
strata::RunsView* runs() { return &strata::ui_app()->runs; }
}  // namespace

extern "C" {

// A profiler folder's relative paths, one per line (in the page's input order): discovery runs
// here, the Runs tab comes forward, and the first profile is fetched (steps: ui_runs_next).
// 0 when the paths hold no runs: the Runs tab, its folder and the tab shown stay as they were
// (the page opens the files as files instead), and the steps answer {"runs": []}.
EMSCRIPTEN_KEEPALIVE int ui_runs_folder(const char* paths) {
  if (!strata::runs_view_folder_may_hold_runs(paths)) {
    strata::runs_fetch_no_runs(runs());
    return 0;
  }
  strata::runs_view_set_folder(runs(), paths);
  strata::app_runs_folder_opened(strata::ui_app());
  strata::runs_fetch_folder(runs());
  strata::request_redraw();
  return 1;
}
// Begin fetching what the selection shows (after a selector click or a grouping change).
EMSCRIPTEN_KEEPALIVE void ui_runs_show() { strata::runs_fetch_show(runs()); }
// strata.selectRun(query): query as JSON; selects and fetches what it shows.
EMSCRIPTEN_KEEPALIVE void ui_runs_select_query(const char* query) {
  strata::runs_fetch_select(runs(), query);
  strata::request_redraw();
}
// strata.stats(): begin fetching the selected profile's tables.
EMSCRIPTEN_KEEPALIVE void ui_runs_stats() { strata::runs_fetch_stats(runs()); }
// strata.runsDiff(query): query as JSON ({a, b, step}, each optional).
EMSCRIPTEN_KEEPALIVE void ui_runs_diff_query(const char* query) {
  strata::runs_fetch_diff(runs(), query);
}
// The Diff view's pair and step (host_runs_diff).
EMSCRIPTEN_KEEPALIVE void ui_runs_diff_pair(int a_run, int a_profile, int b_run, int b_profile,
                                            const char* step) {
  strata::runs_fetch_diff_pair(runs(), {a_run, a_profile}, {b_run, b_profile}, step);
}
// The next step (protocol::keys::runs_step); reply: the answer to the step before (a request's
// reply JSON, "" otherwise). Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_next(const char* reply) {
  static std::string out;
  strata::RunsNextStep next = strata::runs_fetch_next(runs(), reply);
  if (next.show_profile_tab) strata::app_runs_profile_loaded(strata::ui_app());
  out = std::move(next.json);
  strata::request_redraw();
  return out.c_str();
}
// The step before failed: the goal ends; returns its answer. Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_failed(const char* error) {
  static std::string out;
  out = strata::runs_fetch_failed(runs(), error);
  strata::request_redraw();
  return out.c_str();
}
// The UI's selection: runs_view_selection_json's; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_selection_json() {
  static std::string out;
  out = strata::runs_view_selection_json(*runs());
  return out.c_str();
}
// What the Runs tab's charts showed last frame: runs_view_chart_json's; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_chart_json() {
  static std::string out;
  out = strata::runs_view_chart_json(*runs());
  return out.c_str();
}

}  // extern "C"
