// The compare session: B loads into its own engine beside the current trace A, the way the
// worker feeds it (in chunks, compressed or not); its diff tables against an independent diff
// of two real ranks, a trace against itself, the steps side by side (by number, by order, on
// the starts when there are none), and a bad B that leaves A and the previous B as they were.
#include "engine/compare/compare_session.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>

#include "compare_test_util.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "real_trace_fixtures.h"

namespace strata {
namespace {

constexpr const char* kRank0 = "pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz";
constexpr const char* kRank1 = "pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz";

struct Sum {
  uint64_t count = 0;
  TimeNs total = 0;
};
std::map<std::string, Sum> sums(const TraceStore& s, std::string_view cat) {
  std::map<std::string, Sum> out;
  for (size_t e = 0; e < s.events.size(); ++e) {
    if (s.strings.get(s.events.cat[e]) != cat) continue;
    Sum& x = out[std::string(s.strings.get(s.events.name[e]))];
    ++x.count;
    x.total += s.events.dur[e];
  }
  return out;
}

// The duration of the slice named `name` in `s`, or -1.
TimeNs slice_dur(const TraceStore& s, std::string_view name) {
  for (size_t e = 0; e < s.events.size(); ++e)
    if (s.strings.get(s.events.name[e]) == name) return s.events.dur[e];
  return -1;
}

TEST(CompareSession, TwoRealRanksEqualAnIndependentDiff) {
  std::string gz0, gz1;
  if (!testing::read_shared(kRank0, &gz0) || !testing::read_shared(kRank1, &gz1))
    GTEST_SKIP() << "../shared/data absent";
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "rank-0.json.gz", gz0));
  CompareSession c;
  EXPECT_FALSE(c.has_b());
  ASSERT_TRUE(testing::load_b(&c, "rank-1.json.gz", gz1)) << c.last_error();
  ASSERT_TRUE(c.has_b());
  EXPECT_EQ(a.store()->files.front().name, "rank-0.json.gz");  // A untouched

  for (const auto& [key, cat] :
       {std::pair{OpDiffKey::kOperator, "cpu_op"}, std::pair{OpDiffKey::kKernel, "kernel"}}) {
    SCOPED_TRACE(op_diff_key_name(key));
    const auto in_a = sums(*a.store(), cat), in_b = sums(*c.b().store(), cat);
    ASSERT_FALSE(in_a.empty());
    const OpDiff d = c.diff(a, key);
    size_t both = 0, only_a = 0, only_b = 0, differ = 0;
    for (const auto& [name, x] : in_a) {
      auto y = in_b.find(name);
      if (y == in_b.end()) {
        ++only_a;
        continue;
      }
      ++both;
      differ += x.count != y->second.count || x.total != y->second.total;
    }
    for (const auto& [name, y] : in_b) only_b += !in_a.count(name);
    EXPECT_EQ(d.added.size(), only_b);
    EXPECT_EQ(d.removed.size(), only_a);
    EXPECT_EQ(d.changed.size() + d.unchanged, both);
    EXPECT_GE(d.changed.size(), differ);  // self time may differ where totals do not
    EXPECT_GT(differ, 0u);
    for (const OpDiffRow& r : d.changed) {
      const Sum &x = in_a.at(r.name), &y = in_b.at(r.name);
      EXPECT_EQ(r.a.count, x.count) << r.name;
      EXPECT_EQ(r.a.total, x.total) << r.name;
      EXPECT_EQ(r.b.count, y.count) << r.name;
      EXPECT_EQ(r.b.total, y.total) << r.name;
    }
    for (const OpDiffRow& r : d.added) EXPECT_EQ(r.b.total, in_b.at(r.name).total) << r.name;
    for (const OpDiffRow& r : d.removed) EXPECT_EQ(r.a.total, in_a.at(r.name).total) << r.name;
  }

  // Both ranks have ProfilerStep#551 and #552: matched by number, each step's parts partition
  // its duration, which is the step slice's in each trace.
  const StepCompare s = compare_steps(a, c.b());
  EXPECT_EQ(s.align, StepAlign::kNumber);
  ASSERT_EQ(s.pairs.size(), 2u);
  for (const StepPair& p : s.pairs) {
    const StepSide &x = s.a[p.a], &y = s.b[p.b];
    EXPECT_EQ(x.number, y.number);
    const std::string name = "ProfilerStep#" + std::to_string(x.number);
    EXPECT_EQ(x.dur, slice_dur(*a.store(), name));
    EXPECT_EQ(y.dur, slice_dur(*c.b().store(), name));
    TimeNs sa = 0, sb = 0;
    for (TimeNs v : x.parts) sa += v;
    for (TimeNs v : y.parts) sb += v;
    EXPECT_EQ(sa, x.dur);
    EXPECT_EQ(sb, y.dur);
  }
  EXPECT_EQ(s.a[s.pairs[0].a].number, 551);
  EXPECT_EQ(s.a_align, s.a[s.pairs[0].a].start);
  const std::string json = c.result_json(a);
  EXPECT_NE(json.find("\"align\":\"number\""), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"rank-1.json.gz\""), std::string::npos);
  EXPECT_NE(json.find("\"aStep\":551"), std::string::npos);
}

TEST(CompareSession, ARealTraceAgainstItselfIsEmpty) {
  std::string gz0;
  if (!testing::read_shared(kRank0, &gz0)) GTEST_SKIP() << "../shared/data absent";
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "rank-0.json.gz", gz0));
  CompareSession c;
  ASSERT_TRUE(testing::load_b(&c, "rank-0-again.json.gz", gz0));
  size_t names = 0;
  for (OpDiffKey key :
       {OpDiffKey::kOperator, OpDiffKey::kKernel, OpDiffKey::kXlaOp, OpDiffKey::kCategory}) {
    const OpDiff d = c.diff(a, key);
    EXPECT_TRUE(d.empty()) << op_diff_key_name(key);
    names += d.unchanged;
  }
  EXPECT_GT(names, 10u);
  const TreeDiff tree = c.tree_diff(a);
  EXPECT_TRUE(tree.empty());
  EXPECT_EQ(tree.unchanged, tree.a_nodes);
  EXPECT_GT(tree.a_nodes, 10u);
  const StepCompare s = compare_steps(a, c.b());
  for (const StepPair& p : s.pairs) EXPECT_EQ(s.a[p.a].parts, s.b[p.b].parts);
  EXPECT_EQ(s.pairs.size(), 2u);
}

constexpr const char* kNoSteps = R"([
  {"ph":"X","pid":1,"tid":1,"ts":100,"dur":10,"name":"x","cat":"cpu_op"}])";
constexpr const char* kSteps1And2 = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":50,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":50,"dur":60,"name":"ProfilerStep#2","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":5,"dur":10,"name":"x","cat":"cpu_op"}])";
constexpr const char* kSteps7And8 = R"([
  {"ph":"X","pid":1,"tid":1,"ts":1000,"dur":40,"name":"ProfilerStep#7","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":1040,"dur":70,"name":"ProfilerStep#8","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":1005,"dur":12,"name":"x","cat":"cpu_op"}])";

TEST(CompareSession, StepsWithoutCommonNumbersMatchByOrder) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kSteps1And2));
  CompareSession c;
  ASSERT_TRUE(testing::load_b(&c, "b.json", kSteps7And8));
  const StepCompare s = compare_steps(a, c.b());
  EXPECT_EQ(s.align, StepAlign::kOrder);
  ASSERT_EQ(s.pairs.size(), 2u);
  EXPECT_EQ(s.a[s.pairs[1].a].number, 2);
  EXPECT_EQ(s.b[s.pairs[1].b].number, 8);
  EXPECT_EQ(s.a[s.pairs[1].a].dur, 60'000);
  EXPECT_EQ(s.b[s.pairs[1].b].dur, 70'000);
  EXPECT_EQ(s.b_align - s.a_align, 1'000'000);  // B's first step starts 1 ms later
}

TEST(CompareSession, NoCommonStepsAlignOnStartsAndSaySo) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kSteps1And2));
  CompareSession c;
  ASSERT_TRUE(testing::load_b(&c, "b.json", kNoSteps));
  const StepCompare s = compare_steps(a, c.b());
  EXPECT_EQ(s.align, StepAlign::kStart);
  EXPECT_TRUE(s.pairs.empty());
  EXPECT_EQ(s.note, "no common steps: aligned on starts");
  EXPECT_EQ(s.a_align, a.store()->start_ns);
  EXPECT_EQ(s.b_align, c.b().store()->start_ns);
  const std::string json = c.result_json(a);
  EXPECT_NE(json.find("\"note\":\"no common steps: aligned on starts\""), std::string::npos);
  EXPECT_NE(json.find("\"align\":\"start\""), std::string::npos);
}

TEST(CompareSession, ABadBKeepsAAndThePreviousB) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kSteps1And2));
  CompareSession c;
  const std::string before = c.result_json(a);
  EXPECT_NE(before.find("\"b\":null"), std::string::npos);
  ASSERT_TRUE(testing::load_b(&c, "b.json", kSteps7And8));
  EXPECT_FALSE(testing::load_b(&c, "broken.json", "PK\x03\x04 not a trace"));
  EXPECT_NE(c.last_error().find("broken.json"), std::string::npos) << c.last_error();
  EXPECT_TRUE(c.has_b());
  EXPECT_EQ(c.b_name(), "b.json");
  EXPECT_EQ(c.b().store()->events.size(), 3u);
  EXPECT_EQ(a.store()->files.front().name, "a.json");
  EXPECT_EQ(a.store()->events.size(), 3u);
  const std::string json = c.result_json(a);
  EXPECT_NE(json.find("broken.json"), std::string::npos);  // in errors
  EXPECT_NE(json.find("\"name\":\"b.json\""), std::string::npos);
  c.clear();
  EXPECT_FALSE(c.has_b());
}

}  // namespace
}  // namespace strata
