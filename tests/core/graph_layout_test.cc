// The layered layout's invariants on generated HLO-shaped graphs (and, in graph_hlo_test.cc,
// on real HLO modules): boxes never overlap, edges run downward between layers unless they
// were reversed to break a cycle, group boxes hold their members and no one else's, and the
// crossing reduction does at least as well as the DFS order it starts from.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "core/graph/dag_gen.h"
#include "core/graph/flat_layout.h"
#include "core/graph/layered_layout.h"
#include "graph_layout_checks.h"

namespace strata::graph {
namespace {

TEST(GraphLayout, CountCrossingsMatchesPairwise) {
  std::vector<std::pair<uint32_t, uint32_t>> edges = {{0, 2}, {1, 0}, {2, 1}, {2, 2}, {0, 0}};
  int64_t brute = 0;
  for (size_t i = 0; i < edges.size(); ++i)
    for (size_t j = i + 1; j < edges.size(); ++j) {
      const auto& a = edges[i];
      const auto& b = edges[j];
      if ((a.first < b.first && a.second > b.second) || (a.first > b.first && a.second < b.second))
        ++brute;
    }
  EXPECT_EQ(count_crossings(edges, 3), brute);
  EXPECT_EQ(brute, 2);
}

TEST(GraphLayout, ChainIsOneColumnGoingDown) {
  LayoutInput in;
  in.width = {100, 60, 80};
  in.height = {40, 40, 40};
  in.edge_src = {0, 1};
  in.edge_dst = {1, 2};
  const GraphLayout out = layered_layout(in);
  EXPECT_EQ(out.layer, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_FLOAT_EQ(out.x[0], out.x[1]);
  EXPECT_FLOAT_EQ(out.x[1], out.x[2]);
  EXPECT_LT(out.y[0], out.y[1]);
  EXPECT_EQ(out.crossings, 0);
  EXPECT_FLOAT_EQ(out.width, 100);
  expect_layout_valid(in, out);
}

TEST(GraphLayout, CycleIsBrokenAndFlagged) {
  LayoutInput in;
  in.width.assign(4, 50);
  in.height.assign(4, 30);
  in.edge_src = {0, 1, 2, 3};  // 0 → 1 → 2 → 3 → 1: the last edge closes a loop
  in.edge_dst = {1, 2, 3, 1};
  const GraphLayout out = layered_layout(in);
  EXPECT_EQ(out.edge_reversed, (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_GT(out.y[3], out.y[1]);
  expect_layout_valid(in, out);
}

TEST(GraphLayout, LongEdgesGetDummyPoints) {
  LayoutInput in;
  in.width.assign(4, 50);
  in.height.assign(4, 30);
  in.edge_src = {0, 1, 2, 0};
  in.edge_dst = {1, 2, 3, 3};
  const GraphLayout out = layered_layout(in);
  EXPECT_EQ(out.dummies, 2);
  EXPECT_EQ(out.edge_point_offset[4] - out.edge_point_offset[3], 4u);  // ends + 2 dummies
  expect_layout_valid(in, out);
}

TEST(GraphLayout, BadInputIsSkippedNotFatal) {
  LayoutInput in;
  in.width = {10, 10};
  in.height = {10, 10};
  in.edge_src = {0, 5, 1, 0};
  in.edge_dst = {1, 0, 1, 1};  // out of range, self loop, duplicate
  in.node_group = {3, -1};     // no such group
  in.group_parent = {0};       // its own parent
  const GraphLayout out = layered_layout(in);
  EXPECT_EQ(out.edge_point_offset[2], out.edge_point_offset[1]);  // the bad edge has no points
  EXPECT_EQ(out.edge_point_offset[3], out.edge_point_offset[2]);  // nor the self loop
  EXPECT_LT(out.y[0], out.y[1]);
}

TEST(GraphLayout, EmptyGraph) {
  const GraphLayout out = layered_layout(LayoutInput{});
  EXPECT_EQ(out.width, 0);
  EXPECT_EQ(out.edge_point_offset.size(), 1u);
}

class GeneratedGraphs : public ::testing::TestWithParam<DagShape> {};

TEST_P(GeneratedGraphs, InvariantsHold) {
  const LayoutInput in = make_hlo_like_dag(GetParam());
  const GraphLayout out = layered_layout(in);
  expect_layout_valid(in, out);
  const int64_t crossing_groups = expect_group_edges_use_ports(in, out);
  if (GetParam().groups) {
    EXPECT_GT(crossing_groups, 0);
    // Without ports, edges do run over the members' layers: the check sees it.
    LayoutOptions no_ports;
    no_ports.group_ports = false;
    const GraphLayout plain = layered_layout(in, no_ports);
    expect_layout_valid(in, plain);
    const GroupEdgeCheck c = check_group_edges(in, plain);
    EXPECT_GT(c.no_border + c.jumps, c.checked / 10);
  }
}

TEST_P(GeneratedGraphs, CrossingsNoWorseThanReferences) {
  const LayoutInput in = make_hlo_like_dag(GetParam());
  LayoutOptions dfs_only;
  dfs_only.order_sweeps = 0;
  LayoutOptions one_pass;
  one_pass.order_sweeps = 1;
  const int64_t reference_dfs = layered_layout(in, dfs_only).crossings;
  const int64_t reference_one = layered_layout(in, one_pass).crossings;
  const int64_t ours = layered_layout(in).crossings;
  EXPECT_LE(ours, reference_dfs);
  EXPECT_LE(ours, reference_one);
  // On graphs this size the sweeps must actually help, not just keep the start.
  if (reference_dfs > 100) {
    EXPECT_LT(ours, reference_dfs * 9 / 10) << reference_dfs;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, GeneratedGraphs,
                         ::testing::Values(DagShape{300, 1, 0.0, 0, false},
                                           DagShape{2000, 2, 0.0, 0, false},
                                           DagShape{1500, 3, 0.02, 0, false},
                                           DagShape{1200, 4, 0.0, 12, false},
                                           DagShape{1500, 5, 0.01, 16, true}),
                         [](const ::testing::TestParamInfo<DagShape>& param_info) {
                           const DagShape& d = param_info.param;
                           return "n" + std::to_string(d.nodes) + "_seed" + std::to_string(d.seed) +
                                  (d.back_edge_share > 0 ? "_cycles" : "") +
                                  (d.groups ? "_groups" + std::to_string(d.groups) : "") +
                                  (d.nested ? "_nested" : "");
                         });

}  // namespace
}  // namespace strata::graph
