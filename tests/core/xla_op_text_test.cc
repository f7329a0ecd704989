// An instruction's expression and category from its module (core/formats/xplane/xla_op_text.h),
// as XProf derives them for GPU ops: XLA's text line without metadata, and ToCategory.
#include "core/formats/xplane/xla_op_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/formats/hlo/hlo_text_parser.h"

namespace strata {
namespace {

constexpr const char* kModule = R"(HloModule jit_f

%fused_computation (p.0: f32[8]) -> f32[8] {
  %p.0 = f32[8]{0} parameter(0)
  ROOT %multiply.0 = f32[8]{0} multiply(f32[8]{0} %p.0, f32[8]{0} %p.0)
}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %add.1 = f32[] add(f32[] %a, f32[] %b)
}

ENTRY %main (x: f32[8], y: s32[8]) -> f32[] {
  %x = f32[8]{0} parameter(0)
  %y = s32[8]{0} parameter(1)
  %fusion.1 = f32[8]{0} fusion(f32[8]{0} %x), kind=kLoop, calls=%fused_computation, metadata={op_name="jit(f)/mul"}
  %copy.2 = f32[8]{0} copy(f32[8]{0} %fusion.1)
  %negate.3 = f32[8]{0} negate(f32[8]{0} %copy.2)
  %bc.4 = f32[8]{0} bitcast-convert(s32[8]{0} %y)
  %bc.5 = f16[16]{0} bitcast-convert(f32[8]{0} %negate.3)
  %dot.6 = f32[] dot(f32[8]{0} %negate.3, f32[8]{0} %bc.4), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  %zero = f32[] constant(0)
  %reduce.7 = f32[] reduce(f32[8]{0} %negate.3, f32[] %zero), dimensions={0}, to_apply=%add
  %cc.8 = f32[8]{0} custom-call(f32[8]{0} %x), custom_call_target="__cublas$gemm", backend_config="{}"
  %fusion.9 = f32[8]{0} fusion(f32[8]{0} %x), kind=kInput, calls=%fused_computation
  %fusion.10 = f32[8]{0} fusion(f32[8]{0} %x), kind=kOutput, calls=%fused_computation
  %fusion.11 = f32[8]{0} fusion(f32[8]{0} %x), kind=kCustom, calls=%fused_computation
  %transpose.12 = f32[8]{0} transpose(f32[8]{0} %x), dimensions={0}
  ROOT %r = f32[] add(f32[] %dot.6, f32[] %reduce.7)
}
)";

class XlaOpText : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(hlo::parse_hlo_text(kModule, &modules_, &error)) << error;
    ASSERT_EQ(modules_.size(), 1u);
  }
  std::string category(const char* name) const {
    const uint32_t i = modules_[0].find(name);
    EXPECT_NE(i, kNone) << name;
    return hlo_instruction_category(modules_[0], i);
  }
  std::string expression(const char* name) const {
    const uint32_t i = modules_[0].find(name);
    EXPECT_NE(i, kNone) << name;
    return hlo_instruction_expression(modules_[0], i);
  }
  std::vector<hlo::HloModule> modules_;
};

TEST_F(XlaOpText, CategoriesAsXlaNamesThem) {
  EXPECT_EQ(category("fusion.1"), "loop fusion");
  EXPECT_EQ(category("fusion.9"), "input fusion");
  EXPECT_EQ(category("fusion.10"), "output fusion");
  EXPECT_EQ(category("fusion.11"), "custom fusion");
  EXPECT_EQ(category("copy.2"), "data formatting");  // before elementwise: copy is both
  EXPECT_EQ(category("transpose.12"), "data formatting");
  EXPECT_EQ(category("negate.3"), "non-fusion elementwise");
  EXPECT_EQ(category("r"), "non-fusion elementwise");
  EXPECT_EQ(category("zero"), "non-fusion elementwise");  // XLA: a constant is elementwise
  EXPECT_EQ(category("bc.4"), "non-fusion elementwise");  // same element width
  EXPECT_EQ(category("bc.5"), "bitcast-convert");         // 32 → 16 bits: not elementwise
  EXPECT_EQ(category("dot.6"), "dot");
  EXPECT_EQ(category("reduce.7"), "reduce");
  EXPECT_EQ(category("cc.8"), "custom-call");
  EXPECT_EQ(category("x"), "parameter");
}

TEST_F(XlaOpText, ExpressionsAreTheHloLineWithoutMetadata) {
  EXPECT_EQ(expression("fusion.1"),
            "%fusion.1 = f32[8]{0} fusion(f32[8]{0} %x), kind=kLoop, calls=%fused_computation");
  EXPECT_EQ(expression("negate.3"), "%negate.3 = f32[8]{0} negate(f32[8]{0} %copy.2)");
  EXPECT_EQ(expression("reduce.7"),
            "%reduce.7 = f32[] reduce(f32[8]{0} %negate.3, f32[] %zero), dimensions={0}, "
            "to_apply=%add");
  EXPECT_EQ(expression("cc.8"),
            "%cc.8 = f32[8]{0} custom-call(f32[8]{0} %x), custom_call_target=\"__cublas$gemm\"");
  EXPECT_EQ(expression("x"), "%x = f32[8]{0} parameter(0)");
  EXPECT_EQ(expression("zero"), "");  // its literal is not kept: nothing rather than a guess
  EXPECT_EQ(hlo_instruction_expression(modules_[0], 100000), "");
}

}  // namespace
}  // namespace strata
