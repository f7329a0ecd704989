// C exports of the graph viewer for web/worker/graph.js: each forwards to the GraphSession
// (engine/graph_session.h), which holds the modules and the passes. Results that outlive the
// call (JSON, the layout message) stay here until the next call that returns one.
#include <emscripten/emscripten.h>

#include <string>

#include "core/formats/xplane/program_id.h"
#include "engine/engine.h"
#include "engine/graph_session.h"
#include "engine/wasm/exports_common.h"

namespace {
strata::GraphSession& graph() { return strata::wasm::engine().graph_session(); }
using strata::wasm::keep;
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uint8_t* graph_buffer(uint32_t n) { return graph().buffer(n); }

// Parses the buffer (kind 1 text, 2 HloProto) as modules of file `name`; from_trace marks an
// xplane's modules (replaced by the next trace's). Returns modules added, or -1 (graph_error).
// program_id: decimal text (exact 64-bit; a JS Number would round ids above 2^53).
EMSCRIPTEN_KEEPALIVE int graph_add(int kind, const char* name, int from_trace,
                                   const char* program_id) {
  int64_t id = 0;
  strata::parse_program_id(program_id ? program_id : "", &id);
  return graph().add(kind, name, from_trace != 0, id);
}
EMSCRIPTEN_KEEPALIVE const char* graph_error() { return graph().error().c_str(); }

// An HLO file fed in chunks like any file (gzip / zstd inflated): graph_import_begin, then
// each chunk through graph_buffer + graph_import_commit, then graph_import_end (as graph_add).
EMSCRIPTEN_KEEPALIVE void graph_import_begin(int kind, const char* name) {
  graph().import_begin(kind, name, 0);
}
EMSCRIPTEN_KEEPALIVE void graph_import_commit(uint32_t n) { graph().import_commit(n); }
EMSCRIPTEN_KEEPALIVE int graph_import_end() { return graph().import_end(); }

// Drops the modules of the previous trace (a new trace was loaded).
EMSCRIPTEN_KEEPALIVE void graph_drop_trace_modules() { graph().drop_trace_modules(); }

// A compressed xplane's HloProtos: graph_hlo_stream_begin(file) → modules it holds; the file
// from its start through graph_buffer + graph_hlo_stream_commit until that returns 1; then
// graph_hlo_stream_end → {"added": n, "errors": [...]}.
EMSCRIPTEN_KEEPALIVE uint32_t graph_hlo_stream_begin(uint32_t file) {
  return graph().hlo_stream_begin(file);
}
EMSCRIPTEN_KEEPALIVE int graph_hlo_stream_commit(uint32_t n) {
  return graph().hlo_stream_commit(n) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE const char* graph_hlo_stream_end(int keep_modules) {
  return keep(graph().hlo_stream_end(keep_modules != 0));
}

EMSCRIPTEN_KEEPALIVE const char* graph_modules_json() { return keep(graph().modules_json()); }

// Returns the message size (graph_message), 0 when bad.
EMSCRIPTEN_KEEPALIVE uint32_t graph_layout(uint32_t module, uint32_t computation,
                                           const uint32_t* expanded, uint32_t n_expanded,
                                           int32_t focus, uint32_t hops) {
  return static_cast<uint32_t>(
      graph().layout(module, computation, expanded, n_expanded, focus, hops).size());
}
EMSCRIPTEN_KEEPALIVE const uint8_t* graph_message() { return graph().layout_message().data(); }

EMSCRIPTEN_KEEPALIVE const char* graph_details(uint32_t module, uint32_t instr) {
  return keep(graph().details_json(module, instr));
}
EMSCRIPTEN_KEEPALIVE int32_t graph_find_instr(uint32_t module, const char* name) {
  return graph().find_instr(module, name);
}
EMSCRIPTEN_KEEPALIVE uint32_t graph_instr_computation(uint32_t module, uint32_t instr) {
  return graph().instr_computation(module, instr);
}
EMSCRIPTEN_KEEPALIVE const char* graph_search(uint32_t module, const char* text, uint32_t limit) {
  return keep(graph().search_json(module, text, limit));
}

EMSCRIPTEN_KEEPALIVE double graph_bench_generated(uint32_t n) {
  return strata::GraphSession::bench_generated(n);
}
EMSCRIPTEN_KEEPALIVE const char* graph_bench_module(uint32_t module, int expand_all) {
  return keep(graph().bench_module_json(module, expand_all != 0));
}

// The selected op's FLOPs and bytes (GraphSession::costs_*).
EMSCRIPTEN_KEEPALIVE void graph_costs_begin(const char* name, double occurrences) {
  graph().costs_begin(name, static_cast<int64_t>(occurrences));
}
EMSCRIPTEN_KEEPALIVE void graph_costs_add(uint32_t event, uint32_t n) {
  graph().costs_add(event, n);
}
EMSCRIPTEN_KEEPALIVE void graph_costs_add_cached(uint32_t event) {
  graph().costs_add_cached(event);
}
EMSCRIPTEN_KEEPALIVE void graph_costs_scan_begin(const uint32_t* events, uint32_t n) {
  graph().costs_scan_begin(events, n);
}
EMSCRIPTEN_KEEPALIVE void graph_costs_scan_file(uint32_t i) { graph().costs_scan_file(i); }
EMSCRIPTEN_KEEPALIVE int graph_costs_scan_commit(uint32_t n) {
  return graph().costs_scan_commit(n) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void graph_costs_scan_end() { graph().costs_scan_end(); }
EMSCRIPTEN_KEEPALIVE const char* graph_costs_json() { return keep(graph().costs_json()); }

}  // extern "C"
