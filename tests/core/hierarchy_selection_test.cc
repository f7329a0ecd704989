// Parent / children / self time from the rows, region selection and the summary table.
#include <gtest/gtest.h>

#include "core/query/hierarchy.h"
#include "core/query/selection.h"
#include "core/store/trace_builder.h"

namespace strata {
namespace {

struct Fixture {
  TraceStore s;
  uint32_t track = 0;
  StrId a, b, c;
  Fixture() {
    TraceBuilder bld(&s);
    uint32_t p = bld.process("1", 1);
    track = bld.thread_track(p, "1", 1);
    a = bld.strings().intern("outer");
    b = bld.strings().intern("inner");
    c = bld.strings().intern("leaf");
    bld.add_complete(track, 0, 100, a, 0, 0, 0);   // outer [0,100]
    bld.add_complete(track, 10, 20, b, 0, 0, 0);   //   inner [10,30]
    bld.add_complete(track, 12, 5, c, 0, 0, 0);    //     leaf [12,17]
    bld.add_complete(track, 50, 40, b, 0, 0, 0);   //   inner [50,90]
    bld.add_complete(track, 200, 10, a, 0, 0, 0);  // outer [200,210]
    bld.finish();
  }
  uint32_t find(StrId name, TimeNs start) const {
    for (uint32_t i = 0; i < s.events.size(); ++i)
      if (s.events.name[i] == name && s.events.start[i] == start) return i;
    return kNone;
  }
};

TEST(Hierarchy, ParentChildrenSelf) {
  Fixture f;
  uint32_t outer = f.find(f.a, 0), in1 = f.find(f.b, 10), leaf = f.find(f.c, 12),
           in2 = f.find(f.b, 50);
  EXPECT_EQ(parent_of(f.s, leaf), in1);
  EXPECT_EQ(parent_of(f.s, in2), outer);
  EXPECT_EQ(parent_of(f.s, outer), kNone);
  uint64_t n = 0;
  auto kids = children_of(f.s, outer, 10, &n);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(kids[0], in1);
  EXPECT_EQ(kids[1], in2);
  EXPECT_EQ(self_time(f.s, outer), 100 - 20 - 40);
  EXPECT_EQ(self_time(f.s, in1), 20 - 5);
  EXPECT_EQ(self_time(f.s, leaf), 5);
  EXPECT_EQ(children_of(f.s, f.find(f.a, 200), 10, &n).size(), 0u);
}

TEST(Selection, RegionAndSummary) {
  Fixture f;
  std::vector<uint32_t> ev;
  // Depths 0-1 over [20, 60]: outer, inner[10,30], inner[50,90].
  uint64_t n = select_region(f.s, 20, 60, {{f.track, 0, 1}}, 100, &ev);
  EXPECT_EQ(n, 3u);
  ASSERT_EQ(ev.size(), 3u);
  auto rows = summarize(f.s, ev);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, f.a);  // largest total first
  EXPECT_EQ(rows[0].total, 100);
  EXPECT_EQ(rows[1].name, f.b);
  EXPECT_EQ(rows[1].count, 2u);
  EXPECT_EQ(rows[1].total, 60);
  EXPECT_EQ(rows[1].min, 20);
  EXPECT_EQ(rows[1].max, 40);
  // The limit caps the list, not the count.
  ev.clear();
  EXPECT_EQ(select_region(f.s, 0, 1000, {{f.track, 0, 5}}, 2, &ev), 5u);
  EXPECT_EQ(ev.size(), 2u);
}

// Self time per name: each event's duration minus what its children cover, summed by name,
// whether or not the children are in the selection themselves.
TEST(Selection, SummarySelfTime) {
  Fixture f;
  std::vector<uint32_t> ev;
  EXPECT_EQ(select_region(f.s, 0, 1000, {{f.track, 0, 2}}, 100, &ev), 5u);
  auto rows = summarize(f.s, ev);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, f.a);
  EXPECT_EQ(rows[0].total, 110);
  EXPECT_EQ(rows[0].self, 100 - 20 - 40 + 10);  // outer[0,100] less its two inners; outer[200,210]
  EXPECT_EQ(rows[1].name, f.b);
  EXPECT_EQ(rows[1].self, 20 - 5 + 40);  // the first inner less its leaf
  EXPECT_EQ(rows[2].name, f.c);
  EXPECT_EQ(rows[2].self, 5);
  // Only the outer events selected: their self time still leaves out the unselected children.
  rows = summarize(f.s, {f.find(f.a, 0)});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].self, 40);
}

// Every event of one name: on all tracks or the given ones; the limit caps the list only.
TEST(Selection, NamedEvents) {
  Fixture f;
  std::vector<uint32_t> ev;
  EXPECT_EQ(select_named(f.s, f.b, {}, 100, &ev), 2u);
  ASSERT_EQ(ev.size(), 2u);
  for (uint32_t e : ev) EXPECT_EQ(f.s.events.name[e], f.b);
  ev.clear();
  EXPECT_EQ(select_named(f.s, f.a, {f.track}, 1, &ev), 2u);
  EXPECT_EQ(ev.size(), 1u);
  ev.clear();
  EXPECT_EQ(select_named(f.s, f.c, {f.track + 1}, 100, &ev), 0u);  // no such track
  EXPECT_TRUE(ev.empty());
}

// One op name in two XLA programs on one device: the program filter keeps the events that start
// inside that program's module runs on the XLA Modules row beside the op's track; a track with
// no such row keeps every event of the name.
TEST(Selection, NamedEventsOfOneProgram) {
  TraceStore s;
  TraceBuilder bld(&s);
  const uint32_t p = bld.process("/device:TPU:0", 1);
  const uint32_t modules = bld.thread_track(p, "1", 1), ops = bld.thread_track(p, "2", 2);
  bld.set_thread_name(modules, bld.strings().intern("XLA Modules"));
  bld.set_thread_name(ops, bld.strings().intern("XLA Ops"));
  const uint32_t other = bld.thread_track(bld.process("/host:CPU", 2), "3", 3);
  const StrId a = bld.strings().intern("jit_a(18446744073709551615)"),
              b = bld.strings().intern("jit_b(7)"), op = bld.strings().intern("fusion.1");
  bld.add_complete(modules, 0, 100, a, 0, 0, 0);
  bld.add_complete(modules, 100, 100, b, 0, 0, 0);
  bld.add_complete(modules, 300, 100, a, 0, 0, 0);
  for (TimeNs t : {0, 10, 100, 150, 300, 250}) bld.add_complete(ops, t, 5, op, 0, 0, 0);
  bld.add_complete(other, 20, 5, op, 0, 0, 0);
  bld.finish();
  std::vector<uint32_t> ev;
  // Both programs, the run outside every module (250) and the host's: the name alone.
  EXPECT_EQ(select_named(s, op, {}, 100, &ev), 7u);
  ev.clear();
  // Program a: its two runs' ops (0, 10, 300), and the host track's, which no row tells apart.
  EXPECT_EQ(select_named(s, op, {}, 100, &ev, "18446744073709551615"), 4u);
  ev.clear();
  uint32_t ops_track = kNone;
  for (uint32_t t = 0; t < s.tracks.size(); ++t)
    if (s.strings.get(s.tracks[t].name) == "XLA Ops") ops_track = t;
  ASSERT_NE(ops_track, kNone);
  EXPECT_EQ(select_named(s, op, {ops_track}, 100, &ev, "18446744073709551615"), 3u);
  for (uint32_t e : ev)
    EXPECT_TRUE(s.events.start[e] < 100 || s.events.start[e] >= 300) << s.events.start[e];
  ev.clear();
  EXPECT_EQ(select_named(s, op, {ops_track}, 100, &ev, "7"), 2u);
  for (uint32_t e : ev) EXPECT_TRUE(s.events.start[e] >= 100 && s.events.start[e] < 200);
  ev.clear();
  EXPECT_EQ(select_named(s, op, {ops_track}, 100, &ev, "8"), 0u);  // no run of that program
}

}  // namespace
}  // namespace strata
