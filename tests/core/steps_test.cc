// Steps: Kineto's ProfilerStep#N slices with the GPU work they launched, and xplane Steps rows
// with the device work inside them; the steps analysis table built from them.
#include "core/analysis/steps.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "core/query/launches.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "real_trace_fixtures.h"

namespace strata {
namespace {

using testing::load_trace;

// Two steps on thread 1/1; step 1 launches two kernels (they run [20,30) and [25,40) µs: busy
// 20 µs), step 2 one, which runs after the step has ended. "ProfilerStep#x" is no step.
constexpr const char* kTrace = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":50,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":2,"dur":1,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":5,"dur":1,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":60,"dur":30,"name":"ProfilerStep#2","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":61,"dur":1,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":95,"dur":1,"name":"ProfilerStep#x","cat":"user_annotation"},
  {"ph":"X","pid":0,"tid":7,"ts":20,"dur":10,"name":"k1","cat":"kernel"},
  {"ph":"X","pid":0,"tid":8,"ts":25,"dur":15,"name":"k2","cat":"kernel"},
  {"ph":"X","pid":0,"tid":7,"ts":100,"dur":4,"name":"k3","cat":"kernel"},
  {"ph":"s","id":1,"pid":1,"tid":1,"ts":2.5,"cat":"ac2g","name":"f"},
  {"ph":"f","id":1,"pid":0,"tid":7,"ts":20,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":2,"pid":1,"tid":1,"ts":5.5,"cat":"ac2g","name":"f"},
  {"ph":"f","id":2,"pid":0,"tid":8,"ts":25,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":3,"pid":1,"tid":1,"ts":61.5,"cat":"ac2g","name":"f"},
  {"ph":"f","id":3,"pid":0,"tid":7,"ts":100,"cat":"ac2g","name":"f","bp":"e"}
])";

TEST(Steps, KinetoStepsAndWhatTheyLaunched) {
  testing::ImportResult r = testing::import_json(kTrace);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  const std::vector<Step> steps = find_steps(s, find_gpu_work(s));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].end - steps[0].start, 50'000);
  EXPECT_EQ(steps[0].device_events, 2u);
  EXPECT_EQ(steps[0].device_first, 20'000);
  EXPECT_EQ(steps[0].device_last, 40'000);
  EXPECT_EQ(steps[0].device_busy, 20'000);
  EXPECT_EQ(steps[1].device_events, 1u);
  EXPECT_EQ(steps[1].device_busy, 4'000);
  EXPECT_FALSE(steps[0].on_device);

  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace));
  const std::string t = e.query_json("analysis", R"({"name":"steps"})");
  EXPECT_NE(t.find(R"("cells":["ProfilerStep#1",0,50000,20000,20000,40,2])"), std::string::npos)
      << t;
  EXPECT_NE(t.find(R"("cells":["ProfilerStep#2",60000,30000,4000,4000)"), std::string::npos) << t;
  EXPECT_NE(t.find("(2 steps)"), std::string::npos) << t;
}

TEST(Steps, UnavailableWithoutSteps) {
  Engine e;
  ASSERT_TRUE(
      load_trace(&e, "t.json", R"([{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5,"name":"a"}])"));
  EXPECT_NE(
      e.query_json("analysis", "{}").find(R"("name":"steps","title":"Steps","available":false)"),
      std::string::npos);
}

// A real Kineto trace: one step per ProfilerStep#N record, each as long as its record says.
TEST(Steps, RealKinetoStepsMatchTheirRecords) {
  std::string json;
  if (!testing::read_shared_gz(testing::kResnetKineto, &json)) GTEST_SKIP();
  // The records, read from the text: each "ProfilerStep#N" name and the dur of its object.
  std::map<std::string, double> want;
  for (size_t at = json.find("\"ProfilerStep#"); at != std::string::npos;
       at = json.find("\"ProfilerStep#", at + 1)) {
    const size_t close = json.find('"', at + 1);
    const size_t open = json.rfind('{', at), end = json.find('}', at);
    const size_t dur = json.find("\"dur\":", open);
    if (dur == std::string::npos || dur > end) continue;  // a name inside args, not a record's
    want[json.substr(at + 1, close - at - 1)] = std::stod(json.substr(dur + 6, 32));
  }
  ASSERT_GE(want.size(), 2u);
  testing::ImportResult r = testing::import_json(json);
  const TraceStore& s = *r.store;
  const std::vector<Step> steps = find_steps(s, find_gpu_work(s));
  ASSERT_EQ(steps.size(), want.size());
  for (const Step& st : steps) {
    const std::string name(s.strings.get(s.events.name[st.event]));
    ASSERT_TRUE(want.count(name)) << name;
    EXPECT_NEAR(static_cast<double>(st.end - st.start), want[name] * 1000, 1) << name;
    EXPECT_GT(st.device_events, 0u) << name << " launched GPU work";
    EXPECT_LE(st.device_busy, st.device_last - st.device_first);
  }
}

// The steps' device work is found in one pass over the flows: it is exactly what launched_by()
// (the step's slice and the slices nested in it, walked one by one) finds for each step.
TEST(Steps, RealKinetoLaunchedWorkIsLaunchedBy) {
  testing::ImportResult r;
  if (!testing::import_shared_gz(testing::kResnetKineto, &r)) GTEST_SKIP();
  const TraceStore& s = *r.store;
  const std::vector<Step> steps = find_steps(s, find_gpu_work(s));
  ASSERT_GE(steps.size(), 2u);
  for (const Step& st : steps) {
    const Launched l = launched_by(s, st.event, SIZE_MAX);
    EXPECT_EQ(st.device_events, l.events.size());
    if (l.events.empty()) continue;
    EXPECT_EQ(st.device_first, l.first_start);
    EXPECT_EQ(st.device_last, l.last_end);
  }
}

// The engine keeps the steps for the trace it has: a new load answers from the new trace.
TEST(Steps, NewLoadIsAnsweredFromTheNewTrace) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace));
  EXPECT_NE(
      e.query_json("analysis", "{}").find(R"("name":"steps","title":"Steps","available":true)"),
      std::string::npos);
  EXPECT_NE(e.query_json("analysis", R"({"name":"steps"})").find("(2 steps)"), std::string::npos);
  ASSERT_TRUE(load_trace(
      &e, "u.json",
      R"([{"ph":"X","pid":1,"tid":1,"ts":0,"dur":9,"name":"ProfilerStep#7","cat":"user_annotation"}])"));
  const std::string t = e.query_json("analysis", R"({"name":"steps"})");
  EXPECT_NE(t.find("ProfilerStep#7"), std::string::npos) << t;
  EXPECT_EQ(t.find("ProfilerStep#1"), std::string::npos) << t;
  ASSERT_TRUE(
      load_trace(&e, "v.json", R"([{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5,"name":"a"}])"));
  EXPECT_NE(
      e.query_json("analysis", "{}").find(R"("name":"steps","title":"Steps","available":false)"),
      std::string::npos);
}

// Newer Kineto repeats the step on the GPU (gpu_user_annotation): still one step.
TEST(Steps, RealKinetoGpuAnnotationIsNoSecondStep) {
  testing::ImportResult r;
  if (!testing::import_shared_gz(testing::kBertH100Kineto, &r)) GTEST_SKIP();
  const TraceStore& s = *r.store;
  const std::vector<Step> steps = find_steps(s, find_gpu_work(s));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(testing::name_of(s, s.events.name[steps[0].event]), "ProfilerStep#6");
  EXPECT_EQ(s.strings.get(s.events.cat[steps[0].event]), "user_annotation");
  EXPECT_EQ(steps[0].device_events, 61u);  // every kernel and memcpy of the trace
}

// A real GPU xplane whose devices carry a Steps row: each step holds that device's streams' work.
TEST(Steps, RealXplaneDeviceSteps) {
  std::string bytes;
  if (!testing::read_shared(testing::kTfGpuXplane, &bytes)) GTEST_SKIP();
  Engine e;
  ASSERT_TRUE(load_trace(&e, "x.xplane.pb", bytes));
  const TraceStore& s = *e.store();
  const std::vector<Step> steps = find_steps(s, find_gpu_work(s));
  ASSERT_GE(steps.size(), 2u);
  for (const Step& st : steps) {
    EXPECT_TRUE(st.on_device);
    EXPECT_GT(st.device_events, 0u);
    EXPECT_LE(st.device_busy, st.end - st.start + (st.device_last - st.device_first));
  }
  EXPECT_NE(e.query_json("analysis", R"({"name":"steps"})").find("/device:GPU:4 / Steps"),
            std::string::npos);
}

}  // namespace
}  // namespace strata
