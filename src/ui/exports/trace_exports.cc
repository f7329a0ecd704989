// Exports for what the engine sends about the trace: protocol messages, load progress, the file
// label, errors, the selected event's details and panel query answers; and the page's settings.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"
#include "ui/theme.h"

extern "C" {

// A protocol message from the engine worker (copied into wasm memory by strata.js).
EMSCRIPTEN_KEEPALIVE void ui_receive(const uint8_t* data, uint32_t n) {
  strata::app_receive(strata::ui_app(), data, n);
  strata::request_redraw_frames(2);  // one to draw it, one for any layout it changes
}

EMSCRIPTEN_KEEPALIVE void ui_set_progress(const char* name, double loaded, double total,
                                          double mbps, double records, int active) {
  strata::LoadProgress& p = strata::ui_app()->progress;
  p.active = active != 0;
  p.name = name;
  p.loaded = loaded;
  p.total = total;
  p.mb_per_s = mbps;
  p.records = records;
  strata::request_redraw_frames(1);
}

// The engine's news, not input: during a load (a big file's preview) these frames wait their
// turn like the progress bar's instead of drawing four at once.
EMSCRIPTEN_KEEPALIVE void ui_set_file_label(const char* text) {
  strata::ui_app()->file_label = text;
  strata::request_redraw_frames(1);
}
// embed=1 (web/embed.js): the host page opens files, so the UI hides its own file chrome.
EMSCRIPTEN_KEEPALIVE void ui_set_embedded(int on) {
  strata::ui_app()->embedded = on != 0;
  strata::request_redraw();
}
// Light (1) or dark (0) palette; web/theme.js decides which.
EMSCRIPTEN_KEEPALIVE void ui_set_theme(int light) {
  strata::set_theme(light != 0);
  strata::request_redraw();
}
EMSCRIPTEN_KEEPALIVE void ui_show_error(const char* text) {
  strata::ui_app()->error_banner = text;
  strata::request_redraw();
}

EMSCRIPTEN_KEEPALIVE void ui_set_details(double event, const char* json) {
  strata::app_details(strata::ui_app(), static_cast<int64_t>(event), json);
  strata::request_redraw();
}

// The details of an event the cursor is over (asked for by host_request_hover_details).
EMSCRIPTEN_KEEPALIVE void ui_set_hover_details(double event, const char* json) {
  strata::timeline_hover_details(&strata::ui_app()->timeline, static_cast<uint32_t>(event), json);
  strata::request_redraw();
}

EMSCRIPTEN_KEEPALIVE void ui_query_result(uint32_t id, const char* json) {
  strata::app_query_result(strata::ui_app(), id, json);
  strata::request_redraw();
}

// A file finished opening (the engine's summary names its kind: "chrome-json", "xplane",
// "hlo-text", "hlo-proto", "ascend-csv", "training-log"); memory_added: it was memory data added
// to the trace shown. The UI decides which tab shows it.
EMSCRIPTEN_KEEPALIVE void ui_file_opened(const char* kind, int memory_added) {
  strata::app_file_opened(strata::ui_app(), kind ? kind : "", memory_added != 0);
  strata::request_redraw();
}

}  // extern "C"
