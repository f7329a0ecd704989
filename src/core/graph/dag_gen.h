// Generated graphs shaped like HLO modules, for the layout tests and scripts/bench-graph: nodes
// in dependency order, each reading 1-3 recent values (sometimes one far back, as residual
// connections and parameters do), a few back edges (while loops), optional fusion-like groups.
#pragma once
#include <cstdint>

#include "core/graph/layered_layout.h"

namespace strata::graph {

struct DagShape {
  uint32_t nodes = 1000;
  uint64_t seed = 1;
  double back_edge_share = 0.0;  // share of nodes given an edge back to an earlier node
  uint32_t groups = 0;           // consecutive runs of nodes made into groups
  bool nested = false;           // every second group inside the previous one's parent chain
};

LayoutInput make_hlo_like_dag(const DagShape& shape);

}  // namespace strata::graph
