#include "core/graph/layered_layout.h"

#include <algorithm>
#include <unordered_map>

#include "core/graph/flat_layout.h"

namespace strata::graph {

namespace {

// Group parents with out-of-range ids or cycles are cut to the top level.
std::vector<int32_t> checked_parents(const std::vector<int32_t>& parent) {
  const int32_t G = static_cast<int32_t>(parent.size());
  std::vector<int32_t> p(parent);
  for (int32_t& x : p)
    if (x < -1 || x >= G) x = -1;
  std::vector<uint8_t> state(G, 0);  // 0 new, 1 on the current walk, 2 known acyclic
  std::vector<int32_t> walk;
  for (int32_t g = 0; g < G; ++g) {
    walk.clear();
    int32_t at = g;
    while (at >= 0 && state[at] == 0) {
      state[at] = 1;
      walk.push_back(at);
      at = p[at];
    }
    if (at >= 0 && state[at] == 1) p[walk.back()] = -1;  // closes a cycle: cut it
    for (int32_t w : walk) state[w] = 2;
  }
  return p;
}

}  // namespace

GraphLayout layered_layout(const LayoutInput& in, const LayoutOptions& opt) {
  const uint32_t n = static_cast<uint32_t>(std::min(in.width.size(), in.height.size()));
  const int32_t G = static_cast<int32_t>(in.group_parent.size());
  const std::vector<int32_t> parent = checked_parents(in.group_parent);
  // Item i < n is node i, item n + g is group g; a container is a group or -1 (the top).
  auto container = [&](uint32_t item) -> int32_t {
    if (item < n) {
      const int32_t g = item < in.node_group.size() ? in.node_group[item] : -1;
      return g >= 0 && g < G ? g : -1;
    }
    return parent[item - n];
  };
  std::vector<int32_t> depth(G, -1);  // top = 0, a group one more than its parent
  for (int32_t g = 0; g < G; ++g) {
    int32_t d = 0;
    for (int32_t a = g; a >= 0; a = parent[a]) ++d;
    depth[g] = d;
  }
  auto cdepth = [&](int32_t c) { return c < 0 ? 0 : depth[c]; };
  const uint32_t C = static_cast<uint32_t>(G) + 1;  // container slot: group g → g, top → G
  auto slot = [&](int32_t c) {
    return c < 0 ? static_cast<uint32_t>(G) : static_cast<uint32_t>(c);
  };

  // Children of every container, and each item's index among them.
  std::vector<std::vector<uint32_t>> children(C);
  std::vector<uint32_t> local(n + G, 0);
  for (uint32_t item = 0; item < n + static_cast<uint32_t>(G); ++item) {
    auto& list = children[slot(container(item))];
    local[item] = static_cast<uint32_t>(list.size());
    list.push_back(item);
  }

  // Each edge lifted to the container where its ends part: (container, flat edge).
  const size_t m = std::min(in.edge_src.size(), in.edge_dst.size());
  std::vector<FlatGraph> flat(C);
  std::vector<std::unordered_map<uint64_t, uint32_t>> flat_index(C);
  std::vector<uint32_t> edge_slot(m, UINT32_MAX), edge_flat(m, 0);
  for (size_t e = 0; e < m; ++e) {
    uint32_t u = in.edge_src[e], v = in.edge_dst[e];
    if (u >= n || v >= n || u == v) continue;
    while (container(u) != container(v)) {
      if (cdepth(container(u)) >= cdepth(container(v)))
        u = n + container(u);
      else
        v = n + container(v);
    }
    if (u == v) continue;
    const uint32_t s = slot(container(u));
    const uint64_t key = (static_cast<uint64_t>(local[u]) << 32) | local[v];
    auto [it, added] = flat_index[s].try_emplace(key, static_cast<uint32_t>(flat[s].src.size()));
    if (added) {
      flat[s].src.push_back(local[u]);
      flat[s].dst.push_back(local[v]);
    }
    edge_slot[e] = s;
    edge_flat[e] = it->second;
  }

  // Deepest groups first, so a group's size is known before its parent is laid out.
  std::vector<uint32_t> slots(C);
  for (uint32_t s = 0; s < C; ++s) slots[s] = s;
  auto slot_depth = [&](uint32_t s) { return s == static_cast<uint32_t>(G) ? 0 : depth[s]; };
  std::stable_sort(slots.begin(), slots.end(),
                   [&](uint32_t a, uint32_t b) { return slot_depth(a) > slot_depth(b); });
  std::vector<FlatLayout> laid(C);
  std::vector<float> group_w(G, 0), group_h(G, 0);
  GraphLayout out;
  for (uint32_t s : slots) {
    FlatGraph& fg = flat[s];
    for (uint32_t item : children[s]) {
      fg.width.push_back(item < n ? in.width[item] : group_w[item - n]);
      fg.height.push_back(item < n ? in.height[item] : group_h[item - n]);
    }
    laid[s] = flat_layout(fg, opt);
    out.crossings += laid[s].crossings;
    out.dummies += laid[s].dummies;
    if (s < static_cast<uint32_t>(G)) {
      group_w[s] = std::max(laid[s].width, 40.f) + 2 * opt.group_pad;
      group_h[s] = laid[s].height + 2 * opt.group_pad + opt.group_label;
    }
  }

  // Origins top-down: a group's members are placed inside its box in the parent.
  std::vector<float> origin_x(C, 0), origin_y(C, 0);
  out.group_box.assign(4 * static_cast<size_t>(G), 0);
  for (auto it = slots.rbegin(); it != slots.rend(); ++it) {
    const uint32_t s = *it;
    if (s == static_cast<uint32_t>(G)) continue;
    const uint32_t ps = slot(parent[s]);
    const uint32_t li = local[n + s];
    const float x0 = origin_x[ps] + laid[ps].x[li] - group_w[s] / 2;
    const float y0 = origin_y[ps] + laid[ps].y[li] - group_h[s] / 2;
    out.group_box[4 * s] = x0;
    out.group_box[4 * s + 1] = y0;
    out.group_box[4 * s + 2] = x0 + group_w[s];
    out.group_box[4 * s + 3] = y0 + group_h[s];
    origin_x[s] = x0 + opt.group_pad;
    origin_y[s] = y0 + opt.group_pad + opt.group_label;
  }
  out.x.resize(n);
  out.y.resize(n);
  out.layer.resize(n);
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t s = slot(container(v));
    out.x[v] = origin_x[s] + laid[s].x[local[v]];
    out.y[v] = origin_y[s] + laid[s].y[local[v]];
    out.layer[v] = laid[s].layer[local[v]];
  }
  out.width = laid[G].width;
  out.height = laid[G].height;

  out.edge_reversed.assign(m, 0);
  out.edge_point_offset.assign(m + 1, 0);
  for (size_t e = 0; e < m; ++e) {
    out.edge_point_offset[e + 1] = out.edge_point_offset[e];
    if (edge_slot[e] == UINT32_MAX) continue;
    const uint32_t s = edge_slot[e], fe = edge_flat[e];
    const FlatLayout& fl = laid[s];
    const bool up = fl.reversed[fe];
    out.edge_reversed[e] = up;
    const uint32_t u = in.edge_src[e], v = in.edge_dst[e];
    const float sign = up ? -1.f : 1.f;
    out.edge_xy.push_back(out.x[u]);
    out.edge_xy.push_back(out.y[u] + sign * in.height[u] / 2);
    for (uint32_t k = fl.point_offset[fe]; k < fl.point_offset[fe + 1]; ++k) {
      out.edge_xy.push_back(origin_x[s] + fl.points[2 * k]);
      out.edge_xy.push_back(origin_y[s] + fl.points[2 * k + 1]);
    }
    out.edge_xy.push_back(out.x[v]);
    out.edge_xy.push_back(out.y[v] - sign * in.height[v] / 2);
    out.edge_point_offset[e + 1] = static_cast<uint32_t>(out.edge_xy.size() / 2);
  }
  return out;
}

}  // namespace strata::graph
