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

}  // namespace strata::graph
