// What the HLO targets do with a parsed module: check the CSR invariants the graph viewer relies
// on, then build the entry computation's graph (with every calling instruction expanded) and the
// details of the first instructions, as the Graph tab does.
#pragma once
#include <cstdint>
#include <vector>

#include "core/formats/hlo/hlo_module.h"
#include "core/graph/graph_message.h"
#include "core/graph/hlo_graph.h"

namespace strata::fuzz {

inline void check_hlo_module(const hlo::HloModule& m) {
  const size_t instrs = m.name.size();
  const size_t comps = m.comp_name.size();
  for (uint32_t op : m.operands)
    if (op >= instrs) __builtin_trap();
  for (uint32_t c : m.called)
    if (c >= comps) __builtin_trap();
  if (m.entry != kNone && m.entry >= comps) __builtin_trap();
  std::vector<uint32_t> expanded;
  for (size_t i = 0; i < instrs && expanded.size() < 16; ++i)
    if (i + 1 < m.called_begin.size() && m.called_begin[i + 1] > m.called_begin[i])
      expanded.push_back(static_cast<uint32_t>(i));
  if (comps) {
    hlo::VisibleGraphRequest request;
    request.expanded = expanded;
    hlo::VisibleGraph g = hlo::build_visible_graph(m, request);
    for (size_t e = 0; e < g.edge_src.size(); ++e)
      if (g.edge_src[e] >= g.node_count() || g.edge_dst[e] >= g.node_count()) __builtin_trap();
  }
  for (uint32_t i = 0; i < instrs && i < 8; ++i) {
    graph::node_text(m, i);
    graph::instruction_details_json(m, i);
  }
}

}  // namespace strata::fuzz
