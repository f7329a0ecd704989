// Graph queries over parsed HLO: search, N-hop neighbourhoods and the visible graph (collapsed
// and expanded fusions, while and conditional groups, focus + hops), on real dumps from
// ../shared/data/hlo (skipped when absent) and on a small module written here.
#include "core/graph/hlo_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/formats/hlo/hlo_text_parser.h"
#include "import_test_util.h"

namespace strata::hlo {
namespace {

std::vector<HloModule> parse_or_die(std::string_view text) {
  std::vector<HloModule> modules;
  std::string error;
  EXPECT_TRUE(parse_hlo_text(text, &modules, &error)) << error;
  return modules;
}

std::set<std::pair<uint32_t, uint32_t>> edge_set(const VisibleGraph& g) {
  std::set<std::pair<uint32_t, uint32_t>> out;
  for (size_t e = 0; e < g.edge_src.size(); ++e) out.emplace(g.edge_src[e], g.edge_dst[e]);
  return out;
}

// Structural invariants every visible graph keeps.
void check_graph(const HloModule& m, const VisibleGraph& g) {
  const uint32_t nn = g.node_count();
  ASSERT_EQ(g.node_group.size(), nn);
  ASSERT_EQ(g.edge_src.size(), g.edge_dst.size());
  ASSERT_EQ(g.edge_operand.size(), g.edge_src.size());
  EXPECT_EQ(edge_set(g).size(), g.edge_src.size()) << "edges are unique";
  for (size_t e = 0; e < g.edge_src.size(); ++e) {
    ASSERT_LT(g.edge_src[e], nn);
    ASSERT_LT(g.edge_dst[e], nn);
  }
  std::set<uint32_t> seen;
  for (uint32_t k = 0; k < nn; ++k) {
    const uint32_t i = g.node_instr[k];
    ASSERT_LT(i, m.instruction_count());
    EXPECT_TRUE(seen.insert(i).second) << "an instruction is one node";
    EXPECT_EQ(g.node_of(i), k);
    const int32_t gid = g.node_group[k];
    ASSERT_LT(gid, static_cast<int32_t>(g.group_instr.size()));
    if (gid >= 0) {
      // Its computation is called by the group's instruction.
      auto called = m.called_of(g.group_instr[gid]);
      EXPECT_NE(std::find(called.begin(), called.end(), m.computation[i]), called.end());
    }
  }
  for (size_t gid = 0; gid < g.group_instr.size(); ++gid) {
    EXPECT_LT(g.group_parent[gid], static_cast<int32_t>(gid));
    EXPECT_EQ(g.node_of(g.group_instr[gid]), kNone) << "an expanded instruction is no node";
  }
}

TEST(HloGraph, KernelReuseFusionCollapsedAndExpanded) {
  std::string text;
  if (!testing::read_shared("hlo/xla/kernel_reuse.hlo", &text)) GTEST_SKIP();
  auto modules = parse_or_die(text);
  const HloModule& m = modules.at(0);
  // Collapsed: the entry's instructions and their distinct operand → user pairs.
  VisibleGraph g = build_visible_graph(m, {});
  check_graph(m, g);
  EXPECT_EQ(g.node_count(), m.comp_count[m.entry]);
  std::set<std::pair<uint32_t, uint32_t>> want;
  for (uint32_t i = m.comp_first[m.entry]; i < m.comp_first[m.entry] + m.comp_count[m.entry]; ++i)
    for (uint32_t o : m.operands_of(i)) want.emplace(g.node_of(o), g.node_of(i));
  EXPECT_EQ(edge_set(g), want);
  EXPECT_TRUE(g.group_instr.empty());

  // fusion.2 expanded: its four fused instructions replace it, wired through param and root.
  const uint32_t f = m.find("fusion.2");
  VisibleGraphRequest req;
  req.expanded = {f};
  g = build_visible_graph(m, req);
  check_graph(m, g);
  EXPECT_EQ(g.node_count(), m.comp_count[m.entry] - 1 + 4);
  ASSERT_EQ(g.group_instr, std::vector<uint32_t>{f});
  EXPECT_EQ(g.group_parent, std::vector<int32_t>{-1});
  EXPECT_EQ(g.node_of(f), kNone);
  const uint32_t param = g.node_of(m.find("param_0.8")), root = g.node_of(m.find("sqrt.15"));
  ASSERT_NE(param, kNone);
  ASSERT_NE(root, kNone);
  EXPECT_EQ(g.node_group[param], 0);
  EXPECT_EQ(g.node_group[g.node_of(m.find("custom-call"))], -1);
  auto edges = edge_set(g);
  EXPECT_TRUE(edges.count({g.node_of(m.find("custom-call")), param}));
  for (size_t k = 0; k < g.edge_src.size(); ++k) {
    if (g.edge_dst[k] == param) {
      EXPECT_EQ(g.edge_operand[k], 0u) << "fusion.2's operand 0";
    }
  }
  EXPECT_TRUE(edges.count({root, g.node_of(m.find("custom-call.1"))}));
  EXPECT_TRUE(edges.count({g.node_of(m.find("sqrt.17")), g.node_of(m.find("sqrt.16"))}));

  // Focus inside the collapsed fusion: the fusion's node is the focus; 1 hop = it, its
  // operand and its user.
  req = {};
  req.focus = m.find("sqrt.16");
  req.hops = 1;
  g = build_visible_graph(m, req);
  check_graph(m, g);
  ASSERT_NE(g.focus_node, kNone);
  EXPECT_EQ(g.node_instr[g.focus_node], f);
  std::set<uint32_t> got(g.node_instr.begin(), g.node_instr.end());
  EXPECT_EQ(got, (std::set<uint32_t>{m.find("custom-call"), f, m.find("custom-call.1")}));

  // Search: name or opcode, any case.
  auto found = find_instructions(m, "FUSION");
  EXPECT_EQ(found,
            (std::vector<uint32_t>{m.find("fusion.2"), m.find("fusion.1"), m.find("fusion")}));
  EXPECT_EQ(find_instructions(m, "sqrt", 2).size(), 2u);
  EXPECT_TRUE(find_instructions(m, "").empty());
  EXPECT_TRUE(find_instructions(m, "no such op").empty());
}

constexpr std::string_view kModule = R"(HloModule loops

cond {
  t = (s32[], f32[2]{0}) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  t = (s32[], f32[2]{0}) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  v = f32[2]{0} get-tuple-element(t), index=1
  ROOT t2 = (s32[], f32[2]{0}) tuple(i, v)
}

b0 {
  x = f32[2]{0} parameter(0)
  ROOT y = f32[2]{0} negate(x)
}

b1 {
  x = f32[2]{0} parameter(0)
  ROOT y = f32[2]{0} abs(x)
}

ENTRY main {
  in = f32[2]{0} parameter(0)
  i0 = s32[] constant(0)
  init = (s32[], f32[2]{0}) tuple(i0, in)
  w = (s32[], f32[2]{0}) while(init), condition=cond, body=body
  g = f32[2]{0} get-tuple-element(w), index=1
  k = s32[] constant(1)
  c = f32[2]{0} conditional(k, g, in), branch_computations={b0, b1}
  ROOT out = f32[2]{0} add(c, g)
}
)";

TEST(HloGraph, WhileAndConditionalGroups) {
  auto modules = parse_or_die(kModule);
  const HloModule& m = modules.at(0);
  const uint32_t cond = m.find_computation("cond"), body = m.find_computation("body"),
                 b0 = m.find_computation("b0"), b1 = m.find_computation("b1");
  auto instr = [&](uint32_t comp, const char* name) {
    for (uint32_t i = m.comp_first[comp]; i < m.comp_first[comp] + m.comp_count[comp]; ++i)
      if (m.str(m.name[i]) == name) return i;
    return kNone;
  };
  VisibleGraphRequest req;
  req.expanded = {m.find("w"), m.find("c")};
  VisibleGraph g = build_visible_graph(m, req);
  check_graph(m, g);
  EXPECT_EQ(g.group_instr.size(), 2u);
  EXPECT_EQ(g.node_count(), 8u - 2 + 4 + 4 + 2 + 2);
  auto edges = edge_set(g);
  auto node = [&](uint32_t comp, const char* name) { return g.node_of(instr(comp, name)); };
  const uint32_t e = m.entry;
  // The while's operand reaches both its condition's and its body's parameter; its result
  // leaves from the body's root only (the condition's root is a pred).
  EXPECT_TRUE(edges.count({node(e, "init"), node(cond, "t")}));
  EXPECT_TRUE(edges.count({node(e, "init"), node(body, "t")}));
  EXPECT_TRUE(edges.count({node(body, "t2"), node(e, "g")}));
  EXPECT_FALSE(edges.count({node(cond, "lt"), node(e, "g")}));
  // Conditional: operand k + 1 is branch k's parameter; the predicate stays outside; every
  // branch root feeds the users.
  EXPECT_TRUE(edges.count({node(e, "g"), node(b0, "x")}));
  EXPECT_TRUE(edges.count({node(e, "in"), node(b1, "x")}));
  EXPECT_FALSE(edges.count({node(e, "g"), node(b1, "x")}));
  EXPECT_FALSE(edges.count({node(e, "k"), node(b0, "x")}));
  EXPECT_TRUE(edges.count({node(b0, "y"), node(e, "out")}));
  EXPECT_TRUE(edges.count({node(b1, "y"), node(e, "out")}));
  for (uint32_t k = 0; k < g.node_count(); ++k) {
    const uint32_t comp = m.computation[g.node_instr[k]];
    const int32_t want = comp == e ? -1 : (comp == cond || comp == body) ? 0 : 1;
    EXPECT_EQ(g.node_group[k], want) << m.str(m.name[g.node_instr[k]]);
  }
  // Another computation shown on its own.
  req = {};
  req.computation = body;
  g = build_visible_graph(m, req);
  check_graph(m, g);
  EXPECT_EQ(g.node_count(), m.comp_count[body]);
  // Focus with hops in the expanded graph: everything within 1 step of body's root.
  req = {};
  req.expanded = {m.find("w")};
  req.focus = instr(body, "t2");
  req.hops = 1;
  g = build_visible_graph(m, req);
  check_graph(m, g);
  std::set<std::string> names;
  for (uint32_t i : g.node_instr) names.insert(std::string(m.str(m.name[i])));
  EXPECT_EQ(names, (std::set<std::string>{"t2", "i", "v", "g"}));
  ASSERT_EQ(g.group_instr.size(), 1u);
  EXPECT_EQ(g.node_group[g.focus_node], 0);
}

// On the real dumps: with nothing expanded, focus + hops gives exactly the neighbourhood;
// neighbourhoods grow with hops and hold operands and users; expanding every call-like
// instruction of the entry keeps the invariants.
TEST(HloGraph, RealModulesNeighbourhoodsAndExpansion) {
  bool tested = false;
  for (const char* rel : {"hlo/xla/hlo_llama31_70b_bf16_16x8.hlo", "hlo/xla/mobilenet_v2.hlo",
                          "hlo/xla/kernel_reuse.hlo"}) {
    std::string text;
    if (!testing::read_shared(rel, &text)) continue;
    tested = true;
    SCOPED_TRACE(rel);
    for (const HloModule& m : parse_or_die(text)) {
      const uint32_t e = m.entry, first = m.comp_first[e], count = m.comp_count[e];
      for (uint32_t step = 0; step < 5; ++step) {
        const uint32_t focus = first + (count * step) / 5;
        std::vector<uint32_t> prev;
        for (uint32_t hops = 0; hops <= 3; ++hops) {
          std::vector<uint32_t> nb = neighbourhood(m, focus, hops);
          EXPECT_TRUE(std::is_sorted(nb.begin(), nb.end()));
          EXPECT_TRUE(std::includes(nb.begin(), nb.end(), prev.begin(), prev.end()));
          if (hops == 0) {
            EXPECT_EQ(nb, std::vector<uint32_t>{focus});
          }
          if (hops == 1) {
            std::set<uint32_t> want{focus};
            for (uint32_t o : m.operands_of(focus)) want.insert(o);
            for (uint32_t u : m.users_of(focus)) want.insert(u);
            EXPECT_EQ(std::set<uint32_t>(nb.begin(), nb.end()), want);
          }
          VisibleGraphRequest req;
          req.focus = focus;
          req.hops = hops;
          VisibleGraph g = build_visible_graph(m, req);
          check_graph(m, g);
          std::vector<uint32_t> shown = g.node_instr;
          std::sort(shown.begin(), shown.end());
          EXPECT_EQ(shown, nb);
          prev = nb;
        }
      }
      VisibleGraphRequest all;
      for (uint32_t i = first; i < first + count; ++i)
        if (!m.called_of(i).empty()) all.expanded.push_back(i);
      VisibleGraph g = build_visible_graph(m, all);
      check_graph(m, g);
      EXPECT_GE(g.node_count(), count - all.expanded.size());
    }
  }
  if (!tested) GTEST_SKIP() << "no HLO samples in " << STRATA_SHARED_DATA;
}

TEST(HloGraph, OutOfRangeRequestsAreEmpty) {
  auto modules = parse_or_die(kModule);
  const HloModule& m = modules.at(0);
  VisibleGraphRequest req;
  req.computation = 999;
  EXPECT_EQ(build_visible_graph(m, req).node_count(), 0u);
  req = {};
  req.expanded = {12345};
  req.focus = 99999;
  VisibleGraph g = build_visible_graph(m, req);
  EXPECT_EQ(g.node_count(), m.comp_count[m.entry]);
  EXPECT_EQ(g.focus_node, kNone);
  EXPECT_TRUE(neighbourhood(m, 99999, 3).empty());
}

}  // namespace
}  // namespace strata::hlo
