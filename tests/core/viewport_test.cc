// The visible-slice query: every event in range is represented exactly once (alone or inside a
// folded run), folded runs only hold sub-pixel events, and results match a brute-force scan.
#include "core/query/viewport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "core/store/trace_builder.h"

namespace strata {
namespace {

// One thread with `n` back-to-back events of random sizes at depth 0 and nested children.
TraceStore random_trace(uint32_t n, uint32_t seed) {
  TraceStore s;
  TraceBuilder b(&s);
  uint32_t p = b.process("1", 1);
  uint32_t t = b.thread_track(p, "1", 1);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> size(1, 5000), gap(0, 3000), kids(0, 3);
  StrId names[3] = {b.strings().intern("a"), b.strings().intern("b"), b.strings().intern("c")};
  TimeNs ts = 1000;
  for (uint32_t i = 0; i < n; ++i) {
    TimeNs dur = (i % 97 == 0) ? 2000000 : size(rng);
    b.add_complete(t, ts, dur, names[i % 3], 0, 0, 0);
    int k = kids(rng);
    for (int j = 0; j < k && dur > 10; ++j)
      b.add_complete(t, ts + j * dur / k, dur / k / 2 + 1, names[(i + j) % 3], 0, 0, 0);
    ts += dur + gap(rng);
  }
  b.finish();
  return s;
}

struct Count {
  uint64_t events = 0;
};

void check_query(const TraceStore& s, const ViewportQuery& q) {
  std::vector<VisibleSlice> out;
  query_slices(s, q, &out);
  const double ns_per_px = (q.end - q.start) / q.width_px;
  const TimeNs t0 = q.origin + static_cast<TimeNs>(std::floor(q.start));
  const TimeNs t1 = q.origin + static_cast<TimeNs>(std::ceil(q.end));
  // Brute force: events intersecting [t0, t1].
  uint64_t expected = 0;
  for (size_t i = 0; i < s.events.size(); ++i) {
    TimeNs a = s.events.start[i], e = a + s.events.dur[i];
    if (e >= t0 && a <= t1) ++expected;
  }
  uint64_t got = 0;
  for (const VisibleSlice& v : out) {
    got += v.count;
    EXPECT_LE(v.start, v.end);
    if (v.event == kNone) {
      EXPECT_GT(v.count, 1u);
    } else {
      EXPECT_EQ(v.count, 1u);
      EXPECT_EQ(s.events.name[v.event], v.name);
      EXPECT_DOUBLE_EQ(v.start, static_cast<double>(s.events.start[v.event] - q.origin));
    }
  }
  // Events touching the range's edges exactly may be counted either way; allow that slack.
  EXPECT_NEAR(static_cast<double>(got), static_cast<double>(expected), 2.0 + expected * 0.001)
      << "range " << q.start << ".." << q.end << " @" << ns_per_px << " ns/px";
  // No row gets more entries than about two per pixel column.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> per_row;
  for (const VisibleSlice& v : out) ++per_row[{v.track, v.depth}];
  for (auto& [row, c] : per_row) EXPECT_LE(c, 2 * q.width_px + 2);
}

TEST(Viewport, EveryEventCountedOnceAtEveryZoom) {
  TraceStore s = random_trace(20000, 7);
  ASSERT_TRUE(s.has_time);
  const double extent = static_cast<double>(s.end_ns - s.start_ns);
  for (double frac : {1.0, 0.3, 0.01, 0.0005}) {
    for (double at : {0.0, 0.25, 0.7}) {
      ViewportQuery q;
      q.origin = s.start_ns;
      q.start = extent * at;
      q.end = q.start + extent * frac;
      q.width_px = 1000;
      check_query(s, q);
    }
  }
}

TEST(Viewport, ZoomedOutFoldsRunsAndStaysSmall) {
  TraceStore s = random_trace(50000, 3);
  ViewportQuery q;
  q.origin = s.start_ns;
  q.start = 0;
  q.end = static_cast<double>(s.end_ns - s.start_ns);
  q.width_px = 800;
  std::vector<VisibleSlice> out;
  query_slices(s, q, &out);
  size_t folded = 0;
  for (const auto& v : out) folded += v.event == kNone;
  EXPECT_GT(folded, 0u);
  EXPECT_LT(out.size(), s.events.size() / 10);
}

TEST(Viewport, ZoomedInShowsSingleEvents) {
  TraceStore s = random_trace(2000, 11);
  ViewportQuery q;
  q.origin = s.start_ns;
  q.start = 0;
  q.end = 20000;  // 20 µs over 1000 px: 20 ns per px, every event is wide
  q.width_px = 1000;
  std::vector<VisibleSlice> out;
  query_slices(s, q, &out);
  ASSERT_FALSE(out.empty());
  for (const auto& v : out) EXPECT_NE(v.event, kNone);
}

TEST(Viewport, CountersGiveTheValueInForceAtTheLeftEdge) {
  TraceStore s;
  TraceBuilder b(&s);
  uint32_t p = b.process("1", 1);
  uint32_t c = b.counter_track(p, "mem");
  StrId v = b.strings().intern("value");
  for (int i = 0; i < 100; ++i) b.add_counter(c, v, 1000 * i, i % 10);
  b.finish();
  ViewportQuery q;
  q.origin = s.start_ns;
  q.start = 5500;  // between samples 5 (value 5) and 6
  q.end = 20500;
  q.width_px = 100;
  std::vector<CounterBucket> out;
  query_counters(s, q, &out);
  ASSERT_FALSE(out.empty());
  EXPECT_DOUBLE_EQ(out[0].start, 5000);
  EXPECT_DOUBLE_EQ(out[0].min, 5);
  // Zoomed out to 1 px for everything: min/max cover all values.
  q.start = 0;
  q.end = 1e6;
  q.width_px = 1;
  out.clear();
  query_counters(s, q, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_DOUBLE_EQ(out[0].min, 0);
  EXPECT_DOUBLE_EQ(out[0].max, 9);
}

// Issue 4: counter series get min/max pyramids. Buckets answered through the pyramid equal the
// brute-force scan at every zoom, on a noisy series with spikes (exact peaks).
TEST(Viewport, CounterBucketsFromTheMinMaxPyramidEqualTheScan) {
  TraceStore s;
  TraceBuilder b(&s);
  uint32_t p = b.process("1", 1);
  uint32_t c = b.counter_track(p, "mem");
  StrId v = b.strings().intern("value");
  StrId w = b.strings().intern("other");
  uint64_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    double val = static_cast<double>(x >> 44) + (i % 7919 == 0 ? 1e9 : 0);  // rare spikes
    b.add_counter(c, v, 37 * i + static_cast<int64_t>(x >> 60), val);
    if (i % 3 == 0) b.add_counter(c, w, 37 * i, -val);
  }
  b.finish();
  const MinMaxPyramid mm = build_minmax_pyramid(s.samples.value);
  for (double frac : {1.0, 0.3, 0.01, 0.0001}) {
    for (uint32_t width : {1u, 7u, 300u, 1920u}) {
      ViewportQuery q;
      q.origin = s.start_ns;
      const double span = static_cast<double>(s.end_ns - s.start_ns);
      q.start = span * 0.2;
      q.end = q.start + span * frac;
      q.width_px = width;
      std::vector<CounterBucket> scan, fast;
      query_counters(s, q, &scan);
      query_counters(s, q, &fast, &mm);
      ASSERT_EQ(scan.size(), fast.size()) << frac << " " << width;
      for (size_t i = 0; i < scan.size(); ++i) {
        ASSERT_EQ(scan[i].series, fast[i].series);
        ASSERT_EQ(scan[i].start, fast[i].start);
        ASSERT_EQ(scan[i].min, fast[i].min) << i;
        ASSERT_EQ(scan[i].max, fast[i].max) << i;
        ASSERT_EQ(scan[i].last, fast[i].last);
      }
    }
  }
}

}  // namespace
}  // namespace strata
