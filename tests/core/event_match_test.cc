// The Compare tab's linked selection (engine/compare/event_match.h, CompareSession::match_json):
// the counterpart of an event is the same-named event on a track of the same kind, the k-th
// from the alignment point when the counts agree, else the nearest in aligned time, else none.
// On a generated pair with known answers, and on two real ranks of one run aligned on a step,
// checked against a count of occurrences done here by brute force; the answer read back through
// the UI's reader (ui/compare/compare_match_model.h).
#include "engine/compare/event_match.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compare_test_util.h"
#include "engine/compare/compare_session.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "ui/compare/compare_match_model.h"

namespace strata {
namespace {

constexpr const char* kRank0 = "pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz";
constexpr const char* kRank1 = "pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz";

// A: steps 1 (0-50 µs) and 2 (50-110); "x" at 5, 20 (step 1), 60, 80 (step 2); "only_a" at 30.
constexpr const char* kA = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":50,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":50,"dur":60,"name":"ProfilerStep#2","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":2,"ts":60,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":2,"ts":5,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":2,"ts":80,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":2,"ts":20,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":2,"ts":30,"dur":5,"name":"only_a","cat":"cpu_op"}])";
// B: steps 1 (1000-1060 µs) and 2 (1060-1130); "x" at 1010 (one in step 1), 1070, 1090; and a
// process-wide instant "x" at 1075 (another track kind: never a thread slice's counterpart).
constexpr const char* kB = R"([
  {"ph":"X","pid":1,"tid":1,"ts":1000,"dur":60,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":1060,"dur":70,"name":"ProfilerStep#2","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":2,"ts":1090,"dur":12,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":2,"ts":1010,"dur":12,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":2,"ts":1070,"dur":12,"name":"x","cat":"cpu_op"},
  {"ph":"i","s":"p","pid":1,"ts":1075,"name":"x"}])";

// The event named `name` starting `us` µs after the store's start (kind: its track's), or -1.
int64_t at(const TraceStore& s, std::string_view name, int64_t us,
           TrackKind kind = TrackKind::kThread) {
  for (uint32_t e = 0; e < s.events.size(); ++e)
    if (s.strings.get(s.events.name[e]) == name && s.events.start[e] - s.start_ns == us * 1000 &&
        s.tracks[s.events.track[e]].kind == kind)
      return e;
  return -1;
}

struct Pair {
  Engine a;
  CompareSession c;
  const TraceStore& sa() const { return *a.store(); }
  const TraceStore& sb() const { return *c.b().store(); }
  void align(AlignMode mode, int64_t step = -1) {
    AlignRequest r;
    r.mode = mode;
    r.step = step;
    c.set_alignment(r);
  }
  EventMatch one(bool from_b, int64_t event) {
    const auto m = c.match(a, from_b, {static_cast<uint32_t>(event)});
    EXPECT_EQ(m.size(), 1u);
    return m.empty() ? EventMatch() : m[0];
  }
};

TEST(EventMatch, GeneratedPairOnAStep) {
  Pair p;
  ASSERT_TRUE(testing::load_trace(&p.a, "a.json", kA));
  ASSERT_TRUE(testing::load_b(&p.c, "b.json", kB)) << p.c.last_error();
  p.align(AlignMode::kStep, 2);
  const TraceStore &a = p.sa(), &b = p.sb();

  // Step 2 of each holds two "x": the first and second of A's are B's first and second there.
  EventMatch m = p.one(false, at(a, "x", 60));
  EXPECT_EQ(m.kind, MatchKind::kOccurrence);
  EXPECT_EQ(m.ordinal, 0);
  EXPECT_EQ(m.counterpart, at(b, "x", 90 - 20));
  m = p.one(false, at(a, "x", 80));
  EXPECT_EQ(m.kind, MatchKind::kOccurrence);
  EXPECT_EQ(m.ordinal, 1);
  EXPECT_EQ(m.counterpart, at(b, "x", 90));
  // And back: B's second "x" of step 2 is A's at 80 µs.
  m = p.one(true, at(b, "x", 90));
  EXPECT_EQ(m.kind, MatchKind::kOccurrence);
  EXPECT_EQ(m.counterpart, at(a, "x", 80));

  // Before step 2 A has two "x", B one: the nearest in aligned time. A's at 20 µs is 30 µs
  // before its step 2, so at B's 1030 µs: B's at 1010 (20 away) rather than 1070 (40).
  m = p.one(false, at(a, "x", 20));
  EXPECT_EQ(m.kind, MatchKind::kNearest);
  EXPECT_EQ(m.ordinal, -1);
  EXPECT_EQ(m.counterpart, at(b, "x", 10));

  // A name B does not have: none.
  m = p.one(false, at(a, "only_a", 30));
  EXPECT_EQ(m.kind, MatchKind::kUnmatched);
  EXPECT_EQ(m.counterpart, -1);
  // B's instant "x" has no thread slice's counterpart in A (A has no instant "x").
  const int64_t instant = at(b, "x", 75, TrackKind::kInstant);
  ASSERT_GE(instant, 0);
  EXPECT_EQ(p.one(true, instant).kind, MatchKind::kUnmatched);

  // On the starts, A has four "x" after its start and B three: each the nearest in aligned time.
  p.align(AlignMode::kStart);
  m = p.one(false, at(a, "x", 60));
  EXPECT_EQ(m.kind, MatchKind::kNearest);
  EXPECT_EQ(m.counterpart, at(b, "x", 70));

  // Several at once keep their order; an index out of range is left out.
  const auto many = p.c.match(
      p.a, false,
      {static_cast<uint32_t>(at(a, "x", 80)), 1'000'000u, static_cast<uint32_t>(at(a, "x", 5))});
  ASSERT_EQ(many.size(), 2u);
  EXPECT_EQ(many[0].event, at(a, "x", 80));
  EXPECT_EQ(many[1].event, at(a, "x", 5));
}

TEST(EventMatch, AnswerReadBackByTheUi) {
  Pair p;
  ASSERT_TRUE(testing::load_trace(&p.a, "a.json", kA));
  ASSERT_TRUE(testing::load_b(&p.c, "b.json", kB));
  p.align(AlignMode::kStep, 2);
  const TraceStore &a = p.sa(), &b = p.sb();
  CompareMatch m;
  std::string err;
  ASSERT_TRUE(compare_match_parse(
      p.c.match_json(p.a, false, {static_cast<uint32_t>(at(a, "x", 80))}).c_str(), &m, &err))
      << err;
  EXPECT_FALSE(m.from_b);
  EXPECT_EQ(m.occurrences, 1);
  EXPECT_EQ(m.first_kind, "occurrence");
  EXPECT_EQ(m.first_ordinal, 1);
  // The counterpart as B's selection, in ns from B's start.
  ASSERT_EQ(m.events.size(), 1u);
  EXPECT_EQ(m.events[0], at(b, "x", 90));
  EXPECT_EQ(m.starts[0], 90'000);
  EXPECT_EQ(m.ends[0], 102'000);
  EXPECT_EQ(m.names[0], "x");
  ASSERT_EQ(m.depths.size(), 1u);  // its row, to scroll B to
  EXPECT_EQ(m.depths[0], 0u);
  EXPECT_EQ(m.tracks.size(), 1u);
  EXPECT_EQ(compare_match_text(m), "in B: the same occurrence (#2 from the alignment point)");

  ASSERT_TRUE(compare_match_parse(
      p.c.match_json(p.a, false, {static_cast<uint32_t>(at(a, "only_a", 30))}).c_str(), &m, &err));
  EXPECT_EQ(m.none, 1);
  EXPECT_TRUE(m.events.empty());
  EXPECT_EQ(compare_match_text(m), "no counterpart in B");

  // Two of A's "x" nearest to one of B's: B's selection has it once.
  p.align(AlignMode::kStart);
  ASSERT_TRUE(compare_match_parse(
      p.c.match_json(p.a, false,
                     {static_cast<uint32_t>(at(a, "x", 5)), static_cast<uint32_t>(at(a, "x", 20))})
          .c_str(),
      &m, &err));
  EXPECT_EQ(m.nearest, 2);
  EXPECT_EQ(m.events.size(), 1u);
  EXPECT_EQ(compare_match_text(m), "2 of 2 matched in B (2 nearest, 0 without a counterpart)");

  // Without a B: nothing matched, no counterparts.
  CompareSession none;
  ASSERT_TRUE(compare_match_parse(none.match_json(p.a, false, {0}).c_str(), &m, &err)) << err;
  EXPECT_TRUE(m.events.empty());
}

// Occurrences of e's name on tracks of e's kind in [from, to), counted by brute force.
size_t count_between(const TraceStore& s, std::string_view name, TrackKind kind, TimeNs from,
                     TimeNs to, uint32_t before_event, bool inclusive_ties) {
  size_t n = 0;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    if (s.strings.get(s.events.name[e]) != name || s.tracks[s.events.track[e]].kind != kind)
      continue;
    const TimeNs t = s.events.start[e];
    if (t < from || t > to) continue;
    if (t == to && !(inclusive_ties && e < before_event)) continue;
    ++n;
  }
  return n;
}

TEST(EventMatch, TwoRealRanksOnAStep) {
  std::string gz0, gz1;
  if (!testing::read_shared(kRank0, &gz0) || !testing::read_shared(kRank1, &gz1))
    GTEST_SKIP() << "../shared/data absent";
  Pair p;
  ASSERT_TRUE(testing::load_trace(&p.a, "rank-0.json.gz", gz0));
  ASSERT_TRUE(testing::load_b(&p.c, "rank-1.json.gz", gz1)) << p.c.last_error();
  p.align(AlignMode::kStep, 552);
  const Alignment al = p.c.alignment(p.a);
  ASSERT_EQ(al.used, AlignMode::kStep);
  const TraceStore &a = p.sa(), &b = p.sb();
  // Every 7th event of A, matched together.
  std::vector<uint32_t> events;
  for (uint32_t e = 0; e < a.events.size(); e += 7) events.push_back(e);
  const std::vector<EventMatch> matches = p.c.match(p.a, false, events);
  ASSERT_EQ(matches.size(), events.size());
  size_t kinds[3] = {0, 0, 0};
  for (const EventMatch& m : matches) {
    ++kinds[static_cast<size_t>(m.kind)];
    const std::string_view name = a.strings.get(a.events.name[m.event]);
    const TrackKind kind = a.tracks[a.events.track[m.event]].kind;
    if (m.kind == MatchKind::kUnmatched) {
      EXPECT_EQ(count_between(b, name, kind, INT64_MIN, INT64_MAX, 0, false), 0u) << name;
      continue;
    }
    ASSERT_GE(m.counterpart, 0);
    const auto c = static_cast<uint32_t>(m.counterpart);
    EXPECT_EQ(b.strings.get(b.events.name[c]), name);
    EXPECT_EQ(b.tracks[b.events.track[c]].kind, kind);
    const TimeNs ta = a.events.start[m.event], tb = b.events.start[c];
    if (m.kind == MatchKind::kNearest) {
      // No other of B's is nearer in aligned time.
      const TimeNs want = ta - al.a_align, got = tb - al.b_align;
      for (uint32_t e = 0; e < b.events.size(); ++e) {
        if (b.strings.get(b.events.name[e]) != name || b.tracks[b.events.track[e]].kind != kind)
          continue;
        EXPECT_GE(std::abs(b.events.start[e] - al.b_align - want), std::abs(got - want)) << name;
      }
      continue;
    }
    // As many of the name between the alignment point and each event on both sides.
    const bool after = ta >= al.a_align;
    EXPECT_EQ(tb >= al.b_align, after) << name;
    const size_t na = after ? count_between(a, name, kind, al.a_align, ta, m.event, true)
                            : count_between(a, name, kind, ta, al.a_align, 0, false) - 1;
    const size_t nb = after ? count_between(b, name, kind, al.b_align, tb, c, true)
                            : count_between(b, name, kind, tb, al.b_align, 0, false) - 1;
    EXPECT_EQ(na, nb) << name << " at " << (ta - al.a_align);
  }
  // The sampled ranks have names with as many calls after the step in both and names without.
  EXPECT_GT(kinds[static_cast<size_t>(MatchKind::kOccurrence)], 0u);
  EXPECT_GT(kinds[static_cast<size_t>(MatchKind::kNearest)], 0u);
}

}  // namespace
}  // namespace strata
