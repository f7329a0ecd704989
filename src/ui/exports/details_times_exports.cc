// ui_details_times_json: the details pane's time rows as the last frame drew them, for
// strata.detailsTimes(). Read-only.
#include <emscripten/emscripten.h>

#include <string>

#include "core/base/json_writer.h"
#include "ui/exports/ui_app.h"

extern "C" {

// [{label, text, absNs, x, y}]: "Times from", "Start", "End", "Duration" (absNs: the absolute time
// a right-click copies, decimal ns, "" for the duration; x, y: CSS px of the text). Valid until the
// next call.
EMSCRIPTEN_KEEPALIVE const char* ui_details_times_json() {
  static std::string o;
  o = "[";
  for (const strata::ShownTimeRow& r : strata::ui_app()->details.time_rows) {
    if (o.size() > 1) o += ',';
    o += "{\"label\":";
    strata::json_append_string(&o, r.label);
    o += ",\"text\":";
    strata::json_append_string(&o, r.text);
    o += ",\"absNs\":";
    strata::json_append_string(&o, r.abs_ns);
    o += ",\"x\":";
    strata::json_append_number(&o, r.x);
    o += ",\"y\":";
    strata::json_append_number(&o, r.y);
    o += '}';
  }
  o += ']';
  return o.c_str();
}

}  // extern "C"
