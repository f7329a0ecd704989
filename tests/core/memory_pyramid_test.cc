// The min/max pyramid and the chart's per-column buckets against brute force, and the
// live-at-instant / breakdown queries on a hand-made allocation list.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "core/memory/memory_data.h"
#include "core/memory/memory_query.h"
#include "core/memory/minmax_pyramid.h"

namespace strata {
namespace {

TEST(MinMaxPyramid, EveryRangeMatchesBruteForce) {
  std::mt19937 rng(7);
  for (size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 65u, 513u, 5000u}) {
    std::vector<double> v(n);
    for (double& x : v) x = (rng() % 10 == 0) ? std::nan("") : static_cast<double>(rng() % 100000);
    const MinMaxPyramid p = build_minmax_pyramid(v);
    for (int k = 0; k < 400; ++k) {
      size_t a = n ? rng() % (n + 1) : 0, b = n ? rng() % (n + 1) : 0;
      if (a > b) std::swap(a, b);
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (size_t i = a; i < b; ++i)
        if (!std::isnan(v[i])) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
      double mn = -1, mx = -1;
      const bool got = range_minmax(p, v, a, b, &mn, &mx);
      ASSERT_EQ(got, lo <= hi) << n << " [" << a << "," << b << ")";
      if (got) {
        EXPECT_EQ(mn, lo) << n << " [" << a << "," << b << ")";
        EXPECT_EQ(mx, hi) << n << " [" << a << "," << b << ")";
      }
    }
  }
}

// The value in effect during [c0, c1): the sample at or before c0, and every sample inside.
TEST(MemoryBuckets, ColumnsMatchBruteForceAtEveryZoom) {
  std::mt19937 rng(11);
  MemorySeries s;
  TimeNs t = 1000;
  for (int i = 0; i < 5000; ++i) {
    t += 1 + rng() % 50;
    s.add(t, static_cast<double>(rng() % 1000000),
          (i % 3 == 0) ? std::nan("") : static_cast<double>(rng() % 2000000));
  }
  s.allocated_pyramid = build_minmax_pyramid(s.allocated);
  s.reserved_pyramid = build_minmax_pyramid(s.reserved);
  const double first = static_cast<double>(s.ts.front()), last = static_cast<double>(s.ts.back());
  for (double span : {last - first + 500, 8000.0, 900.0, 37.0}) {
    for (int k = 0; k < 5; ++k) {
      const double t0 = first - 200 + std::fmod(static_cast<double>(rng()), last - first);
      const double t1 = t0 + span;
      const uint32_t cols = 97;
      const std::vector<MemoryBucket> b = memory_buckets(s, t0, t1, cols);
      ASSERT_EQ(b.size(), cols);
      const double w = (t1 - t0) / cols;
      for (uint32_t c = 0; c < cols; ++c) {
        const double c0 = t0 + w * c, c1 = t0 + w * (c + 1);
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (size_t i = 0; i < s.size(); ++i) {
          const double ti = static_cast<double>(s.ts[i]);
          const bool in_effect =
              ti <= c0 && (i + 1 == s.size() || static_cast<double>(s.ts[i + 1]) > c0);
          if (in_effect || (ti > c0 && ti < c1))
            lo = std::min(lo, s.allocated[i]), hi = std::max(hi, s.allocated[i]);
        }
        ASSERT_EQ(b[c].has_alloc, lo <= hi) << "span " << span << " column " << c;
        if (lo <= hi) {
          EXPECT_EQ(b[c].alloc_min, lo) << "span " << span << " column " << c;
          EXPECT_EQ(b[c].alloc_max, hi) << "span " << span << " column " << c;
        }
      }
    }
  }
}

TEST(MemoryQuery, PeakIsTheFirstMaximum) {
  MemorySeries s;
  s.add(10, 5, std::nan(""));
  s.add(20, 9, 3);
  s.add(30, 9, 4);
  s.add(40, 2, 4);
  MemoryPeak a = series_peak(s, false), r = series_peak(s, true);
  EXPECT_TRUE(a.valid);
  EXPECT_EQ(a.bytes, 9);
  EXPECT_EQ(a.ts, 20);
  EXPECT_EQ(r.bytes, 4);
  EXPECT_EQ(r.ts, 30);
}

TEST(MemoryQuery, LiveAtInstantAndBreakdown) {
  MemoryData m;
  m.allocations.add("conv", "GPU 0", 100, 10, 50, "[8,3]", "heap");
  m.allocations.add("conv", "GPU 0", 300, 20, kNoRelease, "[8,3]", "heap");
  m.allocations.add("mm", "GPU 0", 50, 30, 40, "[4]", "stack");
  m.allocations.add("mm", "GPU 1", 999, 0, kNoRelease);
  m.allocations.add("relu", "GPU 0", 70, 50,
                    60);  // released at 50 by the one above: 50 is live here
  std::vector<uint32_t> live = memory_live_at(m, "GPU 0", 30);
  ASSERT_EQ(live.size(), 3u);
  EXPECT_EQ(live[0], 1u);  // largest first
  EXPECT_EQ(live[1], 0u);
  EXPECT_EQ(live[2], 2u);
  live = memory_live_at(m, "GPU 0", 50);  // [alloc, release): conv#0 gone, relu live
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[0], 1u);
  EXPECT_EQ(live[1], 4u);
  std::vector<MemoryGroup> g =
      memory_breakdown(m, memory_live_at(m, "GPU 0", 35), MemoryGroupBy::kOperator);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].key, "conv");
  EXPECT_EQ(g[0].bytes, 400);
  EXPECT_EQ(g[0].count, 2u);
  EXPECT_EQ(g[1].key, "mm");
  EXPECT_EQ(g[1].bytes, 50);
  g = memory_breakdown(m, memory_live_at(m, "GPU 0", 35), MemoryGroupBy::kRegion);
  EXPECT_EQ(g[0].key, "heap");
  EXPECT_EQ(g[1].key, "stack");
}

TEST(MemoryData, FinishSortsMergesAndPicksThePrimarySeries) {
  MemoryData m;
  m.series.emplace_back();
  m.series[0].device = "NPU:0";
  m.series[0].component = "PTA";
  m.series[0].add(30, 5, 10);
  m.series[0].add(10, 7, 10);  // out of order
  m.series.emplace_back();
  m.series[1].device = "NPU:0";
  m.series[1].component = "APP";
  m.series[1].add(10, std::nan(""), 50);
  memory_finish(&m);
  ASSERT_EQ(m.series.size(), 2u);
  EXPECT_EQ(m.series[0].component, "APP");  // components by name
  EXPECT_EQ(m.series[1].ts, (std::vector<TimeNs>{10, 30}));
  EXPECT_EQ(m.series[1].allocated, (std::vector<double>{7, 5}));
  // Total = the component with the highest allocated peak: APP records only reserved.
  EXPECT_EQ(memory_primary_series(m, "NPU:0"), 1u);
  EXPECT_EQ(memory_primary_series(m, "GPU 9"), kNone);
  MemoryData more;
  more.series.emplace_back();
  more.series[0].device = "NPU:0";
  more.series[0].component = "PTA";
  more.series[0].add(20, 9, 10);
  memory_merge(&m, std::move(more));
  EXPECT_EQ(m.series[1].ts, (std::vector<TimeNs>{10, 20, 30}));
}

}  // namespace
}  // namespace strata
