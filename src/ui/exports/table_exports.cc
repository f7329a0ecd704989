// Exports for the tables the Runs, Memory and Loss tabs share (src/ui/widgets/table_cells.h).
#include <emscripten/emscripten.h>

#include <string>

#include "ui/widgets/table_cells.h"

extern "C" {

// The cells the last frame cut to fit their columns: table_cells_json's; valid until the next
// call.
EMSCRIPTEN_KEEPALIVE const char* ui_table_cells_json() {
  static std::string out;
  out = strata::table_cells_json();
  return out.c_str();
}

}  // extern "C"
