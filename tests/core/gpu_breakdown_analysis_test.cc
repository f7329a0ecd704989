// The gpu_breakdown analysis through the engine's query, as strata.analysis() asks it: on a
// real Kineto trace and on real GPU xplanes, a device row per GPU whose parts sum to its span
// and streams beneath it; on a CPU-only trace, unavailable with a reason.
#include <gtest/gtest.h>

#include <cstring>

#include "analysis_table_test_util.h"
#include "core/formats/json/json_flat.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::load_trace;

using Row = testing::TableRow;

std::vector<Row> rows_of(const std::string& json, std::vector<std::string>* columns) {
  return testing::table_rows(json, columns);
}
double num(const Row& r, const std::vector<std::string>& cols, const char* key) {
  return testing::table_number(r, cols, key);
}

void check_sums(const std::string& json, size_t min_devices) {
  std::vector<std::string> cols;
  const std::vector<Row> rows = rows_of(json, &cols);
  size_t devices = 0;
  for (const Row& r : rows) {
    ASSERT_EQ(r.cells.size(), cols.size());
    const double span = num(r, cols, "span");
    const double parts = num(r, cols, "compute") + num(r, cols, "exposed_comm") +
                         num(r, cols, "exposed_memcpy") + num(r, cols, "idle");
    EXPECT_EQ(parts, span) << json.substr(0, 400);
    if (r.parent < 0) {
      ++devices;
      EXPECT_GT(span, 0);
    } else {
      ASSERT_LT(static_cast<size_t>(r.parent), rows.size());
      EXPECT_LT(rows[static_cast<size_t>(r.parent)].parent, 0) << "streams sit under a device";
      EXPECT_LE(span, num(rows[static_cast<size_t>(r.parent)], cols, "span"));
    }
  }
  EXPECT_GE(devices, min_devices);
}

TEST(GpuBreakdownAnalysis, RealKinetoTrace) {
  std::string gz, json;
  if (!testing::read_shared(
          "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz", &gz))
    GTEST_SKIP();
  ASSERT_TRUE(testing::gunzip(gz, &json));
  Engine e;
  ASSERT_TRUE(load_trace(&e, "bert.json", json));
  const std::string list = e.query_json("analysis", "{}");
  EXPECT_NE(list.find(R"("name":"gpu_breakdown","title":"GPU breakdown","available":true)"),
            std::string::npos)
      << list;
  check_sums(e.query_json("analysis", R"({"name":"gpu_breakdown"})"), 1);
}

TEST(GpuBreakdownAnalysis, RealGpuXplanes) {
  for (const char* rel : {"xplane/xprof/34.83.195.179_6003.xplane.pb",
                          "xplane/tracelens/jax08_gemm/tw003.xplane.pb"}) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) GTEST_SKIP();
    Engine e;
    ASSERT_TRUE(load_trace(&e, "x.xplane.pb", bytes)) << rel;
    // The TensorFlow capture has 8 GPU planes, of which 3 recorded work; their Steps and
    // TensorFlow rows (XProf's derived line ids) are no streams.
    const std::string t = e.query_json("analysis", R"({"name":"gpu_breakdown"})");
    check_sums(t, std::strstr(rel, "xprof") ? 3 : 1);
    EXPECT_EQ(t.find(R"("cells":["TensorFlow Ops")"), std::string::npos) << rel;
    EXPECT_EQ(t.find(R"("cells":["Steps")"), std::string::npos) << rel;
    EXPECT_NE(t.find(R"("cells":["Stream #)"), std::string::npos) << rel;
  }
}

TEST(GpuBreakdownAnalysis, UnavailableWithoutGpuWork) {
  Engine e;
  ASSERT_TRUE(load_trace(
      &e, "cpu.json", R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5,"cat":"cpu_op"}])"));
  const std::string list = e.query_json("analysis", "{}");
  EXPECT_NE(
      list.find(
          R"("name":"gpu_breakdown","title":"GPU breakdown","available":false,"why":"no GPU kernels)"),
      std::string::npos)
      << list;
  const std::string t = e.query_json("analysis", R"({"name":"gpu_breakdown"})");
  EXPECT_NE(t.find(R"("errors":["no GPU kernels)"), std::string::npos) << t;
  EXPECT_NE(t.find(R"("rows":[])"), std::string::npos) << t;
}

}  // namespace
}  // namespace strata
