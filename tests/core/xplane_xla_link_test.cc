// The details pane's XLA block on the two shapes of device plane: TPU (the instruction is the
// event's metadata name, its text the `long_name` stat, no `hlo_op`, program ids above 2^63)
// and GPU (an `hlo_op` stat, the module by name only, no text or category: read from the
// module's HloProto). The graph link names the instruction and its exact program id.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/formats/hlo/hlo_module.h"
#include "core/formats/xplane/program_id.h"
#include "core/formats/xplane/xplane_tables.h"
#include "hlo.pb.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::engine_load;
using testing::find_on_track;
using testing::PlaneWriter;
using testing::serialize;
namespace pb = tensorflow::profiler;

// A program id that a double (and a JS Number) cannot hold: 2^63 + 5.
constexpr uint64_t kBigProgram = (uint64_t{1} << 63) + 5;

void f32_vector(xla::ShapeProto* s, int64_t n) {
  s->set_element_type(hlo::kF32);
  s->add_dimensions(n);
  s->mutable_layout()->add_minor_to_major(0);
}

// Module jit_f: ENTRY main { p.0 = parameter(0); fusion.1 = fusion(p.0), kind=kLoop,
// calls=fused_computation }.
std::string hlo_proto_bytes() {
  xla::HloProto proto;
  xla::HloModuleProto* m = proto.mutable_hlo_module();
  m->set_name("jit_f");
  xla::HloComputationProto* fused = m->add_computations();
  fused->set_name("fused_computation"), fused->set_id(100);
  fused->set_is_fusion_computation(true);
  xla::HloInstructionProto* fp = fused->add_instructions();
  fp->set_name("param_0"), fp->set_opcode("parameter"), fp->set_id(10);
  f32_vector(fp->mutable_shape(), 8);
  xla::HloInstructionProto* mul = fused->add_instructions();
  mul->set_name("multiply.0"), mul->set_opcode("multiply"), mul->set_id(11);
  f32_vector(mul->mutable_shape(), 8);
  mul->add_operand_ids(10), mul->add_operand_ids(10);
  fused->set_root_id(11);
  xla::HloComputationProto* main = m->add_computations();
  main->set_name("main"), main->set_id(200);
  xla::HloInstructionProto* p = main->add_instructions();
  p->set_name("p.0"), p->set_opcode("parameter"), p->set_id(1);
  f32_vector(p->mutable_shape(), 8);
  xla::HloInstructionProto* fusion = main->add_instructions();
  fusion->set_name("fusion.1"), fusion->set_opcode("fusion"), fusion->set_id(2);
  f32_vector(fusion->mutable_shape(), 8);
  fusion->set_fusion_kind("kLoop");
  fusion->add_operand_ids(1);
  fusion->add_called_computation_ids(100);
  main->set_root_id(2);
  m->set_entry_computation_name("main");
  m->set_entry_computation_id(200);
  return proto.SerializeAsString();
}

bool has(const std::string& d, const std::string& want) {
  return d.find(want) != std::string::npos;
}

TEST(XlaLink, TpuOpsAreNamedByTheirMetadataAndKeepTheirProgramIdExact) {
  pb::XSpace space;
  {
    // XProf keys the metadata plane's HloProtos by program id: an int64 map key, here the bits
    // of 2^63 + 5; the program_id stat holds the uint64.
    PlaneWriter meta(&space, "/host:metadata");
    const auto key = static_cast<int64_t>(kBigProgram);
    pb::XEventMetadata& m = (*meta.plane()->mutable_event_metadata())[key];
    m.set_id(key);
    m.set_name("jit_f(9223372036854775813)");
    meta.stat(&m, "Hlo Proto")->set_bytes_value(hlo_proto_bytes());
    meta.stat_uint(&m, "program_id", kBigProgram);
  }
  PlaneWriter tpu(&space, "/device:TPU:0");
  pb::XLine* ops = tpu.line(3, "XLA Ops", 0);
  tpu.event(ops, "fusion.1", 1000, 2000);
  pb::XEventMetadata* m = tpu.meta("fusion.1");
  tpu.stat_str(m, "long_name",
               "%fusion.1 = f32[8]{0:T(256)} fusion(f32[8]{0:T(256)} %p.0), kind=kLoop, "
               "calls=%fused_computation");
  tpu.stat_str(m, "hlo_category", "loop fusion");
  tpu.stat_uint(m, "program_id", kBigProgram);
  const std::string file = serialize(space);

  Engine eng;
  ASSERT_TRUE(engine_load(&eng, file)) << eng.last_error();
  const int64_t ev = find_on_track(*eng.store(), "XLA Ops", "fusion.1");
  ASSERT_GE(ev, 0);
  const std::string d = testing::details_of(eng, static_cast<uint32_t>(ev), file);
  EXPECT_TRUE(has(d, R"("instruction":"fusion.1")")) << d;
  EXPECT_TRUE(
      has(d, R"("graph":{"programId":"9223372036854775813","op":"fusion.1","available":true})"))
      << d;
  EXPECT_TRUE(has(d, R"("program_id":"9223372036854775813")")) << d;
  // The file's own text and category: nothing from the module in their place.
  EXPECT_FALSE(has(d, "fromHlo")) << d;
  // The HloProto's span, as the worker reads it, carries the same exact id.
  const std::string spans = eng.hlo_protos_json();
  EXPECT_TRUE(has(spans, R"("programId":"9223372036854775813")")) << spans;
  ASSERT_EQ(eng.store()->xspace->hlo_protos.size(), 1u);
  EXPECT_EQ(static_cast<uint64_t>(eng.store()->xspace->hlo_protos[0].program_id), kBigProgram);
}

TEST(XlaLink, GpuOpsGetExpressionAndCategoryFromTheModule) {
  pb::XSpace space;
  PlaneWriter meta(&space, "/host:metadata");
  meta.stat(meta.meta("jit_f"), "Hlo Proto")->set_bytes_value(hlo_proto_bytes());  // program 1
  PlaneWriter gpu(&space, "/device:GPU:0");
  pb::XLine* stream = gpu.line(7, "Stream #7(Compute)", 0);
  pb::XEvent* k = gpu.event(stream, "loop_multiply_fusion", 0, 1000000);
  gpu.stat_str(k, "kernel_details", "regs:32");
  gpu.stat_str(k, "hlo_op", "fusion.1");
  gpu.stat_str(k, "hlo_module", "jit_f");  // no program_id: the module's name finds it
  const std::string file = serialize(space);

  Engine eng;
  ASSERT_TRUE(engine_load(&eng, file)) << eng.last_error();
  const int64_t ev = find_on_track(*eng.store(), "", "loop_multiply_fusion");
  ASSERT_GE(ev, 0);
  const std::string d = testing::details_of(eng, static_cast<uint32_t>(ev), file);
  EXPECT_TRUE(has(d, R"("instruction":"fusion.1")")) << d;
  EXPECT_TRUE(has(d, R"("fromHlo":{"expression":"%fusion.1 = f32[8]{0} fusion(f32[8]{0} %p.0), )"
                     R"(kind=kLoop, calls=%fused_computation","category":"loop fusion"})"))
      << d;
  EXPECT_TRUE(has(d, R"("graph":{"programId":1,"op":"fusion.1","available":true})")) << d;
}

TEST(XlaLink, AnInstructionTheModuleDoesNotHaveGetsNoGuess) {
  pb::XSpace space;
  PlaneWriter meta(&space, "/host:metadata");
  meta.stat(meta.meta("jit_f"), "Hlo Proto")->set_bytes_value(hlo_proto_bytes());
  PlaneWriter gpu(&space, "/device:GPU:0");
  pb::XEvent* k = gpu.event(gpu.line(7, "Stream #7(Compute)", 0), "k", 0, 1000000);
  gpu.stat_str(k, "kernel_details", "regs:32");
  gpu.stat_str(k, "hlo_op", "fusion.99");
  gpu.stat_int(k, "program_id", 1);
  const std::string file = serialize(space);
  Engine eng;
  ASSERT_TRUE(engine_load(&eng, file)) << eng.last_error();
  const int64_t ev = find_on_track(*eng.store(), "", "k");
  ASSERT_GE(ev, 0);
  const std::string d = testing::details_of(eng, static_cast<uint32_t>(ev), file);
  EXPECT_FALSE(has(d, "fromHlo")) << d;
  EXPECT_TRUE(has(d, R"("graph":{"programId":1,"op":"fusion.99","available":true})")) << d;
}

TEST(XlaLink, ProgramIdsRoundTripAsExactText) {
  std::string o;
  append_program_id(&o, 17);
  EXPECT_EQ(o, "17");
  o.clear();
  append_program_id(&o, static_cast<int64_t>(uint64_t{1} << 53));
  EXPECT_EQ(o, "9007199254740992");  // still exact as a Number
  o.clear();
  append_program_id(&o, static_cast<int64_t>((uint64_t{1} << 53) + 1));
  EXPECT_EQ(o, "\"9007199254740993\"");
  o.clear();
  append_program_id(&o, static_cast<int64_t>(kBigProgram));
  EXPECT_EQ(o, "\"9223372036854775813\"");
  int64_t bits = 0;
  ASSERT_TRUE(parse_program_id("9223372036854775813", &bits));
  EXPECT_EQ(static_cast<uint64_t>(bits), kBigProgram);
  ASSERT_TRUE(parse_program_id("18446744073709551615", &bits));
  EXPECT_EQ(bits, -1);
  ASSERT_TRUE(parse_program_id("-1", &bits));
  EXPECT_EQ(bits, -1);
  EXPECT_FALSE(parse_program_id("18446744073709551616", &bits));  // past 64 bits
  EXPECT_FALSE(parse_program_id("1e3", &bits));
  EXPECT_FALSE(parse_program_id("", &bits));
}

// Every real xplane with HloProtos (TraceLens' JAX runs on ROCm): each XLA op names its
// instruction, links to a program the trace holds, and gets its category (and, but for
// constants, its expression) from that module.
TEST(XlaLink, RealGpuXplanesLinkEveryXlaOpToItsModule) {
  bool tested = false;
  for (const char* rel : testing::kWithHlo) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    tested = true;
    SCOPED_TRACE(rel);
    Engine eng;
    ASSERT_TRUE(engine_load(&eng, bytes)) << eng.last_error();
    const TraceStore& s = *eng.store();
    int ops = 0, with_text = 0;
    for (uint32_t ev = 0; ev < s.events.size() && ops < 200; ++ev) {
      if (s.strings.get(s.tracks[s.events.track[ev]].name) != "XLA Ops") continue;
      ++ops;
      const std::string name(s.strings.get(s.events.name[ev]));
      const std::string d = testing::details_of(eng, ev, bytes);
      EXPECT_TRUE(has(d, "\"instruction\":\"" + name + "\"")) << d;
      EXPECT_TRUE(has(d, "\"op\":\"" + name + "\",\"available\":true")) << d;
      EXPECT_TRUE(has(d, "\"category\":\"")) << d;
      with_text += has(d, "\"expression\":\"%" + name + " = ");
    }
    EXPECT_GT(ops, 0);
    EXPECT_GT(with_text, 0);
  }
  if (!tested) GTEST_SKIP() << "../shared/data absent";
}

}  // namespace
}  // namespace strata
