#include "core/graph/flat_layout.h"

#include <algorithm>
#include <numeric>
#include <span>

#include "core/graph/layer_order.h"

namespace strata::graph {

namespace {

// Edges found closing a cycle by an iterative DFS (from the sources first, in index order) are
// reversed; what is left is acyclic.
std::vector<uint8_t> back_edges(uint32_t n, const std::vector<uint32_t>& src,
                                const std::vector<uint32_t>& dst) {
  std::vector<uint32_t> off(n + 1, 0), out(src.size());
  for (uint32_t s : src) ++off[s + 1];
  for (uint32_t i = 0; i < n; ++i) off[i + 1] += off[i];
  std::vector<uint32_t> fill(off.begin(), off.end() - 1);
  std::vector<uint32_t> indeg(n, 0);
  for (size_t e = 0; e < src.size(); ++e) {
    out[fill[src[e]]++] = static_cast<uint32_t>(e);
    ++indeg[dst[e]];
  }
  std::vector<uint8_t> state(n, 0), reversed(src.size(), 0);  // state: 0 new, 1 open, 2 done
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  auto visit = [&](uint32_t root) {
    state[root] = 1;
    stack.emplace_back(root, off[root]);
    while (!stack.empty()) {
      auto& [v, k] = stack.back();
      if (k == off[v + 1]) {
        state[v] = 2;
        stack.pop_back();
        continue;
      }
      const uint32_t e = out[k++];
      const uint32_t w = dst[e];
      if (state[w] == 1) {
        reversed[e] = 1;
      } else if (state[w] == 0) {
        state[w] = 1;
        stack.emplace_back(w, off[w]);
      }
    }
  };
  for (uint32_t v = 0; v < n; ++v)
    if (state[v] == 0 && indeg[v] == 0) visit(v);
  for (uint32_t v = 0; v < n; ++v)
    if (state[v] == 0) visit(v);
  return reversed;
}

// Longest path from the sources, then every node that feeds more than it is fed (sources
// above all: parameters, constants) moves down to just above its first user, so inputs sit
// next to where they are used rather than all in the top layer. Pinned nodes: top ones stay in
// layer 0, bottom ones go to the last layer (one more when a node above them is there).
std::vector<int32_t> assign_layers(uint32_t n, const std::vector<uint32_t>& a,
                                   const std::vector<uint32_t>& b,
                                   const std::vector<uint8_t>& pin) {
  auto pinned = [&](uint32_t v, uint8_t kind) { return v < pin.size() && pin[v] == kind; };
  // fed: in-edges other than from a top port, so that a group's parameters, fed only from
  // outside, still move down to their first use (their port's edge grows instead).
  std::vector<uint32_t> off(n + 1, 0), out(a.size()), indeg(n, 0), fed(n, 0);
  for (uint32_t s : a) ++off[s + 1];
  for (uint32_t i = 0; i < n; ++i) off[i + 1] += off[i];
  std::vector<uint32_t> fill(off.begin(), off.end() - 1);
  for (size_t e = 0; e < a.size(); ++e) {
    out[fill[a[e]]++] = b[e];
    ++indeg[b[e]];
    if (!pinned(a[e], kPinTop)) ++fed[b[e]];
  }
  std::vector<uint32_t> topo;
  topo.reserve(n);
  std::vector<uint32_t> left = indeg;
  for (uint32_t v = 0; v < n; ++v)
    if (left[v] == 0) topo.push_back(v);
  std::vector<int32_t> layer(n, 0);
  for (size_t i = 0; i < topo.size(); ++i) {
    const uint32_t v = topo[i];
    for (uint32_t k = off[v]; k < off[v + 1]; ++k) {
      const uint32_t w = out[k];
      layer[w] = std::max(layer[w], layer[v] + 1);
      if (--left[w] == 0) topo.push_back(w);
    }
  }
  for (size_t i = topo.size(); i-- > 0;) {
    const uint32_t v = topo[i];
    const uint32_t outdeg = off[v + 1] - off[v];
    if (outdeg == 0 || outdeg <= fed[v] || pinned(v, kPinTop)) continue;
    int32_t lowest = INT32_MAX;
    for (uint32_t k = off[v]; k < off[v + 1]; ++k) lowest = std::min(lowest, layer[out[k]]);
    if (lowest - 1 > layer[v]) layer[v] = lowest - 1;
  }
  if (!pin.empty()) {
    int32_t last = 0;
    for (uint32_t v = 0; v < n; ++v)
      if (!pinned(v, kPinBottom)) last = std::max(last, layer[v]);
    for (uint32_t v = 0; v < n; ++v)
      if (pinned(v, kPinBottom)) layer[v] = std::max(layer[v], last);
  }
  return layer;
}

// Minimises sum w_i (x_i - target_i)^2 subject to x_{i+1} - x_i >= gap_i (pool adjacent
// violators on y_i = x_i - S_i, S the running sum of gaps): O(n), and no two boxes overlap.
void place_row(const std::vector<double>& target, const std::vector<double>& weight,
               const std::vector<double>& gap, std::vector<double>& x) {
  const size_t n = target.size();
  std::vector<double> shift(n, 0);
  for (size_t i = 1; i < n; ++i) shift[i] = shift[i - 1] + gap[i - 1];
  struct Block {
    double sum_wt, sum_w;
    size_t count;
  };
  std::vector<Block> blocks;
  blocks.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    blocks.push_back({weight[i] * (target[i] - shift[i]), weight[i], 1});
    while (blocks.size() > 1) {
      const Block& last = blocks.back();
      const Block& prev = blocks[blocks.size() - 2];
      if (prev.sum_wt / prev.sum_w <= last.sum_wt / last.sum_w) break;
      Block merged{prev.sum_wt + last.sum_wt, prev.sum_w + last.sum_w, prev.count + last.count};
      blocks.pop_back();
      blocks.back() = merged;
    }
  }
  x.resize(n);
  size_t i = 0;
  for (const Block& b : blocks) {
    const double y = b.sum_wt / b.sum_w;
    for (size_t k = 0; k < b.count; ++k, ++i) x[i] = y + shift[i];
  }
}

}  // namespace

FlatLayout flat_layout(const FlatGraph& g, const LayoutOptions& opt) {
  const uint32_t n = static_cast<uint32_t>(g.width.size());
  const size_t m = g.src.size();
  FlatLayout out;
  out.x.assign(n, 0);
  out.y.assign(n, 0);
  out.layer.assign(n, 0);
  out.reversed = back_edges(n, g.src, g.dst);
  std::vector<uint32_t> a(m), b(m);  // edges oriented downward
  for (size_t e = 0; e < m; ++e) {
    a[e] = out.reversed[e] ? g.dst[e] : g.src[e];
    b[e] = out.reversed[e] ? g.src[e] : g.dst[e];
  }
  out.layer = assign_layers(n, a, b, g.pin);

  // Dummy nodes on long edges, shortest edges first, within a budget: a few very long edges
  // (a value used at the top and the bottom of a deep graph) are drawn straight instead of
  // costing a node per layer crossed.
  ProperGraph pg;
  pg.layer = out.layer;
  for (int32_t l : out.layer) pg.layers = std::max<uint32_t>(pg.layers, l + 1);
  std::vector<uint32_t> by_span(m);
  std::iota(by_span.begin(), by_span.end(), 0);
  auto span = [&](uint32_t e) { return out.layer[b[e]] - out.layer[a[e]]; };
  std::stable_sort(by_span.begin(), by_span.end(),
                   [&](uint32_t x, uint32_t y) { return span(x) < span(y); });
  const int64_t budget = 2 * static_cast<int64_t>(n + m) + 1000;
  std::vector<uint32_t> chain_first(m, 0), chain_len(m, 0);  // dummies of each edge
  std::vector<uint32_t> pa, pb;
  pa.reserve(m);
  pb.reserve(m);
  for (uint32_t e : by_span) {
    const int32_t s = span(e);
    if (s > 1 && out.dummies + (s - 1) <= budget) {
      chain_first[e] = static_cast<uint32_t>(pg.layer.size());
      chain_len[e] = s - 1;
      out.dummies += s - 1;
      uint32_t prev = a[e];
      for (int32_t l = out.layer[a[e]] + 1; l < out.layer[b[e]]; ++l) {
        const uint32_t d = static_cast<uint32_t>(pg.layer.size());
        pg.layer.push_back(l);
        pa.push_back(prev);
        pb.push_back(d);
        prev = d;
      }
      pa.push_back(prev);
      pb.push_back(b[e]);
    } else if (s == 1) {
      pa.push_back(a[e]);
      pb.push_back(b[e]);
    }
  }
  build_proper_csr(pg, pa, pb);
  const uint32_t total = static_cast<uint32_t>(pg.layer.size());

  auto order = dfs_order(pg);
  out.crossings = reduce_crossings(pg, order, opt.order_sweeps);

  // x: boxes packed left to right, then relaxed towards their neighbours' mean x, one layer at
  // a time (down, up, then both ways); dummies weigh more so long edges run straight.
  auto width_of = [&](uint32_t v) { return v < n ? static_cast<double>(g.width[v]) : 0.0; };
  std::vector<double> x(total, 0);
  for (uint32_t l = 0; l < pg.layers; ++l) {
    double at = 0;
    for (uint32_t i = order.start[l]; i < order.start[l + 1]; ++i) {
      const uint32_t v = order.nodes[i];
      x[v] = at + width_of(v) / 2;
      at += width_of(v) + opt.node_gap;
    }
  }
  std::vector<double> target, weight, gap, placed;
  for (int it = 0; it < opt.coord_sweeps; ++it) {
    const bool both = it >= opt.coord_sweeps - 2;
    const bool down = it % 2 == 0;
    for (uint32_t step = 0; step < pg.layers; ++step) {
      const uint32_t l = down ? step : pg.layers - 1 - step;
      const std::span<const uint32_t> row(order.nodes.data() + order.start[l], order.size(l));
      if (row.empty()) continue;
      target.assign(row.size(), 0);
      weight.assign(row.size(), 0);
      gap.assign(row.size(), 0);
      for (size_t i = 0; i < row.size(); ++i) {
        const uint32_t v = row[i];
        double sum = 0, w = 0;
        auto add = [&](const std::vector<uint32_t>& off, const std::vector<uint32_t>& adj) {
          for (uint32_t k = off[v]; k < off[v + 1]; ++k) {
            const uint32_t u = adj[k];
            const double ew = (v >= n && u >= n) ? 8.0 : (v >= n || u >= n) ? 2.0 : 1.0;
            sum += ew * x[u];
            w += ew;
          }
        };
        if (down || both) add(pg.up_offset, pg.up);
        if (!down || both) add(pg.down_offset, pg.down);
        target[i] = w > 0 ? sum / w : x[v];
        weight[i] = w > 0 ? w : 0.5;
        if (i + 1 < row.size()) {
          const bool dummies = v >= n && row[i + 1] >= n;
          gap[i] = (width_of(v) + width_of(row[i + 1])) / 2 +
                   (dummies ? opt.node_gap / 3 : opt.node_gap);
        }
      }
      place_row(target, weight, gap, placed);
      for (size_t i = 0; i < row.size(); ++i) x[row[i]] = placed[i];
    }
  }
  double left = 0, right = 0;
  bool any = false;
  for (uint32_t v = 0; v < total; ++v) {
    const double l = x[v] - width_of(v) / 2, r = x[v] + width_of(v) / 2;
    left = any ? std::min(left, l) : l;
    right = any ? std::max(right, r) : r;
    any = true;
  }
  out.width = any ? static_cast<float>(right - left) : 0.f;

  // y: each layer as tall as its tallest box, boxes centred in it.
  std::vector<double> layer_top(pg.layers + 1, 0), layer_h(pg.layers, 0);
  for (uint32_t v = 0; v < n; ++v)
    layer_h[out.layer[v]] = std::max<double>(layer_h[out.layer[v]], g.height[v]);
  for (uint32_t l = 0; l < pg.layers; ++l)
    layer_top[l + 1] = layer_top[l] + layer_h[l] + (l + 1 < pg.layers ? opt.layer_gap : 0);
  out.height = static_cast<float>(layer_top[pg.layers]);
  auto y_of = [&](uint32_t v) { return layer_top[pg.layer[v]] + layer_h[pg.layer[v]] / 2; };
  for (uint32_t v = 0; v < n; ++v) {
    out.x[v] = static_cast<float>(x[v] - left);
    out.y[v] = static_cast<float>(y_of(v));
  }
  out.point_offset.assign(m + 1, 0);
  for (size_t e = 0; e < m; ++e) out.point_offset[e + 1] = out.point_offset[e] + chain_len[e];
  out.points.resize(2 * static_cast<size_t>(out.point_offset[m]));
  for (size_t e = 0; e < m; ++e) {
    for (uint32_t k = 0; k < chain_len[e]; ++k) {
      const uint32_t d = chain_first[e] + k;
      // A reversed edge's chain runs target → source: store it source → target.
      const uint32_t slot = out.point_offset[e] + (out.reversed[e] ? chain_len[e] - 1 - k : k);
      out.points[2 * slot] = static_cast<float>(x[d] - left);
      out.points[2 * slot + 1] = static_cast<float>(y_of(d));
    }
  }
  return out;
}

}  // namespace strata::graph
