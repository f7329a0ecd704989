// The kernel_launches analysis: launch delay, runtime and kernel times per kernel name, and
// HTA's outlier counts, on a small trace with known figures and on a real Kineto trace.
#include <gtest/gtest.h>

#include <cstring>

#include "core/formats/json/json_flat.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::load_trace;

// Times in µs. gemm: launched [0,10) → runs at 12 (delay 2); launched [20,80) (a 60 µs call:
// slow) → runs at 300 for 5 µs (delay 220: late; shorter than its launch). copy: launched
// [30,31) → runs at 31.5 for 100 µs.
constexpr const char* kTrace = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":20,"dur":60,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":30,"dur":1,"name":"cudaMemcpyAsync","cat":"cuda_runtime"},
  {"ph":"X","pid":0,"tid":7,"ts":12,"dur":20,"name":"gemm","cat":"kernel"},
  {"ph":"X","pid":0,"tid":7,"ts":300,"dur":5,"name":"gemm","cat":"kernel"},
  {"ph":"X","pid":0,"tid":8,"ts":31.5,"dur":100,"name":"copy","cat":"gpu_memcpy"},
  {"ph":"X","pid":0,"tid":8,"ts":500,"dur":1,"name":"orphan","cat":"kernel"},
  {"ph":"s","id":1,"pid":1,"tid":1,"ts":1,"cat":"ac2g","name":"f"},
  {"ph":"f","id":1,"pid":0,"tid":7,"ts":12,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":2,"pid":1,"tid":1,"ts":21,"cat":"ac2g","name":"f"},
  {"ph":"f","id":2,"pid":0,"tid":7,"ts":300,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":3,"pid":1,"tid":1,"ts":30.5,"cat":"ac2g","name":"f"},
  {"ph":"f","id":3,"pid":0,"tid":8,"ts":31.5,"cat":"ac2g","name":"f","bp":"e"}
])";

TEST(KernelLaunches, DelaysAndOutliersByName) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace));
  const std::string t = e.query_json("analysis", R"({"name":"kernel_launches"})");
  // All launches: 3 linked (the orphan is not), runtime avg (10+60+1)/3 µs, delay max 220 µs.
  EXPECT_NE(
      t.find(
          R"("cells":["All launches",3,23666.666666666668,60000,41666.666666666664,74166.666666666672,220000,1,1,1])"),
      std::string::npos)
      << t;
  // gemm first (the larger total delay): 2 launches, delays 2 and 220 µs.
  EXPECT_NE(t.find(R"("cells":["gemm",2,35000,60000,12500,111000,220000,1,1,1])"),
            std::string::npos)
      << t;
  EXPECT_LT(t.find(R"("cells":["gemm")"), t.find(R"("cells":["copy")")) << t;
  EXPECT_NE(t.find(R"("link":{"name":"gemm","tracks":[)"), std::string::npos) << t;
  EXPECT_NE(t.find("1 GPU events have no launching call"), std::string::npos) << t;
}

TEST(KernelLaunches, UnavailableWithoutLaunchLinks) {
  Engine e;
  ASSERT_TRUE(load_trace(
      &e, "t.json", R"([{"ph":"X","pid":0,"tid":7,"ts":0,"dur":5,"name":"k","cat":"kernel"}])"));
  const std::string list = e.query_json("analysis", "{}");
  EXPECT_NE(
      list.find(
          R"("name":"kernel_launches","title":"Kernel launches","available":false,"why":"the file links no GPU event)"),
      std::string::npos)
      << list;
}

// On a real trace: the per-name rows add up to the top row, and every GPU event with an ac2g
// flow from another process is counted once.
TEST(KernelLaunches, RealKinetoRowsAddUp) {
  std::string gz, json;
  if (!testing::read_shared(
          "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz", &gz))
    GTEST_SKIP();
  ASSERT_TRUE(testing::gunzip(gz, &json));
  Engine e;
  e.load_begin("bert.json", json.size());
  for (size_t off = 0; off < json.size(); off += 1 << 20) {
    const size_t n = std::min<size_t>(1 << 20, json.size() - off);
    std::memcpy(e.load_buffer(n), json.data() + off, n);
    e.load_commit(n);
  }
  ASSERT_TRUE(e.load_end());
  const std::string t = e.query_json("analysis", R"({"name":"kernel_launches"})");
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(t, &lines, &err)) << err;
  // rows[i].cells[1] is the launch count; the first row is the total.
  double top = -1, sum = 0;
  for (size_t i = 0; i + 2 < lines.size(); ++i)
    if (lines[i].depth == 2 && lines[i].key == "cells" && lines[i + 2].kind == 'n') {
      const double n = std::stod(lines[i + 2].value);
      if (top < 0)
        top = n;
      else
        sum += n;
    }
  EXPECT_GT(top, 50);  // 61 linked launches in this small model
  EXPECT_EQ(sum, top);
  // Independently: kernels, memcpys and memsets with an ac2g flow into them.
  const TraceStore& s = *e.store();
  uint64_t linked = 0;
  for (uint32_t k = 0; k < s.flows.size(); ++k) {
    const uint32_t to = s.flows.to[k], from = s.flows.from[k];
    const std::string_view cat = s.strings.get(s.events.cat[to]);
    if ((cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") &&
        s.tracks[s.events.track[from]].process != s.tracks[s.events.track[to]].process)
      ++linked;
  }
  EXPECT_EQ(static_cast<double>(linked), top);
}

}  // namespace
}  // namespace strata
