// GPU framework rows from the HLO protos of the metadata plane (XProf's symbol resolver): a
// kernel that names its HLO instruction gets that instruction's metadata op_name on
// "Framework Ops" / "Framework Name Scope" and its source line on "Source code".
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/formats/hlo/xplane_hlo.h"
#include "hlo.pb.h"
#include "import_test_util.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::engine_load;
using testing::find_track;
using testing::PlaneWriter;
using testing::serialize;
namespace pb = tensorflow::profiler;

// One module "jit_f" whose entry computation has fusion.1 (op_name + source) and copy.2
// (no metadata), plus a fused computation whose instruction must not become a symbol.
std::string hlo_proto_bytes() {
  xla::HloProto proto;
  xla::HloModuleProto* m = proto.mutable_hlo_module();
  m->set_name("jit_f");
  xla::HloComputationProto* fused = m->add_computations();
  fused->set_name("fused_computation");
  fused->set_is_fusion_computation(true);
  xla::HloInstructionProto* in = fused->add_instructions();
  in->set_name("multiply.0"), in->set_opcode("multiply"), in->set_id(10);
  in->mutable_metadata()->set_op_name("jit(f)/jit(main)/inner");
  xla::HloComputationProto* main = m->add_computations();
  main->set_name("main");
  xla::HloInstructionProto* fusion = main->add_instructions();
  fusion->set_name("fusion.1"), fusion->set_opcode("fusion"), fusion->set_id(1);
  fusion->mutable_metadata()->set_op_name("jit(f)/jit(main)/mul");
  fusion->mutable_metadata()->set_source_file("/src/f.py");
  fusion->mutable_metadata()->set_source_line(3);
  xla::HloInstructionProto* copy = main->add_instructions();
  copy->set_name("copy.2"), copy->set_opcode("copy"), copy->set_id(2);
  m->set_entry_computation_name("main");
  return proto.SerializeAsString();
}

std::vector<std::string> names_on(const TraceStore& s, const std::string& process,
                                  const std::string& track) {
  std::vector<std::string> v;
  const int64_t t = find_track(s, process, track);
  for (size_t i = 0; t >= 0 && i < s.events.size(); ++i)
    if (s.events.track[i] == static_cast<uint32_t>(t))
      v.emplace_back(s.strings.get(s.events.name[i]));
  return v;
}

TEST(XPlaneHloSymbols, GpuKernelsGetFrameworkOpsAndSourceFromTheHloProto) {
  pb::XSpace space;
  PlaneWriter meta(&space, "/host:metadata");
  meta.stat(meta.meta("jit_f"), "Hlo Proto")->set_bytes_value(hlo_proto_bytes());  // program id 1
  PlaneWriter gpu(&space, "/device:GPU:0");
  pb::XLine* stream = gpu.line(7, "Stream #7(Compute)", 0);
  auto kernel = [&](const char* hlo_op, int64_t at_ps, bool by_module) {
    pb::XEvent* e = gpu.event(stream, hlo_op, at_ps, 1000000);
    gpu.stat_str(e, "kernel_details", "regs:32");
    gpu.stat_str(e, "hlo_op", hlo_op);
    gpu.stat_str(e, "hlo_module", "jit_f");
    if (!by_module) gpu.stat_int(e, "program_id", 1);
  };
  kernel("fusion.1", 0, false);
  kernel("copy.2", 2000000, false);
  kernel("fusion.1", 4000000, true);  // no program_id: found through the module's name
  Engine e;
  ASSERT_TRUE(engine_load(&e, serialize(space))) << e.last_error();
  const TraceStore& s = *e.store();
  testing::expect_valid_layout(s);
  EXPECT_EQ(names_on(s, "/device:GPU:0", "XLA Ops"),
            (std::vector<std::string>{"fusion.1", "copy.2", "fusion.1"}));
  // copy.2 has no op_name: the two fusions stay two framework ops; the source row, like
  // XProf's, spans the gap between events with the same source.
  EXPECT_EQ(names_on(s, "/device:GPU:0", "Framework Ops"),
            (std::vector<std::string>{"jit(f)/jit(main)/mul", "jit(f)/jit(main)/mul"}));
  EXPECT_EQ(names_on(s, "/device:GPU:0", "Source code"), (std::vector<std::string>{"/src/f.py:3"}));
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
}

TEST(XPlaneHloSymbols, AnHloProtoThatDoesNotParseIsAWarningNotAFailure) {
  pb::XSpace space;
  PlaneWriter meta(&space, "/host:metadata");
  meta.stat(meta.meta("jit_bad"), "Hlo Proto")->set_bytes_value(std::string("\x0a\xff\xff", 3));
  PlaneWriter gpu(&space, "/device:GPU:0");
  pb::XEvent* k = gpu.event(gpu.line(7, "Stream #7(Compute)", 0), "k", 0, 1000000);
  gpu.stat_str(k, "kernel_details", "regs:32");
  gpu.stat_str(k, "hlo_op", "fusion.1");
  gpu.stat_int(k, "program_id", 1);
  Engine e;
  ASSERT_TRUE(engine_load(&e, serialize(space))) << e.last_error();
  const TraceStore& s = *e.store();
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("jit_bad"), std::string::npos) << s.warnings[0];
  EXPECT_EQ(names_on(s, "/device:GPU:0", "XLA Ops"), (std::vector<std::string>{"fusion.1"}));
  EXPECT_TRUE(names_on(s, "/device:GPU:0", "Framework Ops").empty());
}

// Real JAX-on-GPU profiles (TraceLens, ROCm): every GPU plane with XLA ops gets framework ops,
// and each one's name appears in some instruction's op_name of the file's modules (parsed here
// by the standalone HLO reader, not the importer).
TEST(XPlaneHloSymbols, RealJaxGpuProfilesGetFrameworkOps) {
  const char* const files[] = {
      "xplane/tracelens/jax08_gemm/tw003.xplane.pb",
      "xplane/tracelens/jax_conv_minimal_legacy/chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb",
  };
  bool tested = false;
  for (const char* rel : files) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    tested = true;
    SCOPED_TRACE(rel);
    std::vector<hlo::HloModule> modules;
    std::vector<std::string> errors;
    ASSERT_TRUE(hlo::parse_xplane_hlo(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                                      &modules, &errors));
    std::vector<std::string> op_names;
    for (const hlo::HloModule& m : modules)
      for (uint32_t i = 0; i < m.instruction_count(); ++i)
        if (m.op_name[i]) op_names.emplace_back(m.str(m.op_name[i]));
    Engine e;
    ASSERT_TRUE(engine_load(&e, bytes)) << e.last_error();
    const TraceStore& s = *e.store();
    int planes_with_ops = 0;
    for (const Process& p : s.processes) {
      const std::string process(s.strings.get(p.name));
      if (process.find("/device:GPU:") == std::string::npos) continue;
      if (names_on(s, process, "XLA Ops").empty()) continue;
      const std::vector<std::string> ops = names_on(s, process, "Framework Ops");
      EXPECT_FALSE(ops.empty()) << process;
      ++planes_with_ops;
      for (const std::string& op : std::set<std::string>(ops.begin(), ops.end())) {
        bool found = false;
        for (const std::string& full : op_names)
          found = found || full.find(op) != std::string::npos;
        EXPECT_TRUE(found) << process << ": " << op;
      }
    }
    EXPECT_GT(planes_with_ops, 0);
  }
  if (!tested) GTEST_SKIP() << "../shared/data absent";
}

}  // namespace
}  // namespace strata
