// ui_search_box_text: what the search box holds, for strata.searchBox(). Read-only.
#include <emscripten/emscripten.h>

#include "ui/exports/ui_app.h"

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* ui_search_box_text() { return strata::ui_app()->search.text; }

}  // extern "C"
