// Where the Graph tab starts on a computation too big to read whole (core/graph/overview.h):
// its largest op (the one holding the most instructions, then writing the most bytes; never a
// parameter or a pass-through op) and the radius keeping that neighbourhood readable; small
// computations are shown whole. On generated text and on the real Llama 3.1 8B step.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/formats/hlo/hlo_text_parser.h"
#include "core/graph/hlo_graph.h"
#include "core/graph/overview.h"
#include "hlo_test_util.h"

namespace strata::graph {
namespace {

hlo::HloModule parse(const std::string& text) {
  std::vector<hlo::HloModule> modules;
  std::string error;
  EXPECT_TRUE(hlo::parse_hlo_text(text, &modules, &error)) << error;
  return modules.empty() ? hlo::HloModule() : std::move(modules[0]);
}

// An entry of `chain` negates in a row after a dot and a big broadcast; optionally a call of a
// computation of `body` instructions.
std::string module_text(int chain, int body) {
  std::string t = "HloModule big\n\n";
  if (body > 0) {
    t += "body {\n  b0 = f32[4] parameter(0)\n";
    for (int k = 1; k < body; ++k)
      t += "  b" + std::to_string(k) + " = f32[4] negate(b" + std::to_string(k - 1) + ")\n";
    t += "  ROOT out = f32[4] negate(b" + std::to_string(body - 1) + ")\n}\n\n";
  }
  t += "ENTRY main {\n  p = f32[8,16] parameter(0)\n  q = f32[16,4] parameter(1)\n";
  t += "  wide = f32[4096,4096] broadcast(p), dimensions={}\n";  // biggest, but only a fill
  t += "  d = f32[8,4] dot(p, q), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n";
  t += "  small = f32[2] negate(d)\n";
  std::string last = "d";
  for (int k = 0; k < chain; ++k) {
    const std::string name = "n" + std::to_string(k);
    t += "  " + name + " = f32[8,4] negate(" + last + ")\n";
    last = name;
  }
  if (body > 0) t += "  c = f32[4] call(small), to_apply=body\n";
  t += "  ROOT r = f32[8,4] negate(" + last + ")\n}\n";
  return t;
}

TEST(GraphOverview, ResultBytesAndHeldInstructions) {
  const hlo::HloModule m = parse(module_text(3, 5));
  EXPECT_EQ(result_bytes(m, m.find("wide")), 4096u * 4096u * 4u);
  EXPECT_EQ(result_bytes(m, m.find("d")), 8u * 4u * 4u);
  EXPECT_EQ(held_instructions(m, m.find("c")), 6u);  // the body's five and its root
  EXPECT_EQ(held_instructions(m, m.find("d")), 0u);
  // A reduce's to_apply is a helper, not structure.
  const hlo::HloModule r = parse(
      "HloModule r\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(x, y)\n}\n\nENTRY main {\n  p = f32[8] parameter(0)\n"
      "  z = f32[] constant(0)\n  ROOT t = f32[] reduce(p, z), dimensions={0}, to_apply=add\n}\n");
  EXPECT_EQ(held_instructions(r, r.find("t")), 0u);
}

TEST(GraphOverview, LargestOpHoldsTheMostThenWritesTheMost) {
  const hlo::HloModule with_call = parse(module_text(3, 5));
  EXPECT_EQ(with_call.str(with_call.name[largest_op(with_call, with_call.entry)]), "c")
      << "a call holding a computation is the top-level structure";
  const hlo::HloModule flat = parse(module_text(3, 0));
  // The broadcast writes more, but only fills: the dot's f32[8,4] ties the negates' and comes
  // first.
  EXPECT_EQ(flat.str(flat.name[largest_op(flat, flat.entry)]), "d");
}

TEST(GraphOverview, SmallComputationsShowWhole) {
  const hlo::HloModule m = parse(module_text(10, 0));
  const OverviewStart s = overview_start(m, m.entry);
  EXPECT_EQ(s.instr, kNone);
  EXPECT_EQ(s.hops, 0u);
}

TEST(GraphOverview, BigComputationsStartOnTheLargestOpWithAReadableRadius) {
  const hlo::HloModule m = parse(module_text(static_cast<int>(kOverviewMinNodes), 0));
  ASSERT_GT(m.comp_count[m.entry], kOverviewMinNodes);
  const OverviewStart s = overview_start(m, m.entry);
  ASSERT_NE(s.instr, kNone);
  EXPECT_EQ(m.str(m.name[s.instr]), "d");
  EXPECT_EQ(s.hops, kOverviewMaxHops);  // a chain: three hops are a handful of ops
  EXPECT_LE(hlo::neighbourhood(m, s.instr, s.hops).size(), kOverviewMaxNodes);
}

TEST(GraphOverview, RadiusShrinksWhereTheGraphFansOut) {
  // One op feeding hundreds, each feeding another: two hops would be too many.
  std::string t = "HloModule fan\n\nENTRY main {\n  p = f32[64] parameter(0)\n";
  t += "  hub = f32[64] sqrt(p)\n";
  for (int k = 0; k < 600; ++k) {
    t += "  a" + std::to_string(k) + " = f32[2] slice(hub), slice={[0:2]}\n";
    t += "  b" + std::to_string(k) + " = f32[2] negate(a" + std::to_string(k) + ")\n";
  }
  t += "  ROOT r = f32[64] negate(hub)\n}\n";
  const hlo::HloModule m = parse(t);
  const OverviewStart s = overview_start(m, m.entry);
  ASSERT_NE(s.instr, kNone);
  EXPECT_EQ(m.str(m.name[s.instr]), "hub");
  EXPECT_EQ(s.hops, 1u) << "at least one hop, even when that is many";
}

TEST(GraphOverview, LlamaEntryOpensOnAReadableNeighbourhood) {
  std::vector<hlo::HloModule> modules;
  if (!testing::read_shared_hlo(testing::kLlamaHlo, &modules)) GTEST_SKIP();
  ASSERT_EQ(modules.size(), 1u);
  const hlo::HloModule& m = modules[0];
  ASSERT_GT(m.comp_count[m.entry], 20000u);
  const OverviewStart s = overview_start(m, m.entry);
  ASSERT_NE(s.instr, kNone);
  EXPECT_EQ(m.computation[s.instr], m.entry);
  EXPECT_NE(m.str(m.opcode[s.instr]), "parameter");
  EXPECT_GE(s.hops, 1u);
  const size_t shown = hlo::neighbourhood(m, s.instr, s.hops).size();
  EXPECT_GT(shown, 1u);
  EXPECT_LE(shown, std::max<size_t>(kOverviewMaxNodes, hlo::neighbourhood(m, s.instr, 1).size()));
  // Nothing in the entry writes more bytes among the candidates that hold as much.
  const uint64_t best = result_bytes(m, s.instr);
  for (uint32_t i = m.comp_first[m.entry]; i < m.comp_first[m.entry] + m.comp_count[m.entry]; ++i)
    if (m.str(m.opcode[i]) == "dot") {
      EXPECT_LE(result_bytes(m, i), best) << m.str(m.name[i]);
    }
}

}  // namespace
}  // namespace strata::graph
