// Exports for what only the page knows: how much of the top bar its own buttons cover, and
// whether this is the browser's first visit (web/page/strata.js measures and remembers; the UI
// decides what to draw).
#include <emscripten/emscripten.h>

#include <algorithm>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

extern "C" {

// CSS px at the top bar's right end under the page's buttons (theme, Recent, Copy link).
EMSCRIPTEN_KEEPALIVE void ui_set_top_bar_reserved(double px) {
  strata::ui_app()->top_bar_reserved = static_cast<float>(std::max(0.0, px));
  strata::request_redraw();
}
// First visit (1): the UI shows its note on dropping files until the user dismisses it.
EMSCRIPTEN_KEEPALIVE void ui_set_welcome(int on) {
  strata::ui_app()->welcome = on != 0;
  strata::request_redraw();
}

}  // extern "C"
