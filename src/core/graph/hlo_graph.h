// Queries over an HloModule for the graph view: search, N-hop neighbourhoods and the visible
// graph (what the layout helper lays out and the Graph tab draws). Plain structs out; no UI.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/formats/hlo/hlo_module.h"

namespace strata::hlo {

// Instructions whose name or opcode contains `text` (ASCII case-insensitive), ascending, at
// most `limit`. Empty text finds nothing.
std::vector<uint32_t> find_instructions(const HloModule& m, std::string_view text,
                                        size_t limit = SIZE_MAX);

// `instr` and every instruction within `hops` steps along operand and user edges (both ways),
// ascending. Edges stay inside the instruction's computation.
std::vector<uint32_t> neighbourhood(const HloModule& m, uint32_t instr, uint32_t hops);

// What the graph shows of one computation.
struct VisibleGraphRequest {
  uint32_t computation = kNone;    // kNone: the entry computation
  std::vector<uint32_t> expanded;  // instructions (fusion, call, while, ...) shown opened
  uint32_t focus = kNone;          // when set: keep only nodes within `hops` of it
  uint32_t hops = 0;               //   (in the visible graph, ignoring edge direction);
                                   //   no filter when the focus is not visible
};

// Nodes are instructions; an expanded instruction is not a node but a group holding the
// instructions of its called computations (nested when one of those is expanded too). Edges run
// operand → user between visible nodes; an edge into an expanded instruction goes to the
// matching parameter of its called computation(s), an edge out of it leaves from the root.
struct VisibleGraph {
  std::vector<uint32_t> node_instr;          // instruction index of node k
  std::vector<int32_t> node_group;           // innermost group holding node k, -1 when top level
  std::vector<uint32_t> edge_src, edge_dst;  // node indices, operand → user, unique pairs
  std::vector<uint32_t> edge_operand;        // the operand position at the destination
  std::vector<uint32_t> group_instr;         // the expanded instruction of group g
  std::vector<int32_t> group_parent;         // enclosing group of g, -1 when top level
  uint32_t focus_node = kNone;               // node of the request's focus (or of its collapsed
                                             // enclosing fusion), kNone when none

  uint32_t node_count() const { return static_cast<uint32_t>(node_instr.size()); }
  // Node showing `instr`, kNone when it is not visible.
  uint32_t node_of(uint32_t instr) const;
};

VisibleGraph build_visible_graph(const HloModule& m, const VisibleGraphRequest& request);

}  // namespace strata::hlo
