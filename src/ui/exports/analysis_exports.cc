// Exports for the Analysis tab (src/ui/analysis/).
#include <emscripten/emscripten.h>

#include <string>

#include "platform/browser/redraw.h"
#include "ui/analysis/analysis_link.h"
#include "ui/exports/ui_app.h"

extern "C" {

// What the Analysis tab showed in its last frame: analysis_view_json's; valid until the next
// call.
EMSCRIPTEN_KEEPALIVE const char* ui_analysis_view_json() {
  static std::string out;
  out = strata::analysis_view_json(strata::ui_app()->analysis);
  return out.c_str();
}

// A deep link (#tab=analysis&analysis=<name>&op=<name>): shows the Analysis tab on that analysis
// and selects the row named `op` (either may be empty).
EMSCRIPTEN_KEEPALIVE void ui_analysis_open(const char* analysis, const char* op) {
  strata::App* app = strata::ui_app();
  app->tab = strata::ViewTab::kAnalysis;
  strata::analysis_view_open(&app->analysis, analysis ? analysis : "", op ? op : "");
  strata::request_redraw();
}

// A deep link's whole hash (#tab=analysis&analysis=<name>&op=<row>&step=<N>&peakTflops=&peakGBps=,
// read in C++: analysis_link.h): shows the Analysis tab on that analysis, row, step and peaks.
EMSCRIPTEN_KEEPALIVE void ui_analysis_open_link(const char* hash) {
  if (!strata::parse_analysis_link(hash ? hash : "").analysis_tab) return;
  strata::App* app = strata::ui_app();
  app->tab = strata::ViewTab::kAnalysis;
  strata::analysis_view_open_link(&app->analysis, hash ? hash : "");
  strata::request_redraw();
}

// The hash keys that reopen what the Analysis tab shows ("tab=analysis&analysis=..."), or ""
// when another tab is shown; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_analysis_link() {
  static std::string out;
  const strata::App* app = strata::ui_app();
  out = app->tab == strata::ViewTab::kAnalysis ? strata::analysis_view_link(app->analysis) : "";
  return out.c_str();
}

}  // extern "C"
