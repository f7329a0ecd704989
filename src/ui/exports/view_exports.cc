// Exports for the script API's view: the visible range, tabs, whether drawing has settled,
// frame and tile statistics, and where an event is on screen.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"
#include "ui/timeline/time_labels.h"
#include "ui/timeline/timeline_state.h"

namespace {
// Screen position (CSS px in the canvas) of the last located event; x < 0 when not visible.
float g_locate_x = -1, g_locate_y = -1;
// The last JSON answer handed to JS (valid until the next call).
std::string g_json;
const char* keep(std::string s) {
  g_json = std::move(s);
  return g_json.c_str();
}
}  // namespace

extern "C" {

// View as absolute ns (doubles: exact to ~256 ns at epoch-scale timestamps). Summed exactly
// (wasm's long double is a 128-bit float), then rounded once: the double nearest the view, the
// same Number as one parsed from the exact decimal text of ui_view_start_text.
EMSCRIPTEN_KEEPALIVE double ui_view_start_ns() {
  const strata::App* a = strata::ui_app();
  return static_cast<double>(static_cast<long double>(a->data.origin_ns) + a->timeline.view.start);
}
EMSCRIPTEN_KEEPALIVE double ui_view_end_ns() {
  const strata::App* a = strata::ui_app();
  return static_cast<double>(static_cast<long double>(a->data.origin_ns) + a->timeline.view.end);
}
EMSCRIPTEN_KEEPALIVE void ui_set_view_ns(double start_ns, double end_ns) {
  strata::App* a = strata::ui_app();
  double origin = static_cast<double>(a->data.origin_ns);
  strata::timeline_set_view(&a->timeline, start_ns - origin, end_ns - origin);
  strata::request_redraw();
}
// Exact at any zoom: the view relative to the trace start (relative ns are doubles far below
// 2^53), the origin as decimal text, and a view set from decimal absolute ns.
EMSCRIPTEN_KEEPALIVE double ui_view_start_rel() { return strata::ui_app()->timeline.view.start; }
EMSCRIPTEN_KEEPALIVE double ui_view_end_rel() { return strata::ui_app()->timeline.view.end; }
EMSCRIPTEN_KEEPALIVE const char* ui_origin_ns_text() {
  return keep(strata::origin_ns_text(strata::ui_app()->data.origin_ns));
}
EMSCRIPTEN_KEEPALIVE void ui_set_view_rel(double start_rel, double end_rel) {
  strata::timeline_set_view(&strata::ui_app()->timeline, start_rel, end_rel);
  strata::request_redraw();
}
// The view as exact absolute ns, decimal text ("1695835542513910123.25"): what deep links carry
// (ui_set_view_text reads it back to the same view, bit for bit).
EMSCRIPTEN_KEEPALIVE const char* ui_view_start_text() {
  const strata::App* a = strata::ui_app();
  return keep(strata::absolute_ns_text(a->data.origin_ns, a->timeline.view.start));
}
EMSCRIPTEN_KEEPALIVE const char* ui_view_end_text() {
  const strata::App* a = strata::ui_app();
  return keep(strata::absolute_ns_text(a->data.origin_ns, a->timeline.view.end));
}
// Returns 0 when either is not a decimal number of ns.
EMSCRIPTEN_KEEPALIVE int ui_set_view_text(const char* start_ns, const char* end_ns) {
  strata::App* a = strata::ui_app();
  double s, e;
  if (!strata::parse_absolute_ns(start_ns, a->data.origin_ns, &s) ||
      !strata::parse_absolute_ns(end_ns, a->data.origin_ns, &e))
    return 0;
  strata::timeline_set_view(&a->timeline, s, e);
  strata::request_redraw();
  return 1;
}

// The timeline's name column, tooltip, ruler and folded runs as drawn (timeline_state.h).
EMSCRIPTEN_KEEPALIVE const char* ui_timeline_headers_json() {
  const strata::App* a = strata::ui_app();
  return keep(strata::timeline_headers_json(a->timeline, a->data));
}
EMSCRIPTEN_KEEPALIVE const char* ui_tooltip_json() {
  return keep(strata::timeline_tooltip_json(strata::ui_app()->timeline));
}
EMSCRIPTEN_KEEPALIVE const char* ui_ruler_json() {
  return keep(strata::timeline_ruler_json(strata::ui_app()->timeline));
}
EMSCRIPTEN_KEEPALIVE const char* ui_folded_runs_json() {
  const strata::App* a = strata::ui_app();
  return keep(strata::timeline_folded_runs_json(a->timeline, a->data));
}
// Sets the name column's width (CSS px; 0: the default).
EMSCRIPTEN_KEEPALIVE void ui_set_label_width(float w) {
  strata::ui_app()->timeline.label_w_user = w;
  strata::request_redraw();
}

EMSCRIPTEN_KEEPALIVE int ui_settled() {
  const strata::App* a = strata::ui_app();
  return a->data.loaded && strata::timeline_settled(a->timeline, a->data) ? 1 : 0;
}

// Frame CPU time statistics over the last frames drawn (up to FrameStats::kRing):
// ui_frame_stats(p) writes frames, median ms, p99 ms to p[0..2]. `reset` starts a new window.
EMSCRIPTEN_KEEPALIVE void ui_frame_stats(double* out, int reset) {
  strata::FrameStats& fs = strata::ui_app()->frame_stats;
  uint64_t n = std::min<uint64_t>(fs.frames, strata::FrameStats::kRing);
  std::vector<float> v(fs.ms, fs.ms + n);
  std::sort(v.begin(), v.end());
  out[0] = static_cast<double>(fs.frames);
  out[1] = n ? v[n / 2] : 0;
  out[2] = n ? v[std::min<uint64_t>(n - 1, (n * 99) / 100)] : 0;
  if (reset) fs.frames = 0;
}

// Tile cache statistics for strata.tileStats(): writes tiles, bytes, hits, misses, requests,
// pending (in flight), evictions, the view's tile level and the byte budget to p[0..8].
EMSCRIPTEN_KEEPALIVE void ui_tile_stats(double* out) {
  const strata::Timeline& t = strata::ui_app()->timeline;
  const strata::TileCache& c = t.tiles;
  const double v[9] = {
      static_cast<double>(c.tiles.size()), static_cast<double>(c.bytes),
      static_cast<double>(c.hits),         static_cast<double>(c.misses),
      static_cast<double>(c.requests),     static_cast<double>(c.in_flight.size()),
      static_cast<double>(c.evictions),    static_cast<double>(strata::timeline_tile_level(t)),
      static_cast<double>(c.budget_bytes)};
  std::copy(v, v + 9, out);
}

EMSCRIPTEN_KEEPALIVE int ui_reveal(uint32_t event) {
  strata::request_redraw();
  strata::App* a = strata::ui_app();
  return strata::timeline_reveal(&a->timeline, a->data, event) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_locate(uint32_t event) {
  g_locate_x = g_locate_y = -1;
  const strata::App* a = strata::ui_app();
  return strata::timeline_locate(a->timeline, a->data, event, &g_locate_x, &g_locate_y) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE float ui_locate_x() { return g_locate_x; }
EMSCRIPTEN_KEEPALIVE float ui_locate_y() { return g_locate_y; }

// 'timeline' | 'memory' | 'loss' | 'runs' | 'graph'; returns 0 for an unknown tab.
EMSCRIPTEN_KEEPALIVE int ui_set_tab(const char* name) {
  if (!strata::view_tab_from_name(name, &strata::ui_app()->tab)) return 0;
  strata::request_redraw();
  return 1;
}
EMSCRIPTEN_KEEPALIVE const char* ui_tab() { return strata::view_tab_name(strata::ui_app()->tab); }

}  // extern "C"
