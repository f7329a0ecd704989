// Exports for the Memory tab.
#include <emscripten/emscripten.h>

#include <string>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

extern "C" {

// New memory data for the trace shown (an Ascend memory CSV opened on top of it).
EMSCRIPTEN_KEEPALIVE void ui_memory_reload() {
  strata::memory_view_reset(&strata::ui_app()->memory);
  strata::request_redraw();
}

// What the Memory tab showed in its last frame: memory_view_json's; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_memory_view_json() {
  static std::string out;
  out = strata::memory_view_json(strata::ui_app()->memory);
  return out.c_str();
}

}  // extern "C"
