// The graph viewer's session as the worker's graph part (web/worker/graph.js) drives it through
// engine/wasm/graph_exports.cc: HLO files added whole or fed in chunks, the modules list, layout,
// details, search and find, an xplane's HloProtos by the one-pass stream, and the trace costs of an
// op.
#include "engine/graph_session.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "engine/engine.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::compress_with;

const char kHlo[] =
    "HloModule jit_f, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n\n"
    "ENTRY main {\n  p = f32[4]{0} parameter(0)\n  n = f32[4]{0} negate(p)\n"
    "  ROOT e = f32[4]{0} exponential(n)\n}\n";

int add_whole(GraphSession* g, int kind, const std::string& name, const std::string& bytes,
              bool from_trace = false) {
  std::memcpy(g->buffer(bytes.size()), bytes.data(), bytes.size());
  return g->add(kind, name, from_trace, 0);
}

TEST(GraphSession, AddsModulesAndAnswersForThem) {
  Engine e;
  GraphSession g(e);
  ASSERT_EQ(add_whole(&g, 1, "f.hlo", kHlo), 1) << g.error();
  EXPECT_TRUE(g.error().empty()) << g.error();
  const std::string list = g.modules_json();
  EXPECT_NE(list.find("\"name\":\"jit_f\""), std::string::npos) << list;
  EXPECT_NE(list.find("\"source\":\"f.hlo\""), std::string::npos) << list;
  EXPECT_NE(list.find("\"fromTrace\":false"), std::string::npos) << list;
  EXPECT_NE(list.find("\"instructions\":3"), std::string::npos) << list;

  EXPECT_FALSE(g.layout(0, 0, nullptr, 0, -1, 0).empty());
  EXPECT_EQ(g.layout_message().size(), g.layout(0, 0, nullptr, 0, -1, 0).size());
  EXPECT_TRUE(g.layout(7, 0, nullptr, 0, -1, 0).empty());  // no such module

  const int32_t n = g.find_instr(0, "n");
  ASSERT_GE(n, 0);
  EXPECT_EQ(g.find_instr(0, "absent"), -1);
  EXPECT_EQ(g.instr_computation(0, static_cast<uint32_t>(n)), 0u);
  EXPECT_NE(g.details_json(0, static_cast<uint32_t>(n)).find("negate"), std::string::npos);
  EXPECT_EQ(g.details_json(0, 99), "null");
  EXPECT_EQ(g.details_json(3, 0), "null");
  const std::string found = g.search_json(0, "negate", 10);
  EXPECT_NE(found.find("\"opcode\":\"negate\""), std::string::npos) << found;
  EXPECT_EQ(g.search_json(5, "negate", 10), "[]");
  EXPECT_NE(g.bench_module_json(0, true).find("\"nodes\":"), std::string::npos);
  EXPECT_EQ(g.bench_module_json(9, true), "null");
  EXPECT_GE(GraphSession::bench_generated(50), 0.0);
}

TEST(GraphSession, CutShortModulesSayWhereTheyStop) {
  Engine e;
  GraphSession g(e);
  const std::string text(kHlo);
  // Cut inside the entry: the module opens with what was read, its note names the line where
  // the text ends (after the fifth line).
  ASSERT_EQ(add_whole(&g, 1, "cut.hlo", text.substr(0, text.find("  ROOT"))), 1) << g.error();
  std::string list = g.modules_json();
  EXPECT_NE(list.find("\"note\":\"line 6:"), std::string::npos) << list;
  EXPECT_NE(list.find("not closed"), std::string::npos) << list;
  // A whole module says nothing.
  ASSERT_EQ(add_whole(&g, 1, "f.hlo", kHlo), 1);
  list = g.modules_json();
  EXPECT_NE(list.rfind("\"entry\":0,\"note\":\"\","), std::string::npos) << list;
  EXPECT_GT(list.rfind("\"entry\":0,\"note\":\"\","), list.find("f.hlo")) << list;
  // A file that breaks in its second module: the first, whole, carries where the file stopped.
  ASSERT_EQ(add_whole(&g, 1, "two.hlo", text + "\nHloModule second\n\nENTRY e {\n  bad\n"), 1);
  list = g.modules_json();
  EXPECT_NE(list.find("the file stops after this module: line "), std::string::npos) << list;
}

TEST(GraphSession, BigComputationsListWhereTheyStart) {
  Engine e;
  GraphSession g(e);
  std::string text = "HloModule big\n\nENTRY main {\n  p = f32[8] parameter(0)\n";
  text += "  s = f32[8] sqrt(p)\n";
  std::string last = "s";
  for (int k = 0; k < 1200; ++k) {
    text += "  n" + std::to_string(k) + " = f32[8] negate(" + last + ")\n";
    last = "n" + std::to_string(k);
  }
  text += "  ROOT r = f32[8] negate(" + last + ")\n}\n";
  ASSERT_EQ(add_whole(&g, 1, "big.hlo", text), 1) << g.error();
  const std::string list = g.modules_json();
  // The first op writing the most bytes (every op writes f32[8]): the sqrt, index 1.
  EXPECT_NE(list.find("\"start\":1,\"startHops\":3"), std::string::npos) << list;
  ASSERT_EQ(add_whole(&g, 1, "f.hlo", kHlo), 1);
  const std::string both = g.modules_json();
  EXPECT_EQ(both.find("\"start\""), both.rfind("\"start\"")) << "small computations: no start";
}

TEST(GraphSession, BadFilesSayWhyAndAddNothing) {
  Engine e;
  GraphSession g(e);
  EXPECT_EQ(add_whole(&g, 1, "x.hlo", "HloModule broken\nENTRY {"), -1);
  EXPECT_FALSE(g.error().empty());
  EXPECT_EQ(add_whole(&g, 2, "x.hlo.pb", std::string("\x0A\xFF\xFF\xFF", 4)), -1);
  EXPECT_FALSE(g.error().empty());
  EXPECT_EQ(g.module_count(), 0u);
  EXPECT_EQ(g.modules_json(), "[]");
}

TEST(GraphSession, ImportInChunksAnyCompressionAndTraceModulesDrop) {
  Engine e;
  GraphSession g(e);
  std::vector<std::string> copies{kHlo};
  for (const char* tool : {"gzip -c", "zstd -q -c"}) {
    std::string packed;
    if (compress_with(tool, kHlo, &packed)) copies.push_back(packed);
  }
  for (const std::string& bytes : copies) {
    g.import_begin(1, "f.hlo", 0);
    for (size_t at = 0; at < bytes.size(); at += 5) {
      const size_t n = std::min<size_t>(5, bytes.size() - at);
      std::memcpy(g.buffer(n), bytes.data() + at, n);
      g.import_commit(n);
    }
    ASSERT_EQ(g.import_end(), 1) << g.error();
  }
  EXPECT_EQ(g.module_count(), copies.size());
  ASSERT_EQ(add_whole(&g, 1, "trace", kHlo, true), 1);
  g.drop_trace_modules();
  EXPECT_EQ(g.module_count(), copies.size());  // the files' modules stay
  EXPECT_EQ(g.import_end(), -1);               // no import begun
}

TEST(GraphSession, XplaneHloProtosStreamAndCosts) {
  std::string xplane;
  const std::string rel = "xplane/tracelens/jax08_gemm/tw003.xplane.pb";
  if (!testing::read_shared(rel, &xplane)) GTEST_SKIP() << "no " << rel;
  Engine e;
  e.load_begin("tw003.xplane.pb", xplane.size());
  std::memcpy(e.load_buffer(xplane.size()), xplane.data(), xplane.size());
  e.load_commit(xplane.size());
  ASSERT_TRUE(e.load_end()) << e.last_error();
  GraphSession g(e);
  const uint32_t want = g.hlo_stream_begin(0);
  ASSERT_GT(want, 0u);
  bool done = false;
  for (size_t at = 0; at < xplane.size() && !done; at += 4096) {
    const size_t n = std::min<size_t>(4096, xplane.size() - at);
    std::memcpy(g.buffer(n), xplane.data() + at, n);
    done = g.hlo_stream_commit(n);
  }
  EXPECT_TRUE(done);
  const std::string end = g.hlo_stream_end(true);
  EXPECT_EQ(end, "{\"added\":" + std::to_string(want) + ",\"errors\":[]}");
  EXPECT_EQ(g.module_count(), want);
  EXPECT_NE(g.modules_json().find("\"fromTrace\":true"), std::string::npos);
  EXPECT_NE(e.hlo_protos_json().find("\"compressed\":false"), std::string::npos);
  g.drop_trace_modules();
  EXPECT_EQ(g.module_count(), 0u);

  // Costs of the trace's first event, its record read from the plain file.
  g.costs_begin("op", 1);
  uint64_t off = 0;
  uint32_t len = 0;
  if (e.event_source(0, &off, &len) && len > 0) {
    std::memcpy(g.buffer(len), xplane.data() + off, len);
    g.costs_add(0, len);
  }
  g.costs_add(1u << 30, 0);  // no such event: ignored
  EXPECT_NE(g.costs_json().find("\"name\":\"op\""), std::string::npos) << g.costs_json();
}

}  // namespace
}  // namespace strata
