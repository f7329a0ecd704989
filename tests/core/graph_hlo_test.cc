// The graph viewer's pipeline on real HLO modules: visible graph → box sizes → layered layout
// (the invariants of graph_layout_checks.h) → the worker's binary message, read back as the UI
// reads it. Skips when ../shared/data is absent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/json/json_flat.h"
#include "core/graph/graph_message.h"
#include "core/graph/hlo_graph.h"
#include "core/graph/layered_layout.h"
#include "graph_layout_checks.h"
#include "hlo_test_util.h"
#include "import_test_util.h"

namespace strata::graph {
namespace {

std::vector<uint32_t> every_caller(const hlo::HloModule& m) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < m.instruction_count(); ++i)
    if (!m.called_of(i).empty()) out.push_back(i);
  return out;
}

void check_module(const hlo::HloModule& m, const hlo::VisibleGraphRequest& req, size_t min_nodes) {
  const hlo::VisibleGraph vis = hlo::build_visible_graph(m, req);
  ASSERT_GE(vis.node_count(), min_nodes);
  const LayoutInput in = hlo_layout_input(m, vis);
  const GraphLayout out = layered_layout(in);
  expect_layout_valid(in, out);
  const int64_t crossing_groups = expect_group_edges_use_ports(in, out);
  if (!req.expanded.empty()) {
    EXPECT_GT(crossing_groups, 0);
  }
  LayoutOptions dfs_only;
  dfs_only.order_sweeps = 0;
  EXPECT_LE(out.crossings, layered_layout(in, dfs_only).crossings);

  // The message as the UI reads it.
  const std::vector<uint8_t> bytes = write_graph_message(m, 0, m.entry, vis, in, out, 1.5);
  GraphData d;
  ASSERT_TRUE(read_graph_message(bytes.data(), bytes.size(), &d));
  ASSERT_EQ(d.instr.size(), vis.node_count());
  EXPECT_EQ(d.edge_src.size(), vis.edge_src.size());
  EXPECT_EQ(d.group_label.size(), vis.group_instr.size());
  for (uint32_t k = 0; k < vis.node_count(); ++k) {
    EXPECT_EQ(d.name[k], m.str(m.name[vis.node_instr[k]]));
    EXPECT_EQ(d.x[k], out.x[k]);
  }
  // Cut anywhere, it is refused, never read past its end.
  for (size_t cut : {size_t{0}, size_t{7}, bytes.size() / 2, bytes.size() - 1})
    EXPECT_FALSE(read_graph_message(bytes.data(), cut, &d));
}

TEST(GraphHlo, KernelReuseModulesLayOutCleanly) {
  std::vector<hlo::HloModule> modules;
  if (!testing::read_shared_hlo("hlo/xla/kernel_reuse.hlo", &modules)) GTEST_SKIP();
  ASSERT_FALSE(modules.empty());
  for (const hlo::HloModule& m : modules) {
    check_module(m, {}, 1);
    hlo::VisibleGraphRequest open;
    open.expanded = every_caller(m);
    check_module(m, open, 1);
  }
}

TEST(GraphHlo, LlamaEntryCollapsedAndFullyExpanded) {
  std::vector<hlo::HloModule> modules;
  if (!testing::read_shared_hlo(testing::kLlamaHlo, &modules)) GTEST_SKIP();
  ASSERT_FALSE(modules.empty());
  const hlo::HloModule& m = modules[0];
  check_module(m, {}, 1000);
  hlo::VisibleGraphRequest open;
  open.expanded = every_caller(m);
  check_module(m, open, 10000);  // every fusion and call opened: the benchmark's 10k+ graph
}

TEST(GraphHlo, TracelensProtoAndDetails) {
  std::string bytes;
  if (!testing::read_shared("hlo/tracelens/jax_conv_minimal/jit__normal(11).hlo_proto.pb", &bytes))
    GTEST_SKIP();
  hlo::HloModule m;
  std::string error;
  ASSERT_TRUE(hlo::parse_hlo_proto(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &m,
                                   &error))
      << error;
  check_module(m, {}, 2);
  // Details of the root: valid JSON naming its operands with shapes.
  const uint32_t root = m.comp_root[m.entry];
  ASSERT_NE(root, kNone);
  std::vector<JsonLine> lines;
  ASSERT_TRUE(json_flatten(instruction_details_json(m, root), &lines, &error)) << error;
  EXPECT_EQ(lines[0].key, "name");
  EXPECT_EQ(lines[0].value, m.str(m.name[root]));
  size_t operand_shapes = 0;
  for (const JsonLine& l : lines)
    if (l.depth == 2 && l.key == "shape") ++operand_shapes;
  EXPECT_EQ(operand_shapes, m.operands_of(root).size());
}

}  // namespace
}  // namespace strata::graph
