// TraceBuilder: depth assignment, row layout, ordering and counter grouping, driven directly.
#include "core/store/trace_builder.h"

#include <gtest/gtest.h>

#include <random>

#include "import_test_util.h"

namespace strata {
namespace {

using testing::expect_valid_layout;
using testing::find_event;
using testing::name_of;

struct Fixture {
  TraceStore store;
  TraceBuilder b{&store};
  uint32_t track(std::string_view pid = "1", std::string_view tid = "1") {
    return b.thread_track(b.process(pid, 1), tid, 1);
  }
  void x(uint32_t t, const char* name, TimeNs ts, TimeNs dur, uint64_t off = 0) {
    b.add_complete(t, ts, dur, b.strings().intern(name), 0, off, 0);
  }
  uint32_t depth(const char* name) { return store.events.depth[find_event(store, name)]; }
};

TEST(TraceBuilder, DepthByStackRule) {
  Fixture f;
  uint32_t t = f.track();
  // Given out of order; equal starts: the longer one is the parent.
  f.x(t, "child", 0, 5);
  f.x(t, "root", 0, 100);
  f.x(t, "grandchild", 1, 2);
  f.x(t, "sibling", 5, 10);  // starts where "child" ends: same depth
  f.x(t, "zero", 20, 0);
  f.x(t, "after zero", 20, 3);  // longer one first, then the zero-length one nests
  f.x(t, "next root", 100, 1);
  f.b.add_instant(t, 50, f.b.strings().intern("mark"), 0, 0, 0);
  f.b.finish();
  EXPECT_EQ(f.depth("root"), 0u);
  EXPECT_EQ(f.depth("child"), 1u);
  EXPECT_EQ(f.depth("grandchild"), 2u);
  EXPECT_EQ(f.depth("sibling"), 1u);
  EXPECT_EQ(f.depth("after zero"), 1u);
  EXPECT_EQ(f.depth("zero"), 2u);
  EXPECT_EQ(f.depth("next root"), 0u);
  EXPECT_EQ(f.depth("mark"), 1u);
  const Track& tr = f.store.tracks[0];
  EXPECT_EQ(tr.max_depth, 2u);
  ASSERT_EQ(tr.rows.size(), 4u);
  EXPECT_EQ(tr.rows[1] - tr.rows[0], 2u);  // root, next root
  EXPECT_EQ(tr.rows[2] - tr.rows[1], 4u);  // child, sibling, after zero, mark
  EXPECT_EQ(tr.rows[3] - tr.rows[2], 2u);  // grandchild, zero
  // Row 1 is sorted by start.
  EXPECT_EQ(name_of(f.store, f.store.events.name[tr.rows[1]]), "child");
  EXPECT_EQ(name_of(f.store, f.store.events.name[tr.rows[2] - 1]), "mark");
  EXPECT_EQ(f.store.start_ns, 0);
  EXPECT_EQ(f.store.end_ns, 101);
  expect_valid_layout(f.store);
}

TEST(TraceBuilder, PartialOverlapsNeverShareARow) {
  Fixture f;
  uint32_t t = f.track();
  f.x(t, "a", 0, 10);
  f.x(t, "b", 5, 10);   // overlaps a's end: not nested, but must go below a
  f.x(t, "c", 12, 10);  // a has ended, b has not
  f.b.finish();
  EXPECT_EQ(f.depth("a"), 0u);
  EXPECT_EQ(f.depth("b"), 1u);
  EXPECT_EQ(f.depth("c"), 2u);
  expect_valid_layout(f.store);
}

TEST(TraceBuilder, RandomSlicesKeepRowsDisjoint) {
  Fixture f;
  std::mt19937_64 rng(7);
  uint32_t tracks[3] = {f.track("1", "1"), f.track("1", "2"), f.track("2", "1")};
  for (int i = 0; i < 20000; ++i) {
    TimeNs ts = static_cast<TimeNs>(rng() % 100000);
    TimeNs dur = (rng() % 4 == 0) ? 0 : static_cast<TimeNs>(rng() % 5000);
    uint32_t t = tracks[rng() % 3];
    if (rng() % 10 == 0)
      f.b.add_instant(t, ts, 0, 0, i, 0);
    else
      f.b.add_complete(t, ts, dur, 0, 0, i, 0);
  }
  f.b.finish();
  EXPECT_EQ(f.store.events.size(), 20000u);
  expect_valid_layout(f.store);
}

TEST(TraceBuilder, SameStartAndDurationKeepFileOrder) {
  Fixture f;
  uint32_t t = f.track();
  f.x(t, "first", 10, 5, 100);
  f.x(t, "second", 10, 5, 200);
  f.b.finish();
  EXPECT_EQ(f.depth("first"), 0u);
  EXPECT_EQ(f.depth("second"), 1u);
}

TEST(TraceBuilder, ProcessAndTrackOrder) {
  Fixture f;
  TraceBuilder& b = f.b;
  uint32_t p9 = b.process("9", 9), p3 = b.process("3", 3), ps = b.process("abc", 0);
  uint32_t p7 = b.process("7", 7);
  b.set_process_sort_index(p9, 2);
  b.set_process_sort_index(p7, 2);
  uint32_t t5 = b.thread_track(p3, "5", 5), t1 = b.thread_track(p3, "1", 1);
  uint32_t tz = b.thread_track(p3, "z", 0);
  b.set_thread_sort_index(t5, -1);
  uint32_t cb = b.counter_track(p3, "b"), ca = b.counter_track(p3, "a");
  EXPECT_EQ(b.process("3", 3), p3);  // get, not create
  EXPECT_EQ(b.thread_track(p3, "5", 5), t5);
  EXPECT_EQ(b.counter_track(p3, "a"), ca);
  EXPECT_NE(b.thread_track(p9, "5", 5), t5);  // keys are per process
  b.add_counter(ca, b.strings().intern("v"), 1, 1.0);
  b.add_counter(cb, b.strings().intern("v"), 1, 1.0);
  (void)t1;
  (void)tz;
  (void)ps;
  b.finish();
  const TraceStore& s = f.store;
  ASSERT_EQ(s.processes.size(), 4u);
  // Sort index first (7 before 9 on a tie, by pid), then by pid: "abc" (pid 0) before 3.
  EXPECT_EQ(s.processes[0].key, "7");
  EXPECT_EQ(s.processes[1].key, "9");
  EXPECT_EQ(s.processes[2].key, "abc");
  EXPECT_EQ(s.processes[3].key, "3");
  const auto& tr = s.processes[3].tracks;
  ASSERT_EQ(tr.size(), 5u);
  EXPECT_EQ(s.tracks[tr[0]].key, "a");
  EXPECT_EQ(s.tracks[tr[1]].key, "b");
  EXPECT_EQ(s.tracks[tr[2]].key, "5");  // sort index -1
  EXPECT_EQ(s.tracks[tr[3]].key, "z");  // tid 0
  EXPECT_EQ(s.tracks[tr[4]].key, "1");
  EXPECT_EQ(name_of(s, s.tracks[tr[0]].name), "a");
  EXPECT_EQ(name_of(s, s.tracks[tr[2]].name), "Thread 5");
  EXPECT_EQ(s.series[s.tracks[tr[0]].first_series].track, tr[0]);
  EXPECT_EQ(s.tracks[tr[2]].rows.size(), 2u);  // empty thread track: one empty row
  expect_valid_layout(s);
}

TEST(TraceBuilder, BeginEndMatching) {
  Fixture f;
  TraceBuilder& b = f.b;
  uint32_t t = f.track();
  StrId a = b.strings().intern("a"), c = b.strings().intern("c");
  b.add_end(t, 1);  // no open B: dropped
  b.add_begin(t, 10, a, 0, 7, 3);
  b.add_begin(t, 20, c, 0, 8, 3);
  b.add_end(t, 30);                // closes c
  b.add_end(t, 40);                // closes a
  b.add_end(t, 50);                // dropped
  b.add_begin(t, 60, c, 0, 9, 3);  // open: closed at the end of the trace
  f.x(t, "last", 70, 30);
  b.finish();
  const TraceStore& s = f.store;
  ASSERT_EQ(s.events.size(), 4u);
  int64_t ia = find_event(s, "a");
  EXPECT_EQ(s.events.start[ia], 10);
  EXPECT_EQ(s.events.dur[ia], 30);
  EXPECT_EQ(s.events.src_offset[ia], 7u);
  EXPECT_EQ(s.events.phase[ia], 'B');
  EXPECT_EQ(s.end_ns, 100);
  int opened = 0;
  for (size_t i = 0; i < s.events.size(); ++i)
    if (s.events.start[i] == 60) {
      EXPECT_EQ(s.events.dur[i], 40);
      ++opened;
    }
  EXPECT_EQ(opened, 1);
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_EQ(s.warnings[0], "2 E (end) events without a matching B were dropped");
  expect_valid_layout(s);
}

TEST(TraceBuilder, CounterSeriesGroupedAndSorted) {
  Fixture f;
  TraceBuilder& b = f.b;
  uint32_t p = b.process("1", 1);
  uint32_t c = b.counter_track(p, "mem");
  StrId x = b.strings().intern("x"), y = b.strings().intern("y");
  b.add_counter(c, y, 30, 3);
  b.add_counter(c, x, 20, 2);
  b.add_counter(c, y, 10, 1);
  b.add_counter(c, x, 5, 0.5);
  b.finish();
  const TraceStore& s = f.store;
  ASSERT_EQ(s.series.size(), 2u);
  EXPECT_EQ(s.series[0].name, y);  // first appearance
  EXPECT_EQ(s.samples.ts, (std::vector<TimeNs>{10, 30, 5, 20}));
  EXPECT_EQ(s.samples.value, (std::vector<double>{1, 3, 0.5, 2}));
  EXPECT_EQ(s.start_ns, 5);
  EXPECT_EQ(s.end_ns, 30);
  EXPECT_TRUE(s.has_time);
  expect_valid_layout(s);
}

TEST(TraceBuilder, EmptyStore) {
  Fixture f;
  f.b.finish();
  EXPECT_FALSE(f.store.has_time);
  EXPECT_EQ(f.store.events.size(), 0u);
  EXPECT_GT(f.store.memory_bytes(), 0u);
}

TEST(TraceBuilder, MemoryAccountingGrowsWithEvents) {
  Fixture f;
  uint32_t t = f.track();
  size_t before = f.store.memory_bytes();
  for (int i = 0; i < 100000; ++i) f.b.add_complete(t, i * 10, 5, 0, 0, i, 10);
  f.b.finish();
  size_t after = f.store.memory_bytes();
  // ~45 bytes of columns per event after finish() sized them exactly.
  EXPECT_GT(after - before, 100000u * 40);
  EXPECT_LT(after - before, 100000u * 60);
}

}  // namespace
}  // namespace strata
