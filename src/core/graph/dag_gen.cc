#include "core/graph/dag_gen.h"

#include <algorithm>

namespace strata::graph {

namespace {

// splitmix64: small, seedable, the same on every platform (std distributions are not).
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return n ? static_cast<uint32_t>(next() % n) : 0; }
  double unit() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};

}  // namespace

LayoutInput make_hlo_like_dag(const DagShape& shape) {
  Rng rng{shape.seed};
  LayoutInput in;
  const uint32_t n = shape.nodes;
  in.width.resize(n);
  in.height.resize(n);
  for (uint32_t v = 0; v < n; ++v) {
    in.width[v] = 80.f + static_cast<float>(rng.below(120));
    in.height[v] = 36.f + static_cast<float>(rng.below(3) * 12);
    if (v == 0) continue;
    const uint32_t operands = 1 + rng.below(3);
    for (uint32_t k = 0; k < operands; ++k) {
      uint32_t from;
      const double r = rng.unit();
      if (r < 0.01) {
        from = rng.below(v);  // anywhere before: a parameter or constant used deep down
      } else if (r < 0.1) {
        from = v - 1 - rng.below(std::min<uint32_t>(v, 256));  // a residual across a block
      } else {
        const uint32_t window = std::min<uint32_t>(v, 8);
        from = v - 1 - rng.below(window);
      }
      in.edge_src.push_back(from);
      in.edge_dst.push_back(v);
    }
    if (shape.back_edge_share > 0 && rng.unit() < shape.back_edge_share) {
      in.edge_src.push_back(v);
      in.edge_dst.push_back(rng.below(v));
    }
  }
  if (shape.groups > 0 && n > 0) {
    in.node_group.assign(n, -1);
    const uint32_t run = std::max<uint32_t>(2, n / (3 * shape.groups));
    for (uint32_t g = 0; g < shape.groups; ++g) {
      const int32_t parent = shape.nested && g % 2 == 1 ? static_cast<int32_t>(g - 1) : -1;
      in.group_parent.push_back(parent);
      const uint32_t first = static_cast<uint32_t>((static_cast<uint64_t>(g) * n) / shape.groups);
      for (uint32_t v = first; v < std::min(n, first + run); ++v) in.node_group[v] = g;
    }
  }
  return in;
}

}  // namespace strata::graph
