// HLO modules inside real XSpaces (../shared/data/xplane, skipped when absent): the spans found
// standalone equal the ones the xplane importer keeps (XSpaceTables::hlo_protos), each parses,
// and a module also shipped as a separate .hlo_proto.pb (TraceLens jit_forward_3d_conv, program
// 15) reads the same from both. Files without HLO give none; the corrupt one fails cleanly.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/hlo/xplane_hlo.h"
#include "core/formats/xplane/xplane_tables.h"
#include "engine/engine.h"
#include "import_test_util.h"
#include "xplane_test_util.h"

namespace strata::hlo {
namespace {

using testing::kWithHlo;
using testing::u8;

TEST(HloXplane, SpansEqualTheImportersAndParse) {
  bool tested = false;
  for (const char* rel : kWithHlo) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    tested = true;
    SCOPED_TRACE(rel);
    std::vector<HloProtoSpan> spans;
    std::string error;
    ASSERT_TRUE(find_xplane_hlo_protos(u8(bytes), bytes.size(), &spans, &error)) << error;
    ASSERT_FALSE(spans.empty());
    Engine e;
    ASSERT_TRUE(testing::engine_load(&e, bytes));
    const XSpaceTables* x = e.store()->xspace.get();
    ASSERT_NE(x, nullptr);
    auto key = [](const HloProtoSpan& s) {
      return std::make_tuple(s.program_id, s.module, s.src_offset, s.src_len);
    };
    std::vector<std::tuple<int64_t, std::string, uint64_t, uint64_t>> got, want;
    for (const HloProtoSpan& s : spans) got.push_back(key(s));
    for (const HloProtoSpan& s : x->hlo_protos) want.push_back(key(s));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);

    std::vector<HloModule> modules;
    std::vector<std::string> errors;
    ASSERT_TRUE(parse_xplane_hlo(u8(bytes), bytes.size(), &modules, &errors));
    EXPECT_TRUE(errors.empty()) << errors.front();
    ASSERT_EQ(modules.size(), spans.size());
    for (size_t k = 0; k < modules.size(); ++k) {
      EXPECT_EQ(modules[k].program_id, spans[k].program_id);
      // XProf names the metadata "<module>(<program id>)" or just the module.
      EXPECT_TRUE(spans[k].module.starts_with(modules[k].module_name))
          << spans[k].module << " vs " << modules[k].module_name;
      EXPECT_GT(modules[k].instruction_count(), 0u);
      EXPECT_NE(modules[k].entry, kNone);
    }
  }
  if (!tested) GTEST_SKIP() << "no xplane samples in " << STRATA_SHARED_DATA;
}

TEST(HloXplane, SameModuleAsTheStandaloneProto) {
  std::string xbytes, pbytes;
  if (!testing::read_shared(kWithHlo[2], &xbytes) ||
      !testing::read_shared("hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb",
                            &pbytes))
    GTEST_SKIP();
  std::vector<HloModule> modules;
  std::vector<std::string> errors;
  ASSERT_TRUE(parse_xplane_hlo(u8(xbytes), xbytes.size(), &modules, &errors));
  const HloModule* in_x = nullptr;
  for (const HloModule& m : modules)
    if (m.program_id == 15) in_x = &m;
  ASSERT_NE(in_x, nullptr);
  HloModule alone;
  std::string error;
  ASSERT_TRUE(parse_hlo_proto(u8(pbytes), pbytes.size(), &alone, &error)) << error;
  EXPECT_EQ(in_x->module_name, alone.module_name);
  ASSERT_EQ(in_x->instruction_count(), alone.instruction_count());
  for (uint32_t i = 0; i < alone.instruction_count(); ++i) {
    EXPECT_EQ(in_x->str(in_x->name[i]), alone.str(alone.name[i]));
    EXPECT_EQ(in_x->str(in_x->shape[i]), alone.str(alone.shape[i]));
  }
  EXPECT_EQ(in_x->operands, alone.operands);
}

TEST(HloXplane, NoHloOrCorrupt) {
  std::string bytes;
  if (testing::read_shared("xplane/xprof/34.83.195.179_6003.xplane.pb", &bytes)) {
    std::vector<HloModule> modules;
    std::vector<std::string> errors;
    EXPECT_TRUE(parse_xplane_hlo(u8(bytes), bytes.size(), &modules, &errors));
    EXPECT_TRUE(modules.empty());
  }
  if (testing::read_shared("xplane/xprof/tpu_inference_2.xplane.pb", &bytes)) {
    std::vector<HloModule> modules;
    std::vector<std::string> errors;
    EXPECT_FALSE(parse_xplane_hlo(u8(bytes), bytes.size(), &modules, &errors));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].substr(0, 5), "byte ") << errors[0];
  }
  // A cut XSpace: every prefix of a real one fails or parses, without a crash.
  if (testing::read_shared(kWithHlo[0], &bytes)) {
    for (size_t cut = 0; cut < bytes.size(); cut += 997) {
      std::vector<HloModule> modules;
      std::vector<std::string> errors;
      parse_xplane_hlo(u8(bytes), cut, &modules, &errors);
      for (const HloModule& m : modules) EXPECT_GT(m.instruction_count(), 0u);
    }
  }
}

}  // namespace
}  // namespace strata::hlo
