#include "core/graph/layer_order.h"

#include <algorithm>
#include <numeric>

#include "core/graph/flat_layout.h"

namespace strata::graph {

namespace {

void csr(uint32_t n, const std::vector<uint32_t>& from, const std::vector<uint32_t>& to,
         std::vector<uint32_t>& offset, std::vector<uint32_t>& out) {
  offset.assign(n + 1, 0);
  for (uint32_t f : from) ++offset[f + 1];
  for (uint32_t i = 0; i < n; ++i) offset[i + 1] += offset[i];
  out.resize(from.size());
  std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
  for (size_t e = 0; e < from.size(); ++e) out[fill[from[e]]++] = to[e];
}

std::vector<uint32_t> positions(const ProperGraph& g, const LayerOrder& order) {
  std::vector<uint32_t> pos(g.layer.size(), 0);
  for (uint32_t l = 0; l < g.layers; ++l)
    for (uint32_t i = order.start[l]; i < order.start[l + 1]; ++i)
      pos[order.nodes[i]] = i - order.start[l];
  return pos;
}

// One sweep: each layer (after the first in sweep direction) sorted by the mean position of its
// neighbours in the previous layer; a node without such neighbours keeps its relative place.
// Ties keep the current order (the key pairs with the current position), as a stable sort would.
void sweep(const ProperGraph& g, LayerOrder& order, std::vector<uint32_t>& pos, bool down) {
  const int32_t L = static_cast<int32_t>(g.layers);
  struct Keyed {
    float key;
    uint32_t at, node;
  };
  std::vector<Keyed> keyed;
  for (int32_t step = 1; step < L; ++step) {
    const int32_t l = down ? step : L - 1 - step;
    const int32_t ref = down ? l - 1 : l + 1;
    const uint32_t size = order.size(l);
    if (size < 2) continue;
    uint32_t* row = order.nodes.data() + order.start[l];
    const float scale = static_cast<float>(order.size(ref)) / size;
    const auto& off = down ? g.up_offset : g.down_offset;
    const auto& adj = down ? g.up : g.down;
    keyed.resize(size);
    for (uint32_t i = 0; i < size; ++i) {
      const uint32_t v = row[i];
      const uint32_t b = off[v], e = off[v + 1];
      float key;
      if (b == e) {
        key = (pos[v] + 0.5f) * scale - 0.5f;
      } else {
        uint64_t sum = 0;
        for (uint32_t k = b; k < e; ++k) sum += pos[adj[k]];
        key = static_cast<float>(sum) / (e - b);
      }
      keyed[i] = {key, i, v};
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& x, const Keyed& y) {
      return x.key < y.key || (x.key == y.key && x.at < y.at);
    });
    for (uint32_t i = 0; i < size; ++i) {
      row[i] = keyed[i].node;
      pos[row[i]] = i;
    }
  }
}

}  // namespace

int64_t count_crossings(std::vector<std::pair<uint32_t, uint32_t>>& edges, uint32_t lower_size) {
  std::sort(edges.begin(), edges.end());
  std::vector<uint32_t> tree(lower_size + 1, 0);  // Fenwick over lower positions
  int64_t crossings = 0, inserted = 0;
  for (const auto& [upper, lower] : edges) {
    // Earlier edges (smaller upper, or equal upper and smaller-or-equal lower) whose lower end
    // is strictly right of this one cross it.
    int64_t at_most = 0;
    for (uint32_t i = lower + 1; i > 0; i -= i & (~i + 1)) at_most += tree[i];
    crossings += inserted - at_most;
    for (uint32_t i = lower + 1; i <= lower_size; i += i & (~i + 1)) ++tree[i];
    ++inserted;
  }
  return crossings;
}

void build_proper_csr(ProperGraph& g, const std::vector<uint32_t>& a,
                      const std::vector<uint32_t>& b) {
  const uint32_t n = static_cast<uint32_t>(g.layer.size());
  csr(n, a, b, g.down_offset, g.down);
  csr(n, b, a, g.up_offset, g.up);
}

LayerOrder dfs_order(const ProperGraph& g) {
  const uint32_t n = static_cast<uint32_t>(g.layer.size());
  LayerOrder order;
  order.start.assign(g.layers + 1, 0);
  for (int32_t l : g.layer) ++order.start[l + 1];
  for (uint32_t l = 0; l < g.layers; ++l) order.start[l + 1] += order.start[l];
  order.nodes.resize(n);
  std::vector<uint32_t> fill(order.start.begin(), order.start.end() - 1);
  std::vector<uint8_t> seen(n, 0);
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // node, next child slot
  auto place = [&](uint32_t v) {
    seen[v] = 1;
    order.nodes[fill[g.layer[v]]++] = v;
    stack.emplace_back(v, g.down_offset[v]);
  };
  auto visit = [&](uint32_t root) {
    place(root);
    while (!stack.empty()) {
      auto& [v, k] = stack.back();
      if (k == g.down_offset[v + 1]) {
        stack.pop_back();
        continue;
      }
      const uint32_t w = g.down[k++];
      if (!seen[w]) place(w);  // may reallocate the stack: v and k are not used after
    }
  };
  for (uint32_t v = 0; v < n; ++v)
    if (!seen[v] && g.up_offset[v] == g.up_offset[v + 1]) visit(v);
  for (uint32_t v = 0; v < n; ++v)
    if (!seen[v]) visit(v);  // unreachable from a source: cannot happen in a DAG, but be safe
  return order;
}

int64_t total_crossings(const ProperGraph& g, const LayerOrder& order) {
  const auto pos = positions(g, order);
  int64_t total = 0;
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t l = 0; l + 1 < g.layers; ++l) {
    pairs.clear();
    for (uint32_t i = order.start[l]; i < order.start[l + 1]; ++i) {
      const uint32_t v = order.nodes[i];
      for (uint32_t k = g.down_offset[v]; k < g.down_offset[v + 1]; ++k)
        pairs.emplace_back(pos[v], pos[g.down[k]]);
    }
    if (pairs.size() > 1) total += count_crossings(pairs, order.size(l + 1));
  }
  return total;
}

int64_t reduce_crossings(const ProperGraph& g, LayerOrder& order, int sweeps) {
  int64_t best = total_crossings(g, order);
  if (best == 0 || sweeps <= 0) return best;
  LayerOrder work = order;
  auto pos = positions(g, work);
  for (int it = 0; it < sweeps && best > 0; ++it) {
    const int64_t before = best;
    for (bool down : {true, false}) {
      sweep(g, work, pos, down);
      const int64_t c = total_crossings(g, work);
      if (c < best) {
        best = c;
        order.nodes = work.nodes;
      }
    }
    if (it > 0 && best > before - before / 100) break;  // converged
  }
  return best;
}

}  // namespace strata::graph
