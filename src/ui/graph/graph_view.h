// The Graph tab: one HLO computation laid out by the engine worker (graph_message.h), its boxes
// and edges drawn on the GPU from buffers built once per layout (graph_scene.h) and its text
// with ImGui (left out when zoomed out), pan/zoom,
// selection with a details pane, fusions expanded as group boxes, search, N-hop focus, Fit,
// SVG/DOT export. The UI keeps the request (module, computation, expanded set, focus, hops);
// the worker owns the modules and answers with the laid-out graph.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "core/graph/graph_message.h"
#include "core/graph/op_costs.h"
#include "ui/graph/graph_scene.h"
#include "ui/timeline/timeline.h"

namespace strata {

struct GraphModuleInfo {
  std::string name, source;
  int64_t program_id = -1;
  bool from_trace = false;
  uint32_t instructions = 0, entry = 0;
  std::vector<std::string> comp_name;
  std::vector<uint32_t> comp_count;
  std::vector<uint8_t> comp_fusion;
  // Computations too big to read whole open on their largest op with a small radius
  // (core/graph/overview.h); -1: shown whole.
  std::vector<int32_t> comp_start;
  std::vector<uint32_t> comp_start_hops;
  std::string note;  // where a file cut short stopped, no ENTRY...: "" when whole
};

struct GraphView {
  std::vector<GraphModuleInfo> modules;
  // The request.
  int module = -1;
  uint32_t computation = 0;
  std::set<uint32_t> expanded;  // instructions shown opened
  int32_t focus = -1;           // instruction; -1: the whole computation
  int hops = 3;
  bool use_hops = false;
  bool overview = false;  // opened on a big computation's overview (the focus is its largest op)
  uint32_t sent_seq = 0, got_seq = 0;  // requests sent / answered
  bool dirty = false;                  // the request changed: send it
  // The answer.
  std::vector<uint8_t> bytes;
  graph::GraphData data;
  bool have = false;
  uint64_t data_version = 0;  // bumped by each answer: the GPU scene is rebuilt from it
  // Boxes and edges on the GPU (ui/graph/graph_scene.h), drawn by src/ui/main.cc under ImGui.
  GraphScene scene;
  WorldLayer gpu;
  std::vector<graph::IndexRange> scratch_ranges;  // per-frame queries, kept to reuse memory
  // View: world point at the canvas centre, pixels per world unit.
  float cx = 0, cy = 0, zoom = 1;
  bool fit_pending = false, center_pending = false;
  float canvas_x = 0, canvas_y = 0, canvas_w = 0, canvas_h = 0;
  // What the last frame drew, for the script API: box text size and advance (CSS px; 0: no
  // text), the node under the mouse and its tooltip, the "Whole graph" button (x, y, w, h).
  int label_px = 0;
  float label_advance = 0;
  int32_t hover_node = -1;
  std::string hover_text;
  float whole_button[4] = {0, 0, 0, 0};
  // Selection: an instruction (kept across layouts), its node in the current data.
  int32_t selected_instr = -1;
  std::string details_json;
  std::vector<JsonLine> details;
  int64_t timeline_count = -1;  // occurrences in the trace (find), -1 unknown
  double timeline_total_ns = 0;
  // FLOPs and bytes from those occurrences' records (the worker's answer), for the selection.
  bool have_costs = false;
  graph::OpCosts costs;
  std::string costs_json;
  // Search.
  char search[128] = {0};
  std::string search_sent;
  std::vector<int32_t> search_hits;  // nodes
  int search_at = -1;
  std::string status;
};

// Script-facing and worker-facing entry points (src/ui/main.cc forwards to these).
void graph_view_set_modules(GraphView* v, const char* json);
void graph_view_receive(GraphView* v, const uint8_t* data, size_t n, uint32_t seq);
void graph_view_details(GraphView* v, uint32_t module, uint32_t instr, const char* json);
// Opens `module` at the computation of `instr` (-1: the entry), selects and centres it.
void graph_view_open(GraphView* v, int module, int32_t computation, int32_t instr);
bool graph_view_select_name(GraphView* v, const char* name);
bool graph_view_expand_name(GraphView* v, const char* name, bool expand);
void graph_view_set_hops(GraphView* v, int hops);
// The whole computation, fitted, the selection kept (from an overview or a neighbourhood).
void graph_view_show_whole(GraphView* v);
void graph_view_timeline_stats(GraphView* v, int64_t count, double total_ns);
// The worker's op_costs_json for the selected node (ignored when another node is selected).
void graph_view_trace_costs(GraphView* v, const char* json);
std::string graph_view_json(const GraphView* v);
std::string graph_view_export(const GraphView* v, bool svg);

// Draws the tab in the rectangle; sends requests through the host (ui/graph/graph_host.h).
// keys: W/S held (zoom), as the timeline reads them.
void graph_view_frame(GraphView* v, NavKeys* keys, float x, float y, float w, float h,
                      double now_ms);
// Internal, shared by graph_view.cc and graph_draw.cc.
void graph_view_send(GraphView* v);
void graph_view_select_node(GraphView* v, int32_t node);
int32_t graph_view_node_of(const GraphView* v, int32_t instr);
void graph_view_fit(GraphView* v);
void graph_view_centre_on(GraphView* v, int32_t node);

}  // namespace strata
