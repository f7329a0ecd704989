// The graph view's data: one HLO computation's visible graph, laid out, as the engine worker
// sends it to the UI (a binary message in a transferable buffer, read back bounds-checked by
// read_graph_message). Node text (name, opcode, shape, layout + memory space, and the source
// line for the hover) travels with it so the UI draws without asking again; details of one node
// are a separate JSON query.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/hlo/hlo_module.h"
#include "core/graph/hlo_graph.h"
#include "core/graph/layered_layout.h"

namespace strata::graph {

// A node's four text lines as the box shows them.
struct NodeText {
  std::string_view name, opcode, shape;
  std::string layout;  // layout text plus the memory space label ("{1,0} VMEM (TPU)")
};
NodeText node_text(const hlo::HloModule& m, uint32_t instr);

// The source line that produced an instruction, as its hover shows it: "file:line (function)"
// from its metadata or innermost stack frame; "file:line", "file" or "" with less to go on.
std::string node_source(const hlo::HloModule& m, uint32_t instr);

// Box sizes for the layout, from the text lines (monospace-ish metrics of the UI font).
LayoutInput hlo_layout_input(const hlo::HloModule& m, const hlo::VisibleGraph& vis);

// The message, decoded. Strings are views into the message's bytes.
struct GraphData {
  uint32_t module = 0, computation = 0;
  float width = 0, height = 0;
  double layout_ms = 0;
  int64_t crossings = 0;
  uint32_t focus_node = UINT32_MAX;
  std::vector<float> x, y, w, h;                              // node centres and sizes
  std::vector<uint32_t> instr;                                // per node
  std::vector<int32_t> group;                                 // per node
  std::vector<std::string_view> name, opcode, shape, layout;  // per node
  std::vector<std::string_view> source;                       // per node, node_source
  std::vector<uint32_t> edge_src, edge_dst;                   // node indices
  std::vector<uint8_t> edge_reversed;
  std::vector<uint32_t> edge_point_offset;  // edges + 1
  std::vector<float> edge_xy;
  std::vector<float> group_box;  // 4 per group
  std::vector<uint32_t> group_instr;
  std::vector<int32_t> group_parent;
  std::vector<std::string_view> group_label;
};

std::vector<uint8_t> write_graph_message(const hlo::HloModule& m, uint32_t module_index,
                                         uint32_t computation, const hlo::VisibleGraph& vis,
                                         const LayoutInput& in, const GraphLayout& out,
                                         double layout_ms);
// False when the bytes are not a whole, consistent message (nothing is read out of range).
bool read_graph_message(const uint8_t* data, size_t size, GraphData* out);

// JSON of one instruction for the details pane and strata.graph(): name, opcode, shape, layout,
// memorySpace, fusionKind, operands [{name, shape}], users [names], called [computation names],
// opName, opType, source "file:line", customCallTarget, attrs, computation.
std::string instruction_details_json(const hlo::HloModule& m, uint32_t instr);

}  // namespace strata::graph
