// Exports for the Compare tab (src/ui/compare/): the page hands it the engine's compare replies
// and reads back what it shows.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>

#include "platform/browser/host.h"
#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

extern "C" {

// A compare reply (strata.compare, "Compare with...", a drop on the tab, compareResult) and the
// error of the last B ("" when it loaded).
EMSCRIPTEN_KEEPALIVE void ui_compare_set_result(const char* json, const char* error) {
  strata::compare_view_set_result(&strata::ui_app()->compare, json, error);
  strata::request_redraw();
}

// What the Compare tab shows: compare_view_json's; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_compare_view_json() {
  static std::string out;
  out = strata::compare_view_json(strata::ui_app()->compare, strata::ui_app()->timeline,
                                  strata::ui_app()->details);
  return out.c_str();
}

// A message of B's engine for the Compare tab's B timeline (its track list or a view reply).
EMSCRIPTEN_KEEPALIVE void ui_compare_receive(const uint8_t* data, uint32_t n) {
  strata::compare_timelines_receive(&strata::ui_app()->compare.timelines, data, n);
  strata::request_redraw();
}

// B's event details (asked by host_compare_details), for the tab's B pane.
EMSCRIPTEN_KEEPALIVE void ui_compare_details(double event, const char* json) {
  strata::compare_timelines_b_details(&strata::ui_app()->compare.timelines,
                                      static_cast<int64_t>(event), json);
  strata::request_redraw();
}

// Selects B's event as a click on it in B's timeline does (start, end: ns from B's start): A's
// selection follows (the linked selection).
EMSCRIPTEN_KEEPALIVE void ui_compare_select_b(double event, double start, double end) {
  strata::CompareTimelines& c = strata::ui_app()->compare.timelines;
  c.b.selection.clear();
  if (event >= 0) c.b.selection.push_back({static_cast<uint32_t>(event), start, end});
  c.b.selection_changed = true;
  strata::request_redraw();
}

// Selects a row as a click does (key: "operator" | "kernel" | "xla_op" | "category"): its
// events become A's timeline selection. 0 when the key's table has no row of that name.
EMSCRIPTEN_KEEPALIVE int ui_compare_select(const char* key, const char* name) {
  strata::ui_app()->tab = strata::ViewTab::kCompare;  // the tab takes the selection to A
  strata::CompareView& v = strata::ui_app()->compare;
  const bool ok = strata::compare_view_select(&v, key ? key : "", name ? name : "");
  strata::request_redraw();
  return ok ? 1 : 0;
}

// The CSV the tab's button exports for `key` (a key, or "steps"), also downloaded.
EMSCRIPTEN_KEEPALIVE const char* ui_compare_csv(const char* key, int download) {
  static std::string out;
  strata::CompareView& v = strata::ui_app()->compare;
  out = strata::compare_view_csv(&v, key ? key : "");
  v.last_csv = out;
  if (download)
    strata::host_download(("compare-" + std::string(key) + ".csv").c_str(), out.c_str());
  return out.c_str();
}

}  // extern "C"
