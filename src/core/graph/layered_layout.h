// Layered (Sugiyama-style) layout of a directed graph with nested groups, for the graph viewer.
// Input and output are columns. A group (an expanded fusion or called computation) is laid out
// on its own and then placed as one box in its parent, so members stay together, boxes contain
// them and never cut through other nodes, and only what is expanded costs anything.
// Steps per level (flat_layout.h): break cycles (DFS back edges are reversed and flagged),
// longest-path layering with sources pulled down to their first use, dummy nodes on long
// edges, barycentre sweeps keeping the order with fewest crossings, and x coordinates by
// isotonic regression per layer (no overlaps by construction). All O((V + E) log V) per sweep.
// Edges into (out of) a group are routed through a port on its top (bottom) border, so they
// come in between its members rather than across them.
#pragma once
#include <cstdint>
#include <vector>

namespace strata::graph {

struct LayoutInput {
  std::vector<float> width, height;          // per node (boxes, in layout units)
  std::vector<uint32_t> edge_src, edge_dst;  // node indices
  // Optional: per node, the innermost group holding it, or -1 (empty = no groups).
  std::vector<int32_t> node_group;
  // Per group: its parent group or -1. Its size is the number of groups.
  std::vector<int32_t> group_parent;
};

struct LayoutOptions {
  float node_gap = 24;     // horizontal gap between boxes of one layer
  float layer_gap = 36;    // vertical gap between layers
  float group_pad = 12;    // inside a group box, around its members
  float group_label = 20;  // extra space at a group box's top for its title
  int order_sweeps = 4;    // barycentre down+up sweep pairs (0 = the initial DFS order)
  int coord_sweeps = 6;    // x-coordinate relaxation sweeps
  // Edges into and out of a group cross its border at a port (top for edges in, bottom for
  // edges out) and run inside it as edges of its own layout, between its members.
  bool group_ports = true;
};

struct GraphLayout {
  std::vector<float> x, y;             // node centres
  std::vector<int32_t> layer;          // a node's layer within its group (or the top level)
  std::vector<uint8_t> edge_reversed;  // 1: the edge goes upward (it closed a cycle)
  // Edge polylines, from the source's bottom to the target's top, through the dummy nodes:
  // edge e has points [edge_point_offset[e], edge_point_offset[e + 1]) of edge_xy (x, y pairs).
  std::vector<uint32_t> edge_point_offset;
  std::vector<float> edge_xy;
  std::vector<float> group_box;  // per group x0, y0, x1, y1
  float width = 0, height = 0;
  int64_t crossings = 0;  // edge crossings between adjacent layers, summed over every level
  int64_t dummies = 0;    // dummy nodes created for long edges
};

// Edges that name a node out of range are skipped (their polyline is empty), as are self loops.
GraphLayout layered_layout(const LayoutInput& in, const LayoutOptions& opt = {});

}  // namespace strata::graph
