// Invariants every layered layout must satisfy, shared by the generated and real-HLO tests.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "core/graph/layered_layout.h"

namespace strata::graph {

struct Box {
  float x0, y0, x1, y1;
};

inline bool boxes_overlap(const Box& a, const Box& b) {
  const float eps = 0.01f;  // touching is fine
  return a.x0 < b.x1 - eps && b.x0 < a.x1 - eps && a.y0 < b.y1 - eps && b.y0 < a.y1 - eps;
}

inline Box node_box(const LayoutInput& in, const GraphLayout& out, uint32_t v) {
  return {out.x[v] - in.width[v] / 2, out.y[v] - in.height[v] / 2, out.x[v] + in.width[v] / 2,
          out.y[v] + in.height[v] / 2};
}

// True when group g is `anc` or nested (at any depth) inside it.
inline bool group_within(const LayoutInput& in, int32_t g, int32_t anc) {
  for (int32_t steps = 0; g >= 0 && steps <= static_cast<int32_t>(in.group_parent.size());
       ++steps) {
    if (g == anc) return true;
    g = in.group_parent[g];
  }
  return false;
}

inline void expect_layout_valid(const LayoutInput& in, const GraphLayout& out) {
  const uint32_t n = static_cast<uint32_t>(in.width.size());
  ASSERT_EQ(out.x.size(), n);
  ASSERT_EQ(out.edge_point_offset.size(), in.edge_src.size() + 1);

  // No two boxes overlap: boxes hashed into a grid, pairs compared within a cell.
  int64_t overlaps = 0;
  {
    const float cell = 400;
    std::unordered_map<uint64_t, std::vector<uint32_t>> grid;
    for (uint32_t v = 0; v < n; ++v) {
      const Box a = node_box(in, out, v);
      const int64_t cx0 = static_cast<int64_t>(std::floor(a.x0 / cell));
      const int64_t cx1 = static_cast<int64_t>(std::floor(a.x1 / cell));
      const int64_t cy0 = static_cast<int64_t>(std::floor(a.y0 / cell));
      const int64_t cy1 = static_cast<int64_t>(std::floor(a.y1 / cell));
      for (int64_t cx = cx0; cx <= cx1; ++cx)
        for (int64_t cy = cy0; cy <= cy1; ++cy) {
          auto& list = grid[(static_cast<uint64_t>(cx) << 32) ^ static_cast<uint32_t>(cy)];
          for (uint32_t u : list)
            if (boxes_overlap(a, node_box(in, out, u))) ++overlaps;
          list.push_back(v);
        }
    }
  }
  EXPECT_EQ(overlaps, 0);

  // Edges: downward point after point (upward when reversed), from source to target.
  int64_t bad_edges = 0, missing = 0;
  for (size_t e = 0; e < in.edge_src.size(); ++e) {
    const uint32_t u = in.edge_src[e], v = in.edge_dst[e];
    const uint32_t b = out.edge_point_offset[e], end = out.edge_point_offset[e + 1];
    if (u >= n || v >= n || u == v) continue;
    if (end - b < 2) {
      ++missing;
      continue;
    }
    const float dir = out.edge_reversed[e] ? -1.f : 1.f;
    if (dir * (out.y[v] - out.y[u]) <= 0) ++bad_edges;
    for (uint32_t k = b + 1; k < end; ++k)
      if (dir * (out.edge_xy[2 * k + 1] - out.edge_xy[2 * k - 1]) <= 0) {
        ++bad_edges;
        break;
      }
    if (out.edge_xy[2 * b] != out.x[u] || out.edge_xy[2 * (end - 1)] != out.x[v]) ++bad_edges;
  }
  EXPECT_EQ(bad_edges, 0);
  EXPECT_EQ(missing, 0);

  // Groups: each box holds its members and nested boxes, and no other node or sibling box.
  const int32_t G = static_cast<int32_t>(in.group_parent.size());
  ASSERT_EQ(out.group_box.size(), 4u * G);
  auto gbox = [&](int32_t g) {
    return Box{out.group_box[4 * g], out.group_box[4 * g + 1], out.group_box[4 * g + 2],
               out.group_box[4 * g + 3]};
  };
  auto inside = [](const Box& a, const Box& outer) {
    return a.x0 >= outer.x0 && a.x1 <= outer.x1 && a.y0 >= outer.y0 && a.y1 <= outer.y1;
  };
  int64_t escaped = 0, intruders = 0;
  for (int32_t g = 0; g < G; ++g) {
    const Box box = gbox(g);
    for (uint32_t v = 0; v < n; ++v) {
      const int32_t vg = v < in.node_group.size() ? in.node_group[v] : -1;
      const bool member = vg >= 0 && group_within(in, vg, g);
      const Box nb = node_box(in, out, v);
      if (member && !inside(nb, box)) ++escaped;
      if (!member && boxes_overlap(nb, box)) ++intruders;
    }
    for (int32_t h = 0; h < G; ++h) {
      if (h == g) continue;
      if (group_within(in, h, g)) {
        if (!inside(gbox(h), box)) ++escaped;
      } else if (!group_within(in, g, h) && boxes_overlap(gbox(h), box)) {
        ++intruders;
      }
    }
  }
  EXPECT_EQ(escaped, 0);
  EXPECT_EQ(intruders, 0);
}

// Edges into a group cross its top border at a point on it, and edges out of one its bottom
// border; in between they stay in the box and go layer by layer: no item of the group's own
// layout has its centre strictly between two consecutive points of the edge there (items of a
// layer are centred on it), so an edge never runs over a member's layer, where it could cross
// the member. Without ports, the edge runs from above the box straight to its target, over
// every layer before it. Edges turned upward are not routed so.
struct GroupEdgeCheck {
  int64_t checked = 0;    // edges with an end in a group the other end is not in
  int64_t no_border = 0;  // crossings of a border missing
  int64_t outside = 0;    // points out of the box between its borders
  int64_t jumps = 0;      // consecutive points with an item's layer strictly between
};
inline GroupEdgeCheck check_group_edges(const LayoutInput& in, const GraphLayout& out) {
  const uint32_t n = static_cast<uint32_t>(in.width.size());
  const int32_t G = static_cast<int32_t>(in.group_parent.size());
  auto group_of = [&](uint32_t v) {
    const int32_t g = v < in.node_group.size() ? in.node_group[v] : -1;
    return g >= 0 && g < G ? g : -1;
  };
  // Centres of each group's own items: its direct member nodes and the groups nested in it.
  std::vector<std::vector<float>> item_y(G);
  for (uint32_t v = 0; v < n; ++v)
    if (group_of(v) >= 0) item_y[group_of(v)].push_back(out.y[v]);
  for (int32_t h = 0; h < G; ++h)
    if (in.group_parent[h] >= 0 && in.group_parent[h] < G)
      item_y[in.group_parent[h]].push_back((out.group_box[4 * h + 1] + out.group_box[4 * h + 3]) /
                                           2);
  for (auto& ys : item_y) std::sort(ys.begin(), ys.end());
  auto between = [&](int32_t g, float a, float b) {  // items of g centred strictly between
    const auto& ys = item_y[g];
    if (a > b) std::swap(a, b);
    return std::lower_bound(ys.begin(), ys.end(), b) - std::upper_bound(ys.begin(), ys.end(), a);
  };
  GroupEdgeCheck r;
  int64_t &checked = r.checked, &no_border = r.no_border, &outside = r.outside, &jumps = r.jumps;
  std::vector<int32_t> chain;
  for (size_t e = 0; e < in.edge_src.size(); ++e) {
    const uint32_t u = in.edge_src[e], v = in.edge_dst[e];
    if (u >= n || v >= n || u == v || out.edge_reversed[e]) continue;
    const uint32_t b = out.edge_point_offset[e], end = out.edge_point_offset[e + 1];
    auto px = [&](uint32_t k) { return out.edge_xy[2 * k]; };
    auto py = [&](uint32_t k) { return out.edge_xy[2 * k + 1]; };
    for (int side = 0; side < 2; ++side) {  // 0: groups the edge enters, 1: groups it leaves
      const uint32_t inner = side == 0 ? v : u, other = side == 0 ? u : v;
      chain.clear();  // innermost first, up to the first group that holds the other end too
      for (int32_t g = group_of(inner);
           g >= 0 && !(group_of(other) >= 0 && group_within(in, group_of(other), g));
           g = in.group_parent[g])
        chain.push_back(g);
      if (chain.empty()) continue;
      ++checked;
      if (side == 0) std::reverse(chain.begin(), chain.end());  // in path order
      uint32_t at = b;  // where the previous border was crossed
      for (size_t t = 0; t < chain.size(); ++t) {
        const int32_t g = chain[t];
        const float* box = &out.group_box[4 * g];
        const float border = side == 0 ? box[1] : box[3];
        uint32_t k = at;
        while (k < end && !(py(k) == border && px(k) >= box[0] && px(k) <= box[2])) ++k;
        if (k == end) {
          ++no_border;
          break;
        }
        // The stretch at g's level: entering, from its border to the next one's (or the
        // end); leaving, from the previous border (or the start) to its own.
        uint32_t from = k, to = end - 1;
        if (side == 0 && t + 1 < chain.size()) {
          const float* nb = &out.group_box[4 * chain[t + 1]];
          to = k;
          while (to < end - 1 && !(py(to) == nb[1] && px(to) >= nb[0] && px(to) <= nb[2])) ++to;
        }
        if (side == 1) from = at, to = k;
        for (uint32_t j = from; j <= to; ++j)
          if (px(j) < box[0] || px(j) > box[2] || py(j) < box[1] || py(j) > box[3]) ++outside;
        for (uint32_t j = from; j < to; ++j)
          if (between(g, py(j), py(j + 1)) > 0) ++jumps;
        at = k;
      }
    }
  }
  return r;
}

// The check above holds; returns how many edges it looked at.
inline int64_t expect_group_edges_use_ports(const LayoutInput& in, const GraphLayout& out) {
  const GroupEdgeCheck r = check_group_edges(in, out);
  EXPECT_EQ(r.no_border, 0);
  EXPECT_EQ(r.outside, 0);
  EXPECT_EQ(r.jumps, 0);
  return r.checked;
}

}  // namespace strata::graph
