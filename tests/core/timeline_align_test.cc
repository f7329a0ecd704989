// Where A's and B's timelines line up (engine/compare/timeline_align.h): on the starts, on a
// step by number or by order, on the first event of a name; what is not in both falls back to
// the starts and says so. On generated pairs with known times, and on two real ranks of one
// run against the step and event starts read from the stores here.
#include "engine/compare/timeline_align.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>

#include "compare_test_util.h"
#include "engine/compare/compare_session.h"
#include "engine/compare/step_compare.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"

namespace strata {
namespace {

constexpr const char* kRank0 = "pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz";
constexpr const char* kRank1 = "pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz";

// A starts at 0 µs: steps 1 (0-50) and 2 (50-110), "x" at 5 and 20, "only_a" at 30.
constexpr const char* kA = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":50,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":50,"dur":60,"name":"ProfilerStep#2","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":20,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":5,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":30,"dur":5,"name":"only_a","cat":"cpu_op"}])";
// B starts at 1000 µs: steps 2 (1000-1070) and 3 (1070-1100), "x" at 1030.
constexpr const char* kB = R"([
  {"ph":"X","pid":1,"tid":1,"ts":1000,"dur":70,"name":"ProfilerStep#2","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":1070,"dur":30,"name":"ProfilerStep#3","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":1030,"dur":12,"name":"x","cat":"cpu_op"}])";
// No steps; starts at 400 µs.
constexpr const char* kNoSteps = R"([
  {"ph":"X","pid":1,"tid":1,"ts":400,"dur":10,"name":"x","cat":"cpu_op"}])";

struct Pair {
  Engine a;
  CompareSession c;
  Alignment align(AlignMode mode, int64_t step = -1, std::string event = {}) {
    AlignRequest r;
    r.mode = mode;
    r.step = step;
    r.event = std::move(event);
    c.set_alignment(r);
    return c.alignment(a);
  }
};

TEST(TimelineAlign, ModeNamesRoundTrip) {
  for (AlignMode m : {AlignMode::kStart, AlignMode::kStep, AlignMode::kOrder, AlignMode::kEvent}) {
    AlignMode back = AlignMode::kStart;
    ASSERT_TRUE(align_mode_from_name(align_mode_name(m), &back));
    EXPECT_EQ(back, m);
  }
  AlignMode m = AlignMode::kEvent;
  EXPECT_FALSE(align_mode_from_name("steps", &m));
  EXPECT_EQ(m, AlignMode::kEvent);
}

TEST(TimelineAlign, GeneratedPairEveryMode) {
  Pair p;
  ASSERT_TRUE(testing::load_trace(&p.a, "a.json", kA));
  ASSERT_TRUE(testing::load_b(&p.c, "b.json", kB)) << p.c.last_error();

  Alignment s = p.align(AlignMode::kStart);
  EXPECT_EQ(s.used, AlignMode::kStart);
  EXPECT_EQ(s.offset_ns, 0);
  EXPECT_EQ(s.a_align, p.a.store()->start_ns);
  EXPECT_EQ(s.b_align, p.c.b().store()->start_ns);
  EXPECT_EQ(s.note, "aligned on starts");

  // Step 2 is in both: A's starts 50 µs into A, B's at B's start.
  for (int64_t n : {int64_t{-1}, int64_t{2}}) {
    Alignment st = p.align(AlignMode::kStep, n);
    EXPECT_EQ(st.used, AlignMode::kStep) << n;
    EXPECT_EQ(st.offset_ns, -50'000) << n;
    EXPECT_EQ(st.a_step, 2);
    EXPECT_EQ(st.b_step, 2);
    EXPECT_EQ(st.b_align - st.a_align, 1'000'000 - 50'000);
    EXPECT_EQ(st.note, "aligned on step 2 (by number)");
  }
  Alignment missing = p.align(AlignMode::kStep, 1);
  EXPECT_EQ(missing.used, AlignMode::kStart);
  EXPECT_EQ(missing.offset_ns, 0);
  EXPECT_EQ(missing.note, "step 1 is not in B: aligned on starts");

  // By order: the second step of each, A's #2 (50 µs in) and B's #3 (70 µs in).
  Alignment o = p.align(AlignMode::kOrder, 1);
  EXPECT_EQ(o.used, AlignMode::kOrder);
  EXPECT_EQ(o.offset_ns, 70'000 - 50'000);
  EXPECT_EQ(o.a_step, 2);
  EXPECT_EQ(o.b_step, 3);
  EXPECT_EQ(o.note, "aligned on step 2 / 3 (by order)");
  EXPECT_EQ(p.align(AlignMode::kOrder, 2).note, "no step at place 3 in both: aligned on starts");

  // The first "x" of each: 5 µs into A (not the first written, at 20), 30 µs into B.
  Alignment e = p.align(AlignMode::kEvent, -1, "x");
  EXPECT_EQ(e.used, AlignMode::kEvent);
  EXPECT_EQ(e.offset_ns, 30'000 - 5'000);
  EXPECT_EQ(e.note, "aligned on the first \"x\"");
  Alignment only = p.align(AlignMode::kEvent, -1, "only_a");
  EXPECT_EQ(only.used, AlignMode::kStart);
  EXPECT_EQ(only.offset_ns, 0);
  EXPECT_EQ(only.note, "\"only_a\" is not in B: aligned on starts");
  EXPECT_EQ(p.align(AlignMode::kEvent, -1, "none").note,
            "\"none\" is not in A or B: aligned on starts");

  // The reply carries the alignment asked for and the one applied.
  p.align(AlignMode::kOrder, 1);
  const std::string json = p.c.result_json(p.a);
  EXPECT_NE(json.find("\"alignment\":{\"mode\":\"order\",\"step\":1,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"used\":\"order\""), std::string::npos);
  EXPECT_NE(json.find("\"offsetNs\":20000"), std::string::npos);
}

TEST(TimelineAlign, NoCommonStepsAlignOnStartsAndSaySo) {
  Pair p;
  ASSERT_TRUE(testing::load_trace(&p.a, "a.json", kA));
  ASSERT_TRUE(testing::load_b(&p.c, "b.json", kNoSteps));
  for (AlignMode m : {AlignMode::kStep, AlignMode::kOrder}) {
    Alignment al = p.align(m);
    EXPECT_EQ(al.used, AlignMode::kStart);
    EXPECT_EQ(al.offset_ns, 0);
    EXPECT_EQ(al.note, "no common steps: aligned on starts");
    EXPECT_EQ(al.b_align, 400'000);
  }
  // The event still lines up: "x" 5 µs into A, at B's start.
  EXPECT_EQ(p.align(AlignMode::kEvent, -1, "x").offset_ns, -5'000);
}

TEST(TimelineAlign, WithoutBTheReplyHasNoAlignment) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kA));
  CompareSession c;
  EXPECT_NE(c.result_json(a).find("\"alignment\":null"), std::string::npos);
  EXPECT_EQ(c.alignment(a).offset_ns, 0);
}

// The earliest start of an event named `name`, found here by a pass of its own.
TimeNs earliest(const TraceStore& s, std::string_view name) {
  TimeNs best = std::numeric_limits<TimeNs>::max();
  for (size_t e = 0; e < s.events.size(); ++e)
    if (s.strings.get(s.events.name[e]) == name) best = std::min(best, s.events.start[e]);
  return best;
}

TEST(TimelineAlign, TwoRealRanksOnAStepAndOnAnOperator) {
  std::string gz0, gz1;
  if (!testing::read_shared(kRank0, &gz0) || !testing::read_shared(kRank1, &gz1))
    GTEST_SKIP() << "../shared/data absent";
  Pair p;
  ASSERT_TRUE(testing::load_trace(&p.a, "rank-0.json.gz", gz0));
  ASSERT_TRUE(testing::load_b(&p.c, "rank-1.json.gz", gz1)) << p.c.last_error();
  const TraceStore& a = *p.a.store();
  const TraceStore& b = *p.c.b().store();
  for (int64_t n : {int64_t{551}, int64_t{552}}) {
    SCOPED_TRACE(n);
    const std::string step = "ProfilerStep#" + std::to_string(n);
    const TimeNs ta = earliest(a, step), tb = earliest(b, step);
    ASSERT_NE(ta, std::numeric_limits<TimeNs>::max());
    ASSERT_NE(tb, std::numeric_limits<TimeNs>::max());
    Alignment al = p.align(AlignMode::kStep, n);
    EXPECT_EQ(al.used, AlignMode::kStep);
    EXPECT_EQ(al.a_align, ta);
    EXPECT_EQ(al.b_align, tb);
    EXPECT_EQ(al.offset_ns, (tb - b.start_ns) - (ta - a.start_ns));
  }
  // The first step by number is 551, the first by order too.
  EXPECT_EQ(p.align(AlignMode::kStep).a_step, 551);
  EXPECT_EQ(p.align(AlignMode::kOrder, 0).b_step, 551);
  // An operator in both: the first call of each lines up.
  const std::string kernel = "nccl:all_reduce";
  const TimeNs ka = earliest(a, kernel), kb = earliest(b, kernel);
  if (ka == std::numeric_limits<TimeNs>::max() || kb == std::numeric_limits<TimeNs>::max())
    FAIL() << "no " << kernel << " in both ranks";
  Alignment k = p.align(AlignMode::kEvent, -1, kernel);
  EXPECT_EQ(k.used, AlignMode::kEvent);
  EXPECT_EQ(k.offset_ns, (kb - b.start_ns) - (ka - a.start_ns));
}

}  // namespace
}  // namespace strata
