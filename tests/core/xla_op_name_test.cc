// The HLO instruction of an XLA op (core/formats/xplane/xla_op_name.h): the `hlo_op` stat, else
// the metadata name of an XLA op, else the instruction `long_name` defines.
#include "core/formats/xplane/xla_op_name.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(XlaOpName, TheHloOpStatWins) {
  XlaOpNaming e;
  e.hlo_op = "fusion.7";
  e.metadata_name = "loop_multiply_fusion";  // a GPU kernel's name
  e.long_name = "%other.1 = f32[] add(f32[] %a, f32[] %b)";
  e.has_program_or_module = true;
  EXPECT_EQ(xla_hlo_instruction(e), "fusion.7");
}

TEST(XlaOpName, OnAnXlaOpsLineTheMetadataNameIsTheInstruction) {
  XlaOpNaming e;  // TPU: no hlo_op stat
  e.metadata_name = "copy-start.2";
  e.long_name = "%copy-start.2 = (f32[8]{0}, f32[8]{0}, u32[]) copy-start(f32[8]{0} %p)";
  e.on_xla_ops_line = true;
  EXPECT_EQ(xla_hlo_instruction(e), "copy-start.2");
}

TEST(XlaOpName, WithAProgramOrModuleTheMetadataNameIsTheInstruction) {
  XlaOpNaming e;
  e.metadata_name = "fusion.3";
  e.has_program_or_module = true;
  EXPECT_EQ(xla_hlo_instruction(e), "fusion.3");
}

TEST(XlaOpName, AMetadataNameThatIsAnHloLineGivesItsInstruction) {
  XlaOpNaming e;
  e.metadata_name = "%fusion.3 = f32[8]{0} fusion(f32[8]{0} %p), kind=kLoop";
  e.on_xla_ops_line = true;
  EXPECT_EQ(xla_hlo_instruction(e), "fusion.3");
}

TEST(XlaOpName, ElseTheLongNameNamesIt) {
  XlaOpNaming e;  // not on XLA Ops, no program or module: the metadata name is not trusted
  e.metadata_name = "some kernel";
  e.long_name = "ROOT %tuple.9 = (f32[]) tuple(f32[] %x)";
  EXPECT_EQ(xla_hlo_instruction(e), "tuple.9");
  e.long_name = "not an instruction";
  EXPECT_EQ(xla_hlo_instruction(e), "");
  // An XLA op whose metadata name is not a name (spaces) falls back to long_name too.
  e.on_xla_ops_line = true;
  e.long_name = "%dot.4 = f32[8,8]{1,0} dot(f32[8,8]{1,0} %a, f32[8,8]{1,0} %b)";
  EXPECT_EQ(xla_hlo_instruction(e), "dot.4");
}

TEST(XlaOpName, NothingNamesNothing) {
  EXPECT_EQ(xla_hlo_instruction(XlaOpNaming{}), "");
  XlaOpNaming e;
  e.hlo_op = "  ";
  EXPECT_EQ(xla_hlo_instruction(e), "");
}

TEST(XlaOpName, HloTextLines) {
  EXPECT_EQ(hlo_text_instruction_name("%fusion.3 = f32[8]{0} fusion(f32[8]{0} %p)"), "fusion.3");
  EXPECT_EQ(hlo_text_instruction_name("  ROOT %r = f32[] add(f32[] %a, f32[] %b)"), "r");
  EXPECT_EQ(hlo_text_instruction_name("x.1 = s32[] constant(1)"), "x.1");
  EXPECT_EQ(hlo_text_instruction_name("fusion.3"), "");
  EXPECT_EQ(hlo_text_instruction_name("a b = c"), "");
  EXPECT_EQ(hlo_text_instruction_name(""), "");
}

}  // namespace
}  // namespace strata
