// The HloProto parser on the real protos in ../shared/data/hlo (skipped when absent) against an
// independent decode with the protoc-generated classes (proto/hlo.proto): module names and
// fused computations as SOURCES.md lists them, every instruction's name, opcode, operands and
// called computations. Shapes render as the text format prints them (the same string the text
// parser reads back). A text module written out as a proto parses back the same. Every prefix
// of a real proto fails cleanly or parses.
#include "core/formats/hlo/hlo_proto_parser.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_text_parser.h"
#include "hlo.pb.h"
#include "import_test_util.h"

namespace strata::hlo {
namespace {

struct Sample {
  const char* rel;
  const char* module;
  size_t fused;
};
const Sample kSamples[] = {
    {"hlo/tracelens/jax_conv_minimal/jit__normal(11).hlo_proto.pb", "jit__normal", 1},
    {"hlo/tracelens/jax_conv_minimal/jit__threefry_split(5).hlo_proto.pb", "jit__threefry_split",
     1},
    {"hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb", "jit_forward_3d_conv",
     3},
    {"hlo/xla/hlo_opt_hlo_protobinary.pb", "module_mod1", 0},
};

bool parse(const std::string& bytes, HloModule* m, std::string* error) {
  return parse_hlo_proto(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), m, error);
}

TEST(HloProtoRealFiles, EqualTheGeneratedClassesDecode) {
  bool tested = false;
  for (const Sample& s : kSamples) {
    std::string bytes;
    if (!testing::read_shared(s.rel, &bytes)) continue;
    tested = true;
    SCOPED_TRACE(s.rel);
    xla::HloProto want;
    ASSERT_TRUE(want.ParseFromString(bytes));
    const xla::HloModuleProto& wm = want.hlo_module();
    HloModule m;
    std::string error;
    ASSERT_TRUE(parse(bytes, &m, &error)) << error;
    EXPECT_EQ(m.module_name, s.module);
    EXPECT_EQ(m.module_name, wm.name());
    size_t fused = 0;
    for (uint8_t f : m.comp_is_fusion) fused += f;
    EXPECT_EQ(fused, s.fused);
    ASSERT_EQ(m.computation_count(), static_cast<uint32_t>(wm.computations_size()));
    std::map<int64_t, std::string> name_of_id, comp_of_id;
    size_t instructions = 0;
    for (const auto& c : wm.computations()) {
      comp_of_id[c.id()] = c.name();
      for (const auto& i : c.instructions()) name_of_id[i.id()] = i.name();
      instructions += c.instructions_size();
    }
    ASSERT_EQ(m.instruction_count(), instructions);
    uint32_t i = 0;
    for (int c = 0; c < wm.computations_size(); ++c) {
      const auto& wc = wm.computations(c);
      EXPECT_EQ(m.str(m.comp_name[c]), wc.name());
      EXPECT_EQ(m.comp_is_fusion[c] != 0, wc.is_fusion_computation());
      EXPECT_EQ(m.str(m.name[m.comp_root[c]]), name_of_id[wc.root_id()]);
      if (wc.name() == wm.entry_computation_name()) {
        EXPECT_EQ(m.entry, static_cast<uint32_t>(c));
      }
      for (const auto& wi : wc.instructions()) {
        ASSERT_EQ(m.str(m.name[i]), wi.name());
        EXPECT_EQ(m.str(m.opcode[i]), wi.opcode());
        EXPECT_EQ(m.computation[i], static_cast<uint32_t>(c));
        ASSERT_EQ(m.operands_of(i).size(), static_cast<size_t>(wi.operand_ids_size()));
        for (int k = 0; k < wi.operand_ids_size(); ++k)
          EXPECT_EQ(m.str(m.name[m.operands_of(i)[k]]), name_of_id[wi.operand_ids(k)]);
        ASSERT_EQ(m.called_of(i).size(), static_cast<size_t>(wi.called_computation_ids_size()));
        for (int k = 0; k < wi.called_computation_ids_size(); ++k)
          EXPECT_EQ(m.str(m.comp_name[m.called_of(i)[k]]),
                    comp_of_id[wi.called_computation_ids(k)]);
        EXPECT_EQ(m.str(m.fusion_kind[i]), wi.fusion_kind());
        EXPECT_EQ(m.str(m.op_name[i]), wi.metadata().op_name());
        EXPECT_EQ(m.str(m.source_file[i]), wi.metadata().source_file());
        EXPECT_EQ(m.source_line[i], wi.metadata().source_line());
        EXPECT_EQ(m.dtype[i], wi.shape().element_type());
        ASSERT_EQ(m.dims_of(i).size(), static_cast<size_t>(wi.shape().dimensions_size()));
        // The rendered shape reads back through the text format's shape parser.
        ParsedShape ps;
        EXPECT_TRUE(parse_shape_text(m.str(m.shape[i]), &ps)) << m.str(m.shape[i]);
        EXPECT_EQ(ps.dtype, m.dtype[i]);
        EXPECT_EQ(ps.memory_space, m.memory_space[i]);
        ++i;
      }
    }
  }
  if (!tested) GTEST_SKIP() << "no HloProto samples in " << STRATA_SHARED_DATA;
}

TEST(HloProtoRealFiles, ForwardConvReadsAsXlaPrintsIt) {
  std::string bytes;
  if (!testing::read_shared("hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb",
                            &bytes))
    GTEST_SKIP();
  HloModule m;
  std::string error;
  ASSERT_TRUE(parse(bytes, &m, &error)) << error;
  EXPECT_EQ(m.str(m.comp_name[m.entry]), "main.4_spmd");
  // transpose.11.1 of fused_transpose: bf16, metadata from the JAX source.
  const uint32_t t = m.find("transpose.11.1");
  ASSERT_NE(t, kNone);
  EXPECT_EQ(m.dtype[t], kBF16);
  EXPECT_EQ(m.str(m.shape[t]).substr(0, 5), "bf16[");
  EXPECT_EQ(m.str(m.op_name[t]), "jit(forward_3d_conv)/jit(main)/conv_general_dilated");
  EXPECT_EQ(m.str(m.source_file[t]), "/workspace/conv-jax/jax_conv_profiling.py");
  EXPECT_EQ(m.source_line[t], 77);
  EXPECT_EQ(m.str(m.attrs[t]), "dimensions={1,0}");
  EXPECT_EQ(m.memory_space[t], 0);
  // parameter_number 0 is not written (proto3 default) and still reads as 0.
  EXPECT_EQ(m.parameter_number[m.find("param_0.1")], 0);
}

// A layout with tiles and a memory space, a tuple, a dynamic dimension and a scalar: the
// rendered text is exactly what XLA prints.
TEST(HloProto, ShapesRenderAsTheTextFormat) {
  xla::HloProto p;
  auto* mod = p.mutable_hlo_module();
  mod->set_name("m");
  mod->set_entry_computation_id(1);
  auto* c = mod->add_computations();
  c->set_name("main");
  c->set_id(1);
  c->set_root_id(3);
  auto* a = c->add_instructions();
  a->set_name("a");
  a->set_opcode("parameter");
  a->set_id(1);
  a->set_parameter_number(0);
  auto* s = a->mutable_shape();
  s->set_element_type(kBF16);
  for (int d : {32, 32, 4096}) s->add_dimensions(d);
  auto* l = s->mutable_layout();
  for (int d : {2, 1, 0}) l->add_minor_to_major(d);
  auto* t1 = l->add_tiles();
  t1->add_dimensions(8);
  t1->add_dimensions(128);
  auto* t2 = l->add_tiles();
  t2->add_dimensions(2);
  t2->add_dimensions(1);
  l->set_memory_space(1);
  auto* b = c->add_instructions();
  b->set_name("b");
  b->set_opcode("parameter");
  b->set_id(2);
  b->set_parameter_number(1);
  auto* bs = b->mutable_shape();
  bs->set_element_type(kF32);
  bs->add_dimensions(4);
  bs->add_is_dynamic_dimension(true);
  bs->mutable_layout()->add_minor_to_major(0);
  auto* r = c->add_instructions();
  r->set_name("t");
  r->set_opcode("tuple");
  r->set_id(3);
  r->add_operand_ids(1);
  r->add_operand_ids(2);
  auto* rs = r->mutable_shape();
  rs->set_element_type(kTuple);
  *rs->add_tuple_shapes() = a->shape();
  *rs->add_tuple_shapes() = b->shape();
  auto* scalar = rs->add_tuple_shapes();
  scalar->set_element_type(kS32);
  scalar->mutable_layout();
  std::string bytes = p.SerializeAsString();
  HloModule m;
  std::string error;
  ASSERT_TRUE(parse(bytes, &m, &error)) << error;
  EXPECT_EQ(m.str(m.shape[0]), "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}");
  EXPECT_EQ(m.str(m.layout[0]), "{2,1,0:T(8,128)(2,1)S(1)}");
  EXPECT_EQ(m.memory_space[0], kMemorySpaceTpuVmem);
  EXPECT_EQ(m.str(m.shape[1]), "f32[<=4]{0}");
  EXPECT_EQ(m.parameter_number[1], 1);
  EXPECT_EQ(m.str(m.shape[2]), "(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}, f32[<=4]{0}, s32[])");
  EXPECT_EQ(m.dtype[2], kTuple);
  EXPECT_EQ(m.memory_space[2], kNoMemorySpace);
  EXPECT_EQ(m.comp_root[0], 2u);
  // The same module as a bare HloModuleProto.
  HloModule bare;
  ASSERT_TRUE(parse(mod->SerializeAsString(), &bare, &error)) << error;
  EXPECT_EQ(bare.instruction_count(), 3u);
  EXPECT_EQ(bare.str(bare.shape[0]), m.str(m.shape[0]));
}

// A text module written out as an HloProto (generated classes) parses back to the same model:
// both paths look alike.
TEST(HloProto, TextModuleRoundTrip) {
  std::string text;
  if (!testing::read_shared("hlo/xla/nv_maxtext_1n1g_jit_train_step_before_optimization.hlo",
                            &text))
    GTEST_SKIP();
  std::vector<HloModule> modules;
  std::string error;
  ASSERT_TRUE(parse_hlo_text(text, &modules, &error)) << error;
  const HloModule& t = modules.at(0);
  xla::HloProto p;
  auto* mod = p.mutable_hlo_module();
  mod->set_name(t.module_name);
  mod->set_entry_computation_id(t.entry + 100);
  for (uint32_t c = 0; c < t.computation_count(); ++c) {
    auto* pc = mod->add_computations();
    pc->set_name(std::string(t.str(t.comp_name[c])));
    pc->set_id(c + 100);
    pc->set_root_id(t.comp_root[c] + 1000);
    for (uint32_t i = t.comp_first[c]; i < t.comp_first[c] + t.comp_count[c]; ++i) {
      auto* pi = pc->add_instructions();
      pi->set_name(std::string(t.str(t.name[i])));
      pi->set_opcode(std::string(t.str(t.opcode[i])));
      pi->set_id(i + 1000);
      for (uint32_t o : t.operands_of(i)) pi->add_operand_ids(o + 1000);
      for (uint32_t k : t.called_of(i)) pi->add_called_computation_ids(k + 100);
      if (t.parameter_number[i] >= 0) pi->set_parameter_number(t.parameter_number[i]);
      pi->mutable_metadata()->set_op_name(std::string(t.str(t.op_name[i])));
      pi->mutable_metadata()->set_source_line(t.source_line[i]);
      // Array shapes only (tuples here would need their elements' text parsed).
      if (t.dtype[i] != kTuple) {
        auto* s = pi->mutable_shape();
        s->set_element_type(t.dtype[i]);
        for (int64_t d : t.dims_of(i)) s->add_dimensions(d);
        ParsedShape ps;
        ASSERT_TRUE(parse_shape_text(t.str(t.shape[i]), &ps));
        if (!ps.layout.empty() && !ps.dims.empty()) {
          std::string_view lay = ps.layout.substr(1, ps.layout.size() - 2);
          ASSERT_EQ(lay.find(':'), std::string_view::npos) << "pre-optimization: plain layouts";
          auto* l = s->mutable_layout();
          while (!lay.empty()) {
            size_t comma = lay.find(',');
            l->add_minor_to_major(std::stoll(std::string(lay.substr(0, comma))));
            lay = comma == std::string_view::npos ? std::string_view() : lay.substr(comma + 1);
          }
        }
      }
    }
  }
  HloModule m;
  ASSERT_TRUE(parse(p.SerializeAsString(), &m, &error)) << error;
  ASSERT_EQ(m.instruction_count(), t.instruction_count());
  ASSERT_EQ(m.computation_count(), t.computation_count());
  EXPECT_EQ(m.entry, t.entry);
  EXPECT_EQ(m.operands, t.operands);
  EXPECT_EQ(m.operand_begin, t.operand_begin);
  EXPECT_EQ(m.called, t.called);
  EXPECT_EQ(m.users, t.users);
  EXPECT_EQ(m.comp_root, t.comp_root);
  for (uint32_t i = 0; i < m.instruction_count(); ++i) {
    ASSERT_EQ(m.str(m.name[i]), t.str(t.name[i]));
    EXPECT_EQ(m.str(m.op_name[i]), t.str(t.op_name[i]));
    if (t.dtype[i] != kTuple) {
      EXPECT_EQ(m.str(m.shape[i]), t.str(t.shape[i]));
    }
    EXPECT_EQ(m.memory_space[i], t.memory_space[i]) << t.str(t.shape[i]);
  }
}

TEST(HloProto, TruncatedAndGarbageFailCleanly) {
  std::string bytes;
  if (!testing::read_shared("hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb",
                            &bytes))
    GTEST_SKIP();
  size_t failed = 0;
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    HloModule m;
    std::string error;
    if (!parse(bytes.substr(0, cut), &m, &error)) {
      ++failed;
      EXPECT_FALSE(error.empty());
    }
  }
  EXPECT_GT(failed, bytes.size() / 2);
  HloModule m;
  std::string error;
  EXPECT_FALSE(parse("HloModule text, not a proto", &m, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(parse(std::string(), &m, &error));
}

}  // namespace
}  // namespace strata::hlo
