// The graph viewer's spatial index (core/graph/tile_index.h): every item meeting a view is in
// the returned ranges, the ranges are few and ascending, and a small view returns a small part
// of the graph; on random boxes and on the real llama entry's nodes and edge segments.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/graph/graph_message.h"
#include "core/graph/hlo_graph.h"
#include "core/graph/layered_layout.h"
#include "core/graph/tile_index.h"
#include "hlo_test_util.h"

namespace strata::graph {
namespace {

bool meets(const float* b, float x0, float y0, float x1, float y1) {
  return b[0] <= x1 && b[2] >= x0 && b[1] <= y1 && b[3] >= y0;
}

// Queries `views` random rectangles of about `frac` of the extent; checks completeness and the
// ranges' shape; returns the mean share of items returned.
double check_queries(const std::vector<float>& boxes, const TileIndex& t, float w, float h,
                     float frac, int views, uint32_t seed) {
  const uint32_t n = static_cast<uint32_t>(boxes.size() / 4);
  EXPECT_EQ(t.order.size(), n);
  std::vector<uint8_t> seen(n, 0);
  for (uint32_t id : t.order) {
    EXPECT_LT(id, n);
    if (id < n) ++seen[id];
  }
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << "item " << i << " not once in order";
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ux(-0.1f * w, 1.1f * w), uy(-0.1f * h, 1.1f * h);
  std::vector<IndexRange> ranges;
  std::vector<uint8_t> in_range(n);
  double share = 0;
  for (int q = 0; q < views; ++q) {
    const float x0 = ux(rng), y0 = uy(rng), x1 = x0 + frac * w, y1 = y0 + frac * h;
    tile_query(t, x0, y0, x1, y1, &ranges);
    std::fill(in_range.begin(), in_range.end(), 0);
    uint32_t returned = 0;
    for (size_t r = 0; r < ranges.size(); ++r) {
      EXPECT_LT(ranges[r].first, ranges[r].second);
      EXPECT_LE(ranges[r].second, n);
      if (r) {
        EXPECT_LT(ranges[r - 1].second, ranges[r].first) << "not ascending or not merged";
      }
      for (uint32_t k = ranges[r].first; k < ranges[r].second && k < n; ++k) {
        in_range[t.order[k]] = 1;
        ++returned;
      }
    }
    uint32_t missed = 0;
    for (uint32_t i = 0; i < n; ++i)
      if (!in_range[i] && meets(&boxes[4 * i], x0, y0, x1, y1)) ++missed;
    EXPECT_EQ(missed, 0u) << "view " << x0 << "," << y0 << " " << x1 << "," << y1;
    share += n ? static_cast<double>(returned) / n : 0;
  }
  return share / views;
}

TEST(GraphTileIndex, RandomBoxesSomeBigSomeBad) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(0, 100000), size(1, 300), wide_size(2000, 60000);
  std::vector<float> boxes;
  for (int i = 0; i < 20000; ++i) {
    const float x = pos(rng), y = pos(rng);
    const bool wide = i % 50 == 0;
    boxes.insert(boxes.end(), {x, y, x + (wide ? wide_size(rng) : size(rng)), y + size(rng)});
  }
  boxes.insert(boxes.end(), {NAN, 0, 1, 1});  // kept (as big), never lost
  const TileIndex t = build_tile_index(boxes.data(), static_cast<uint32_t>(boxes.size() / 4));
  const uint32_t n = static_cast<uint32_t>(boxes.size() / 4);
  EXPECT_GT(t.cols, 10u);
  // The tile fits 90% of the items: the 400 wide ones and the NaN one are among the big.
  std::vector<uint8_t> big(n, 0);
  for (uint32_t k = t.big_begin; k < n; ++k) big[t.order[k]] = 1;
  for (uint32_t i = 0; i < n; i += 50) EXPECT_TRUE(big[i]) << i;
  EXPECT_TRUE(big[n - 1]);
  EXPECT_LT(n - t.big_begin, n * 12 / 100);
  // A 5% x 5% view: the big ones, and the small items near it.
  EXPECT_LT(check_queries(boxes, t, 100000, 100000, 0.05f, 200, 1), 0.15);
  std::vector<IndexRange> all;
  tile_query(t, -1e6f, -1e6f, 1e6f, 1e6f, &all);
  ASSERT_EQ(all.size(), 1u);  // everything: one range
  EXPECT_EQ(all[0], IndexRange(0, n));
}

TEST(GraphTileIndex, EmptyAndPoint) {
  const TileIndex e = build_tile_index(nullptr, 0);
  std::vector<IndexRange> r;
  tile_query(e, 0, 0, 10, 10, &r);
  EXPECT_TRUE(r.empty());
  const float one[4] = {5, 5, 5, 5};
  const TileIndex p = build_tile_index(one, 1);
  tile_query(p, 0, 0, 10, 10, &r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], IndexRange(0, 1));
  tile_query(p, 20000, 20000, 20010, 20010, &r);
  EXPECT_TRUE(r.empty());
}

// The llama entry as the Graph tab first shows it: its nodes and its edges' polyline segments
// (what the viewer indexes), each a box.
TEST(GraphTileIndex, LlamaNodesAndEdgeSegments) {
  std::vector<hlo::HloModule> modules;
  if (!testing::read_shared_hlo(testing::kLlamaHlo, &modules)) GTEST_SKIP();
  ASSERT_FALSE(modules.empty());
  const hlo::HloModule& m = modules[0];
  const hlo::VisibleGraph vis = hlo::build_visible_graph(m, {});
  const LayoutInput in = hlo_layout_input(m, vis);
  const GraphLayout out = layered_layout(in);
  std::vector<float> nodes, segs;
  for (size_t v = 0; v < out.x.size(); ++v)
    nodes.insert(nodes.end(), {out.x[v] - in.width[v] / 2, out.y[v] - in.height[v] / 2,
                               out.x[v] + in.width[v] / 2, out.y[v] + in.height[v] / 2});
  for (size_t e = 0; e + 1 < out.edge_point_offset.size(); ++e)
    for (uint32_t k = out.edge_point_offset[e]; k + 1 < out.edge_point_offset[e + 1]; ++k) {
      const float* p = &out.edge_xy[2 * k];
      segs.insert(segs.end(), {std::min(p[0], p[2]), std::min(p[1], p[3]), std::max(p[0], p[2]),
                               std::max(p[1], p[3])});
    }
  ASSERT_GT(nodes.size() / 4, 20000u);
  ASSERT_GT(segs.size() / 4, 100000u);
  for (const std::vector<float>* boxes : {&nodes, &segs}) {
    const uint32_t n = static_cast<uint32_t>(boxes->size() / 4);
    const TileIndex t = build_tile_index(boxes->data(), n);
    EXPECT_LE(n - t.big_begin, n / 10 + 1) << "most items fit a tile";
    // A view of 1% x 1% of the graph (a zoomed-in canvas) returns the big items (segments
    // of long edges drawn straight) and a few percent more.
    const double share = check_queries(*boxes, t, out.width, out.height, 0.01f, 100, 3);
    EXPECT_LT(share, 0.15) << (boxes == &nodes ? "nodes" : "segments");
  }
}

}  // namespace
}  // namespace strata::graph
