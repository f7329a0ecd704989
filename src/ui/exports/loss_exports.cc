// Exports for the Loss tab (training logs scanned by the engine worker).
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

extern "C" {

// A log's points from the worker (new, or re-extracted): pairs = [iteration, loss] × n.
EMSCRIPTEN_KEEPALIVE void ui_loss_points(uint32_t id, const char* name, const char* loss_tag,
                                         const char* iteration_tag, double bytes, double mbps,
                                         const double* pairs, uint32_t n, int is_new) {
  strata::App* a = strata::ui_app();
  strata::loss_view_points(&a->loss, id, name, loss_tag, iteration_tag, bytes, mbps, pairs, n);
  if (is_new) strata::app_file_opened(a, "training-log", false);
  strata::request_redraw();
}
// What the worker read the log as (the engine's detail JSON: format, keys, note), after its points.
EMSCRIPTEN_KEEPALIVE void ui_loss_detail(uint32_t id, const char* json) {
  strata::loss_view_detail(&strata::ui_app()->loss, id, json);
  strata::request_redraw();
}
// The log's id for a name, or 0.
EMSCRIPTEN_KEEPALIVE uint32_t ui_loss_id(const char* name) {
  strata::LossFile* f = strata::loss_view_find(&strata::ui_app()->loss, name);
  return f ? f->id : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_loss_set_comparison(const char* a, const char* b, const char* mode) {
  strata::request_redraw();
  return strata::loss_view_set_comparison(&strata::ui_app()->loss, a, b, mode) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_loss_set_checked(const char* name, int checked) {
  strata::LossFile* f = strata::loss_view_find(&strata::ui_app()->loss, name);
  if (!f) return 0;
  f->checked = checked != 0;
  strata::request_redraw();
  return 1;
}
// {files:[{name, lossTag, iterationTag, checked, bytes, points}], comparison}; valid until the
// next call.
EMSCRIPTEN_KEEPALIVE const char* ui_loss_json(int with_points) {
  static std::string out;
  out = strata::loss_view_json(&strata::ui_app()->loss, with_points != 0);
  return out.c_str();
}

}  // extern "C"
