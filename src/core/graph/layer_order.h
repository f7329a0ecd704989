// Crossing reduction for a proper layered graph (every edge joins adjacent layers).
#pragma once
#include <cstdint>
#include <vector>

namespace strata::graph {

struct ProperGraph {
  uint32_t layers = 0;
  std::vector<int32_t> layer;               // per node (real nodes first, then dummies)
  std::vector<uint32_t> down_offset, down;  // CSR: neighbours in the layer below
  std::vector<uint32_t> up_offset, up;      // CSR: neighbours in the layer above
};

// Builds both CSRs from proper edges (a in layer L, b in layer L + 1).
void build_proper_csr(ProperGraph& g, const std::vector<uint32_t>& a,
                      const std::vector<uint32_t>& b);

// Left-to-right order of every layer, flat: layer l is nodes[start[l], start[l + 1]).
struct LayerOrder {
  std::vector<uint32_t> start, nodes;
  uint32_t size(uint32_t l) const { return start[l + 1] - start[l]; }
};

// The order a DFS over the sources (in index order) meets the nodes.
LayerOrder dfs_order(const ProperGraph& g);

// Total crossings of an ordering.
int64_t total_crossings(const ProperGraph& g, const LayerOrder& order);

// Barycentre sweeps (down then up, up to `sweeps` times, stopping when a round gains under 1%)
// from the given order, keeping the order with the fewest crossings seen (the given one
// included). Returns that count.
int64_t reduce_crossings(const ProperGraph& g, LayerOrder& order, int sweeps);

}  // namespace strata::graph
