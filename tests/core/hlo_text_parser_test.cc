// The HLO text parser on the real dumps in ../shared/data/hlo/xla (skipped when absent): module,
// computation and instruction counts and operand edges equal an independent line scan of the
// file; the model's derived lists agree with the operands; attributes, metadata, shapes with
// tiled layouts and memory spaces, tuple shapes and every computation attribute on small
// modules written here; truncated and malformed text fails with a line number, never a crash.
#include "core/formats/hlo/hlo_text_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "hlo_test_util.h"
#include "import_test_util.h"

namespace strata::hlo {
namespace {

const char* const kFiles[] = {
    "hlo/xla/hlo_llama31_70b_bf16_16x8.hlo",
    "hlo/xla/hlo_llama31_70b_fp8_16x8.hlo",
    "hlo/xla/hlo_llama31_8b_bf16_1x8.hlo",
    "hlo/xla/kernel_reuse.hlo",
    "hlo/xla/mobilenet_v2.hlo",
    "hlo/xla/nv_maxtext_1n1g_jit_train_step_before_optimization.hlo",
};

// The independent count: lines, not statements. A module starts at a line "HloModule ...", a
// computation at an unindented line ending in '{', ends at a line "}"; inside, every line with
// " = " is an instruction, and its operands are the depth-0 commas of the parenthesised list
// that follows the opcode, plus one (none for parameter/constant or an empty list).
struct Counts {
  size_t modules = 0, computations = 0, instructions = 0, operands = 0;
};

size_t count_operands(std::string_view line) {
  size_t at = line.find(" = ");
  if (at == std::string_view::npos) return 0;
  at += 3;
  // Skip the shape: a balanced tuple, or text up to the first space.
  if (line[at] == '(') {
    int depth = 0;
    for (; at < line.size(); ++at) {
      if (line[at] == '(') ++depth;
      if (line[at] == ')' && --depth == 0) break;
    }
    ++at;
  } else {
    at = line.find(' ', at);
  }
  while (at < line.size() && line[at] == ' ') ++at;
  size_t paren = line.find('(', at);
  std::string_view opcode = line.substr(at, paren - at);
  if (opcode == "parameter" || opcode == "constant") return 0;
  int depth = 0;
  size_t commas = 0;
  bool any = false, in_string = false;
  for (size_t i = paren + 1; i < line.size(); ++i) {
    char c = line[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ')' && depth == 0) break;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) ++commas;
    if (c != ' ') any = true;
  }
  return any ? commas + 1 : 0;
}

Counts scan_lines(const std::string& text) {
  Counts n;
  bool inside = false;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + at, nl - at);
    at = nl + 1;
    if (line.starts_with("HloModule ")) {
      ++n.modules;
    } else if (!inside && !line.empty() && line[0] != ' ' && !line.starts_with("//") &&
               line.back() == '{') {
      ++n.computations;
      inside = true;
    } else if (inside && line == "}") {
      inside = false;
    } else if (inside && line.find(" = ") != std::string_view::npos) {
      ++n.instructions;
      n.operands += count_operands(line);
    }
  }
  return n;
}

void check_model(const HloModule& m) {
  const uint32_t n = m.instruction_count();
  ASSERT_EQ(m.operand_begin.size(), n + 1);
  ASSERT_EQ(m.user_begin.size(), n + 1);
  ASSERT_NE(m.entry, kNone);
  for (uint32_t c = 0; c < m.computation_count(); ++c) {
    ASSERT_NE(m.comp_root[c], kNone) << m.str(m.comp_name[c]);
    for (uint32_t i = m.comp_first[c]; i < m.comp_first[c] + m.comp_count[c]; ++i)
      ASSERT_EQ(m.computation[i], c);
    EXPECT_EQ(m.find_computation(m.str(m.comp_name[c])), c);
  }
  size_t user_edges = 0;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t o : m.operands_of(i)) {
      ASSERT_EQ(m.computation[o], m.computation[i]) << "operands stay in the computation";
      auto users = m.users_of(o);
      ASSERT_NE(std::find(users.begin(), users.end(), i), users.end());
    }
    user_edges += m.users_of(i).size();
    for (uint32_t c : m.called_of(i)) {
      auto callers = m.callers_of(c);
      ASSERT_NE(std::find(callers.begin(), callers.end(), i), callers.end());
    }
    if (m.str(m.opcode[i]) == "parameter") {
      EXPECT_GE(m.parameter_number[i], 0);
    }
  }
  EXPECT_LE(user_edges, m.operands.size());
}

TEST(HloTextRealFiles, CountsEqualAnIndependentLineScan) {
  bool tested = false;
  for (const char* rel : kFiles) {
    std::string text;
    if (!testing::read_shared(rel, &text)) continue;
    tested = true;
    SCOPED_TRACE(rel);
    std::vector<HloModule> modules;
    std::string error;
    ASSERT_TRUE(parse_hlo_text(text, &modules, &error)) << error;
    Counts want = scan_lines(text);
    Counts got;
    got.modules = modules.size();
    for (const HloModule& m : modules) {
      got.computations += m.computation_count();
      got.instructions += m.instruction_count();
      got.operands += m.operands.size();
      check_model(m);
    }
    EXPECT_EQ(got.modules, want.modules);
    EXPECT_EQ(got.computations, want.computations);
    EXPECT_EQ(got.instructions, want.instructions);
    EXPECT_EQ(got.operands, want.operands);
    EXPECT_GT(got.instructions, 0u);
  }
  if (!tested) GTEST_SKIP() << "no HLO samples in " << STRATA_SHARED_DATA;
}

TEST(HloTextRealFiles, LlamaEightBillionAsSourcesDescribesIt) {
  std::vector<HloModule> modules;
  if (!testing::read_shared_hlo(testing::kLlamaHlo, &modules)) GTEST_SKIP();
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  EXPECT_EQ(m.module_name, "jit_train_step");
  EXPECT_EQ(m.computation_count(), 2915u);
  EXPECT_EQ(m.instruction_count(), 31855u);
  EXPECT_EQ(m.str(m.comp_name[m.entry]), "main.37670_spmd");
  // A custom call whose operands carry /*index=5*/ comments.
  uint32_t attn = m.find("te_fused_attn_forward_ffi.45");
  ASSERT_NE(attn, kNone);
  EXPECT_EQ(m.str(m.opcode[attn]), "custom-call");
  EXPECT_EQ(m.dtype[attn], kTuple);
  EXPECT_GT(m.operands_of(attn).size(), 10u);
  EXPECT_EQ(m.str(m.shape[attn]).substr(0, 31), "(bf16[2,8192,32,128]{3,2,1,0}, ");
}

TEST(HloTextRealFiles, KernelReuseHasFiveModulesWithScopedNames) {
  std::string text;
  if (!testing::read_shared("hlo/xla/kernel_reuse.hlo", &text)) GTEST_SKIP();
  std::vector<HloModule> modules;
  std::string error;
  ASSERT_TRUE(parse_hlo_text(text, &modules, &error)) << error;
  ASSERT_EQ(modules.size(), 5u);
  const HloModule& m = modules[0];
  EXPECT_EQ(m.module_name, "KernelReuse");
  const uint32_t f = m.find("fusion.2");
  ASSERT_NE(f, kNone);
  EXPECT_EQ(m.str(m.fusion_kind[f]), "kLoop");
  ASSERT_EQ(m.called_of(f).size(), 1u);
  const uint32_t fc = m.called_of(f)[0];
  EXPECT_EQ(m.str(m.comp_name[fc]), "fused_computation.2");
  EXPECT_TRUE(m.comp_is_fusion[fc]);
  EXPECT_FALSE(m.comp_is_fusion[m.entry]);
  EXPECT_EQ(m.str(m.name[m.comp_root[fc]]), "sqrt.15");
  const uint32_t cc = m.find("custom-call");
  EXPECT_EQ(m.str(m.custom_call_target[cc]), "__cublas$gemm");
  // backend_config is a quoted JSON string with braces and commas: unescaped whole.
  std::string_view config = m.str(m.backend_config[cc]);
  EXPECT_TRUE(config.starts_with("{ \"gemm_backend_config\": {\"alpha_real\":1,")) << config;
  EXPECT_TRUE(config.ends_with("}}")) << config;
  // The fourth module reuses `a`, `b`, `c` in every computation: each resolves in its own.
  const HloModule& m4 = modules[3];
  for (uint32_t c = 0; c < m4.computation_count(); ++c)
    for (uint32_t i = m4.comp_first[c]; i < m4.comp_first[c] + m4.comp_count[c]; ++i)
      for (uint32_t o : m4.operands_of(i)) EXPECT_EQ(m4.computation[o], c);
}

TEST(HloTextRealFiles, MetadataOfMobilenet) {
  std::string text;
  if (!testing::read_shared("hlo/xla/mobilenet_v2.hlo", &text)) GTEST_SKIP();
  std::vector<HloModule> modules;
  std::string error;
  ASSERT_TRUE(parse_hlo_text(text, &modules, &error)) << error;
  const HloModule& m = modules.at(0);
  // %constant.2058 = u64[] constant(0), metadata={op_type="aten__bernoulli"
  //   op_name="aten__bernoulli" source_file="dropout@functional.py" source_line=1252}
  const uint32_t i = m.find("constant.2058");
  ASSERT_NE(i, kNone);
  EXPECT_EQ(m.str(m.op_type[i]), "aten__bernoulli");
  EXPECT_EQ(m.str(m.op_name[i]), "aten__bernoulli");
  EXPECT_EQ(m.str(m.source_file[i]), "dropout@functional.py");
  EXPECT_EQ(m.source_line[i], 1252);
  EXPECT_EQ(m.str(m.shape[i]), "u64[]");
  EXPECT_EQ(m.dtype[i], kU64);
  EXPECT_TRUE(m.dims_of(i).empty());
  EXPECT_EQ(m.memory_space[i], kNoMemorySpace);
}

// XLA's own example of a TPU op (docs/shapes.md), in a module with every computation attribute.
constexpr std::string_view kModule =
    R"(HloModule example, entry_computation_layout={(f32[2]{0})->f32[2]{0}}

%all-reduce-scatter.3 (p: bf16[32,32,8192]) -> bf16[32,32,4096] {
  %p = bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)} parameter(0)
  ROOT %s = bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)} slice(bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)} %p), slice={[0:32], [0:32], [0:4096]}
}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}

cond {
  t = (s32[], f32[2]{0}) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  t = (s32[], f32[2]{0}) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  g = f32[2]{0} get-tuple-element(t), index=1
  ROOT t2 = (s32[], f32[2]{0}) tuple(i, /*index=1*/g)
}

b0 {
  x = f32[2]{0} parameter(0)
  ROOT y = f32[2]{0} negate(x)
}

b1 {
  x = f32[2]{0} parameter(0)
  ROOT y = f32[2]{0} abs(x)
}

ENTRY %main (in: f32[2]) -> f32[2] {
  %in = f32[2]{0} parameter(0)
  %big = bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)} parameter(1)
  %fusion.3 = bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)} fusion(bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)} %big), kind=kCustom, calls=%all-reduce-scatter.3
  %zero = f32[] constant(0)
  %r = f32[] reduce(f32[2]{0} %in, f32[] %zero), dimensions={0}, to_apply=%add, metadata={op_type="sum" op_name="jit(f)/reduce_sum" source_file="/src/a, b {c}.py" source_line=12}
  %init = (s32[], f32[2]{0}) tuple(s32[] %i0, f32[2]{0} %in)
  %i0 = s32[] constant(0)
  %w = (s32[], f32[2]{0}) while(%init), condition=cond, body=body, backend_config={"known_trip_count":{"n":"10"}}
  %k = s32[] constant(1)
  %c = f32[2]{0} conditional(%k, %in, %in), branch_computations={b0, b1}
  %p = pred[] constant(true)
  %c2 = f32[2]{0} conditional(%p, %in, %in), true_computation=b1, false_computation=b0
  %dyn = f32[<=4,?]{1,0} custom-call(%in), custom_call_target="Pad, \"to\" {static}", frontend_attributes={x="{a,b}"}
  ROOT %out = f32[2]{0} get-tuple-element(%w), index=1, sharding={replicated}
}
)";

TEST(HloText, ShapesLayoutsAttributesAndCalls) {
  std::vector<HloModule> modules;
  std::string error;
  ASSERT_TRUE(parse_hlo_text(kModule, &modules, &error)) << error;
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  check_model(m);
  EXPECT_EQ(m.computation_count(), 7u);
  EXPECT_EQ(m.str(m.comp_name[m.entry]), "main");
  const uint32_t f = m.find("fusion.3");
  ASSERT_NE(f, kNone);
  EXPECT_EQ(m.str(m.shape[f]), "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}");
  EXPECT_EQ(m.dtype[f], kBF16);
  EXPECT_EQ(std::vector<int64_t>(m.dims_of(f).begin(), m.dims_of(f).end()),
            (std::vector<int64_t>{32, 32, 4096}));
  EXPECT_EQ(m.str(m.layout[f]), "{2,1,0:T(8,128)(2,1)S(1)}");
  EXPECT_EQ(m.memory_space[f], kMemorySpaceTpuVmem);
  EXPECT_EQ(memory_space_label(m.memory_space[f]), "VMEM (TPU)");
  EXPECT_EQ(m.str(m.fusion_kind[f]), "kCustom");
  ASSERT_EQ(m.operands_of(f).size(), 1u);
  EXPECT_EQ(m.operands_of(f)[0], m.find("big"));
  ASSERT_EQ(m.called_of(f).size(), 1u);
  EXPECT_EQ(m.str(m.comp_name[m.called_of(f)[0]]), "all-reduce-scatter.3");
  EXPECT_TRUE(m.comp_is_fusion[m.called_of(f)[0]]);
  EXPECT_EQ(m.memory_space[m.find("in")], 0);

  const uint32_t r = m.find("r");
  EXPECT_EQ(m.str(m.comp_name[m.called_of(r)[0]]), "add");
  EXPECT_EQ(m.str(m.op_name[r]), "jit(f)/reduce_sum");
  EXPECT_EQ(m.str(m.source_file[r]), "/src/a, b {c}.py");
  EXPECT_EQ(m.source_line[r], 12);
  EXPECT_EQ(m.str(m.attrs[r]), "dimensions={0}");

  // Forward reference: %init uses %i0 defined after it.
  EXPECT_EQ(m.operands_of(m.find("init"))[0], m.find("i0"));
  const uint32_t w = m.find("w");
  ASSERT_EQ(m.called_of(w).size(), 2u);
  EXPECT_EQ(m.str(m.comp_name[m.called_of(w)[0]]), "cond");
  EXPECT_EQ(m.str(m.comp_name[m.called_of(w)[1]]), "body");
  EXPECT_EQ(m.str(m.backend_config[w]), "{\"known_trip_count\":{\"n\":\"10\"}}");
  EXPECT_EQ(m.str(m.shape[w]), "(s32[], f32[2]{0})");
  EXPECT_EQ(m.dtype[w], kTuple);
  EXPECT_EQ(m.memory_space[w], kNoMemorySpace);
  const uint32_t c = m.find("c");
  ASSERT_EQ(m.called_of(c).size(), 2u);
  EXPECT_EQ(m.operands_of(c).size(), 3u);
  const uint32_t c2 = m.find("c2");
  ASSERT_EQ(m.called_of(c2).size(), 2u);
  EXPECT_EQ(m.called_of(c2)[0], m.find_computation("b1"));
  EXPECT_EQ(m.called_of(c2)[1], m.find_computation("b0"));
  EXPECT_EQ(m.str(m.attrs[m.operands_of(c2)[0]]), "value=true");  // main's %p, not the fusion's
  EXPECT_EQ(m.callers_of(m.find_computation("b0")).size(), 2u);
  const uint32_t dyn = m.find("dyn");
  EXPECT_EQ(std::vector<int64_t>(m.dims_of(dyn).begin(), m.dims_of(dyn).end()),
            (std::vector<int64_t>{4, -1}));
  EXPECT_EQ(m.str(m.custom_call_target[dyn]), "Pad, \"to\" {static}");
  EXPECT_EQ(m.str(m.attrs[dyn]), "frontend_attributes={x=\"{a,b}\"}");
  // A tuple operand with a /*index=1*/ comment before the name.
  const uint32_t t2 = m.find("t2");
  EXPECT_EQ(m.operands_of(t2).size(), 2u);
  // `cond` and `body` both define `t` and `i`: the module-wide lookup gives the first.
  EXPECT_EQ(m.computation[m.find("t")], m.find_computation("cond"));
  EXPECT_EQ(m.str(m.name[m.comp_root[m.entry]]), "out");
  EXPECT_EQ(m.str(m.attrs[m.comp_root[m.entry]]), "index=1, sharding={replicated}");
  EXPECT_TRUE(looks_like_hlo_text(kModule));
  EXPECT_TRUE(looks_like_hlo_text("// comment\n\nHloModule m\n"));
  EXPECT_FALSE(looks_like_hlo_text("{\"traceEvents\":[]}"));
}

TEST(HloText, ShapeTextParsing) {
  ParsedShape s;
  ASSERT_TRUE(parse_shape_text("f32[5,5]{1,0}", &s));
  EXPECT_EQ(s.dtype, kF32);
  EXPECT_EQ(s.layout, "{1,0}");
  EXPECT_EQ(s.memory_space, 0);
  ASSERT_TRUE(parse_shape_text("s8[1024]{0:T(1024)(128)(4,1)S(5)}", &s));
  EXPECT_EQ(s.memory_space, kMemorySpaceHost);
  ASSERT_TRUE(parse_shape_text("f8e4m3fn[16,32]", &s));
  EXPECT_EQ(s.dtype, kF8E4M3FN);
  EXPECT_EQ(s.layout, "");
  EXPECT_EQ(s.memory_space, kNoMemorySpace);
  ASSERT_TRUE(parse_shape_text("token[]", &s));
  EXPECT_EQ(s.dtype, kToken);
  EXPECT_FALSE(parse_shape_text("f33[2]", &s));
  EXPECT_FALSE(parse_shape_text("f32[2", &s));
  EXPECT_FALSE(parse_shape_text("f32[a]", &s));
  EXPECT_EQ(memory_space_of_layout("{1,0:T(2,128)S(3)}"), 3);
  EXPECT_EQ(memory_space_label(3), "S(3)");
  EXPECT_EQ(memory_space_label(0), "");
}

TEST(HloText, MalformedInputNamesTheLine) {
  std::vector<HloModule> modules;
  std::string error;
  EXPECT_FALSE(parse_hlo_text("", &modules, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(parse_hlo_text("ENTRY e {\n  a = f32[] parameter(0)\n}\n", &modules, &error));
  EXPECT_EQ(error.substr(0, 7), "line 1:") << error;
  EXPECT_FALSE(
      parse_hlo_text("HloModule m\n\nENTRY e {\n  a f32[] parameter(0)\n}\n", &modules, &error));
  EXPECT_EQ(error.substr(0, 7), "line 4:") << error;
  EXPECT_NE(error.find("expected '='"), std::string::npos) << error;
  EXPECT_FALSE(
      parse_hlo_text("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  ROOT b = f32[] "
                     "negate(zz)\n}\n",
                     &modules, &error));
  EXPECT_EQ(error.substr(0, 7), "line 4:") << error;
  EXPECT_NE(error.find("'zz'"), std::string::npos) << error;
  EXPECT_FALSE(parse_hlo_text("HloModule m\nENTRY e {\n  ROOT a = f32[] call(), to_apply=nope\n}\n",
                              &modules, &error));
  EXPECT_NE(error.find("'nope'"), std::string::npos) << error;
  EXPECT_FALSE(
      parse_hlo_text("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n", &modules, &error));
  EXPECT_NE(error.find("not closed"), std::string::npos) << error;
  // A module cut short opens with what was read before the error (hlo_stack_frames_test.cc):
  // whole, never half-built.
  for (const HloModule& m : modules) check_model(m);
}

// Every prefix (at a stride) of real and synthetic text either parses or fails with a line
// number; modules that completed before the cut stay whole.
TEST(HloText, TruncationsNeverCrash) {
  std::vector<std::string> texts = {std::string(kModule)};
  std::string real;
  if (testing::read_shared("hlo/xla/kernel_reuse.hlo", &real)) texts.push_back(real);
  for (const std::string& text : texts) {
    const size_t stride = text.size() > 4000 ? 17 : 3;
    for (size_t cut = 0; cut <= text.size(); cut += stride) {
      std::vector<HloModule> modules;
      std::string error;
      bool ok = parse_hlo_text(std::string_view(text).substr(0, cut), &modules, &error);
      if (!ok) {
        ASSERT_EQ(error.substr(0, 5), "line ") << "cut " << cut << ": " << error;
      }
      for (const HloModule& m : modules) check_model(m);
    }
  }
  // Bytes flipped into brackets and quotes.
  std::string text(kModule);
  for (size_t at = 0; at < text.size(); at += 7) {
    for (char c : {'(', ')', '}', '"', '\n'}) {
      std::string bad = text;
      bad[at] = c;
      std::vector<HloModule> modules;
      std::string error;
      if (!parse_hlo_text(bad, &modules, &error)) {
        ASSERT_EQ(error.substr(0, 5), "line ") << error;
      }
    }
  }
}

}  // namespace
}  // namespace strata::hlo
