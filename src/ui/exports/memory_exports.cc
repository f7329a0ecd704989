// Exports for the Memory tab.
#include <emscripten/emscripten.h>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

extern "C" {

// New memory data for the trace shown (an Ascend memory CSV opened on top of it).
EMSCRIPTEN_KEEPALIVE void ui_memory_reload() {
  strata::memory_view_reset(&strata::ui_app()->memory);
  strata::request_redraw();
}

}  // extern "C"
