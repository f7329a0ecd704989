// The Runs tab's session as the worker's runs part (web/worker/runs.js) drives it through
// engine/wasm/runs_exports.cc: Ascend files put by name, a Kineto trace's statistics with and
// without the records pass, and a Diff of two kept sides.
#include "engine/runs_session.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "runs_test_util.h"

namespace strata {
namespace {

const char* kTrace = R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"A","pid":1,"tid":1,"ts":0,"dur":100,"args":{"Input Dims":[[2, 3]]}},
{"ph":"X","cat":"cpu_op","name":"B","pid":1,"tid":1,"ts":10,"dur":40,"args":{"Input Dims":[[4]]}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":7}},
{"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":30,"dur":30,"args":{"correlation":7}}
]})";

void load(Engine* e, const std::string& bytes) {
  ASSERT_TRUE(testing::load_trace(e, "t.json", bytes)) << e->last_error();
}

void put(RunsSession* r, const std::string& key, const std::string& text) {
  std::memcpy(r->buffer(text.size()), text.data(), text.size());
  r->put(key, text.size());
}

TEST(RunsSession, KinetoTraceStatsWithTheRecordsPass) {
  Engine e;
  load(&e, kTrace);
  RunsSession r(e);
  const std::string before = r.trace_stats_json(true, 0);
  EXPECT_EQ(before.rfind("{\"ok\":true,\"operators\":", 0), 0u) << before;
  EXPECT_NE(before.find("\"kernels\":"), std::string::npos);
  EXPECT_NE(before.find("\"distributed\":"), std::string::npos);
  EXPECT_NE(before.find("\"errors\":[]}"), std::string::npos);
  const uint32_t wanted = r.records_begin();
  ASSERT_GT(wanted, 0u);
  const std::string src = kTrace;
  bool done = false;
  for (size_t at = 0; at < src.size() && !done; at += 16) {
    const size_t n = std::min<size_t>(16, src.size() - at);
    std::memcpy(r.buffer(n), src.data() + at, n);
    done = r.records_commit(n);
  }
  EXPECT_TRUE(done);
  const std::string after = r.trace_stats_json(true, 0);
  // Input shapes come from the records.
  EXPECT_EQ(before.find("\"inputShape\":\"[[2,3]]\""), std::string::npos) << before;
  EXPECT_NE(after.find("\"inputShape\":\"[[2,3]]\""), std::string::npos) << after;
  r.records_clear();
  EXPECT_EQ(r.trace_stats_json(true, 0), before);
}

TEST(RunsSession, KeptSidesDiffAndAreForgotten) {
  Engine e;
  load(&e, kTrace);
  RunsSession r(e);
  r.trace_keep("a", false);
  r.trace_keep("b", false);
  const std::string d = r.diff_json(false, "");
  EXPECT_EQ(d.rfind("{\"ok\":true,\"operatorDiff\":", 0), 0u) << d;
  EXPECT_NE(d.find("\"stepDiff\":"), std::string::npos);
  EXPECT_NE(d.find("\"steps\":"), std::string::npos);
  // Without kept sides, both are Ascend profiles that were not put: each says so.
  const std::string empty = r.diff_json(false, "");
  EXPECT_NE(empty.find("a/operator_details.csv"), std::string::npos) << empty;
}

TEST(RunsSession, AscendFilesPutByName) {
  std::string ops, kernels;
  const std::string dir = "ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
  if (!testing::read_shared_text(dir + "operator_details.csv", &ops) ||
      !testing::read_shared_text(dir + "kernel_details.csv", &kernels))
    GTEST_SKIP() << "no Ascend CSVs in ../shared/data";
  Engine e;
  RunsSession r(e);
  EXPECT_NE(r.ascend_stats_json(true, "", 0).find("\"operators\":"), std::string::npos);
  put(&r, "a/operator_details.csv", ops);
  put(&r, "a/kernel_details.csv", kernels);
  const std::string s = r.ascend_stats_json(true, "", 0);
  EXPECT_NE(s.find("\"kernelDetailsTotal\":"), std::string::npos);
  EXPECT_NE(s.find("\"errors\":[]"), std::string::npos) << s.substr(s.size() - 300);
  EXPECT_GT(s.size(), 1000u);
  r.clear();
  EXPECT_LT(r.ascend_stats_json(true, "", 0).size(), s.size());
}

}  // namespace
}  // namespace strata
