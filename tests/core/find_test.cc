// Whole-trace search: counts every match, returns the earliest ones in time order.
#include "core/query/find.h"

#include <gtest/gtest.h>

#include "core/store/trace_builder.h"

namespace strata {
namespace {

TEST(Find, CaseInsensitiveSubstring) {
  EXPECT_TRUE(contains_ignore_case("aten::MatMul", "matmul"));
  EXPECT_TRUE(contains_ignore_case("x", ""));
  EXPECT_FALSE(contains_ignore_case("conv", "conv2d"));
  EXPECT_TRUE(contains_ignore_case("Grüße GRÜN", "grü"));  // ASCII folded, UTF-8 bytes exact
}

TEST(Find, CountsAllAndReturnsEarliestFirst) {
  TraceStore s;
  TraceBuilder b(&s);
  uint32_t p = b.process("7", 7);
  uint32_t t1 = b.thread_track(p, "1", 1);
  uint32_t t2 = b.thread_track(p, "2", 2);
  StrId mm = b.strings().intern("aten::matmul");
  StrId mmb = b.strings().intern("MatMulBackward");
  StrId other = b.strings().intern("relu");
  // Interleave tracks and times so the result order must come from sorting, not layout.
  for (int i = 0; i < 300; ++i) {
    b.add_complete(i % 2 ? t1 : t2, 10000 - i * 10, 5,
                   i % 3 == 0   ? mm
                   : i % 3 == 1 ? mmb
                                : other,
                   0, 0, 0);
  }
  b.finish();
  FindResult r = find_events(s, "MATMUL", 100);
  EXPECT_EQ(r.count, 200u);
  ASSERT_EQ(r.events.size(), 100u);
  for (size_t i = 1; i < r.events.size(); ++i)
    EXPECT_LE(s.events.start[r.events[i - 1]], s.events.start[r.events[i]]);
  // The earliest match overall is the earliest returned.
  TimeNs earliest = INT64_MAX;
  for (size_t i = 0; i < s.events.size(); ++i)
    if (s.events.name[i] != other) earliest = std::min(earliest, s.events.start[i]);
  EXPECT_EQ(s.events.start[r.events[0]], earliest);
  EXPECT_EQ(find_events(s, "nothing-like-this", 100).count, 0u);
  EXPECT_EQ(find_events(s, "", 100).count, 0u);
}

// The bins count every match by start time over the whole trace, listed or not, so the ruler
// can mark matches the result list leaves out.
TEST(Find, BinsCountEveryMatchOverTheTrace) {
  TraceStore s;
  TraceBuilder b(&s);
  uint32_t t = b.thread_track(b.process("1", 1), "1", 1);
  StrId hit = b.strings().intern("hit"), miss = b.strings().intern("miss");
  b.add_complete(t, 1000, 10, miss, 0, 0, 0);  // the trace starts here
  b.add_complete(t, 1010, 10, hit, 0, 0, 0);   // bin 0
  b.add_complete(t, 1500, 10, hit, 0, 0, 0);   // bin 5 of 10 over [1000, 2000]
  b.add_complete(t, 1990, 10, hit, 0, 0, 0);   // ends at 2000: the last bin
  b.add_complete(t, 1995, 5, miss, 0, 0, 0);
  b.finish();
  ASSERT_EQ(s.start_ns, 1000);
  ASSERT_EQ(s.end_ns, 2000);
  std::vector<uint8_t> names(s.strings.size(), 0);
  names[hit] = 1;
  FindResult r = find_matching(s, names, 1, 10);
  EXPECT_EQ(r.count, 3u);
  EXPECT_EQ(r.events.size(), 1u);
  ASSERT_EQ(r.bins.size(), 10u);
  EXPECT_EQ(r.bins[0], 1u);
  EXPECT_EQ(r.bins[5], 1u);
  EXPECT_EQ(r.bins[9], 1u);
  uint32_t sum = 0;
  for (uint32_t n : r.bins) sum += n;
  EXPECT_EQ(sum, 3u);
  EXPECT_TRUE(find_matching(s, names, 1).bins.empty());
}

}  // namespace
}  // namespace strata
