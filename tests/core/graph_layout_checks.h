// Invariants every layered layout must satisfy, shared by the generated and real-HLO tests.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

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

  // No two boxes overlap: a sweep over boxes sorted by left edge.
  std::vector<uint32_t> by_x(n);
  std::iota(by_x.begin(), by_x.end(), 0);
  std::sort(by_x.begin(), by_x.end(), [&](uint32_t a, uint32_t b) {
    return node_box(in, out, a).x0 < node_box(in, out, b).x0;
  });
  int64_t overlaps = 0;
  for (size_t i = 0; i < n; ++i) {
    const Box a = node_box(in, out, by_x[i]);
    for (size_t j = i + 1; j < n; ++j) {
      const Box b = node_box(in, out, by_x[j]);
      if (b.x0 >= a.x1) break;
      if (boxes_overlap(a, b)) ++overlaps;
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
