// Exports for the Graph tab (src/ui/graph; web/page/graph.js calls these).
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <vector>

#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

namespace {
strata::GraphView* graph() { return &strata::ui_app()->graph; }
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void ui_graph_modules(const char* json) {
  strata::graph_view_set_modules(graph(), json);
}
EMSCRIPTEN_KEEPALIVE void ui_graph_receive(const uint8_t* data, uint32_t n, uint32_t seq) {
  strata::graph_view_receive(graph(), data, n, seq);
}
EMSCRIPTEN_KEEPALIVE void ui_graph_details(uint32_t module, uint32_t instr, const char* json) {
  strata::graph_view_details(graph(), module, instr, json);
}
// Opens a module (index) at a computation (-1: entry) centred on an instruction (-1: none).
EMSCRIPTEN_KEEPALIVE void ui_graph_open(int module, int computation, int instr) {
  strata::ui_app()->tab = strata::ViewTab::kGraph;
  strata::graph_view_open(graph(), module, computation, instr);
  strata::request_redraw();
}
EMSCRIPTEN_KEEPALIVE int ui_graph_select(const char* name) {
  return strata::graph_view_select_name(graph(), name) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_graph_expand(const char* name, int expand) {
  return strata::graph_view_expand_name(graph(), name, expand != 0) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void ui_graph_hops(int hops) { strata::graph_view_set_hops(graph(), hops); }
EMSCRIPTEN_KEEPALIVE void ui_graph_timeline_stats(double count, double total_ns) {
  strata::graph_view_timeline_stats(graph(), static_cast<int64_t>(count), total_ns);
}
// FLOPs and bytes of the selected node's occurrences (the worker's graph part,
// core/graph/op_costs.h).
EMSCRIPTEN_KEEPALIVE void ui_graph_trace_costs(const char* json) {
  strata::graph_view_trace_costs(graph(), json);
}
EMSCRIPTEN_KEEPALIVE const char* ui_graph_json() {
  static std::string out;
  out = strata::graph_view_json(graph());
  return out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* ui_graph_export(int svg) {
  static std::string out;
  out = strata::graph_view_export(graph(), svg != 0);
  return out.c_str();
}
// "Show in timeline": the op's events (from strata.find) selected, its name searched.
EMSCRIPTEN_KEEPALIVE void ui_graph_show_events(const uint32_t* events, uint32_t n,
                                               const char* name) {
  strata::app_select_events(strata::ui_app(), std::vector<uint32_t>(events, events + n), name);
  strata::request_redraw();
}

}  // extern "C"
