// Pyramids against brute force: every level's bins and long-event lists equal a direct
// aggregation of the events, on random traces and real ones; a pyramid query represents every
// event in range exactly once at every zoom, as the event-level query does.
#include "core/pyramid/pyramid.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "core/formats/chrome_json/chrome_json_importer.h"
#include "core/store/trace_builder.h"
#include "import_test_util.h"

namespace strata {
namespace {

TraceStore random_trace(uint32_t n, uint32_t seed, int threads) {
  TraceStore s;
  TraceBuilder b(&s);
  uint32_t p = b.process("1", 1);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> size(1, 4000), gap(0, 9000), kids(0, 3);
  std::exponential_distribution<double> longd(1.0 / 2e6);
  StrId names[4] = {b.strings().intern("a"), b.strings().intern("b"), b.strings().intern("c"),
                    b.strings().intern("d")};
  for (int th = 0; th < threads; ++th) {
    uint32_t t = b.thread_track(p, std::to_string(th), th);
    TimeNs ts = 5000 + th * 777;
    for (uint32_t i = 0; i < n; ++i) {
      TimeNs dur = (i % 53 == 0) ? static_cast<TimeNs>(longd(rng)) + 1 : size(rng);
      b.add_complete(t, ts, dur, names[(i + th) % 4], 0, 0, 0);
      int k = kids(rng);
      for (int j = 0; j < k && dur > 8; ++j)
        b.add_complete(t, ts + j * dur / k, dur / k / 2 + 1, names[j % 4], 0, 0, 0);
      ts += dur + gap(rng);
    }
  }
  b.finish();
  return s;
}

// Direct aggregation of one level, row by row.
void check_levels(const TraceStore& s, const Pyramid& p) {
  ASSERT_FALSE(p.levels.empty());
  for (const PyramidLevel& L : p.levels) {
    ASSERT_EQ(L.row_bins.size(), p.rows.size() + 1);
    for (size_t r = 0; r < p.rows.size(); ++r) {
      const Track& tr = s.tracks[p.rows[r].track];
      std::map<int64_t, std::tuple<uint32_t, TimeNs, TimeNs>>
          want;  // bin → count, busy, longest dur
      std::vector<uint32_t> want_long;
      for (uint32_t e = tr.rows[p.rows[r].depth]; e < tr.rows[p.rows[r].depth + 1]; ++e) {
        if (s.events.dur[e] >= L.bin_ns) {
          want_long.push_back(e);
          continue;
        }
        auto& w = want[(s.events.start[e] - p.origin) / L.bin_ns];
        ++std::get<0>(w);
        std::get<1>(w) += s.events.dur[e];
        std::get<2>(w) = std::max(std::get<2>(w), s.events.dur[e]);
      }
      ASSERT_EQ(L.row_bins[r + 1] - L.row_bins[r], want.size())
          << "level " << L.bin_ns << " row " << r;
      uint32_t i = L.row_bins[r];
      for (const auto& [bin, w] : want) {
        EXPECT_EQ(L.bin[i], bin);
        EXPECT_EQ(L.count[i], std::get<0>(w));
        EXPECT_EQ(L.busy[i], std::get<1>(w));
        EXPECT_EQ(s.events.dur[L.longest[i]], std::get<2>(w));

        ++i;
      }
      std::vector<uint32_t> got_long(L.long_events.begin() + L.row_long[r],
                                     L.long_events.begin() + L.row_long[r + 1]);
      EXPECT_EQ(got_long, want_long);
    }
  }
}

uint64_t count_in(const std::vector<VisibleSlice>& v) {
  uint64_t n = 0;
  for (const auto& x : v) n += x.count;
  return n;
}

void check_queries(const TraceStore& s, const Pyramid& p) {
  const double extent = static_cast<double>(s.end_ns - s.start_ns);
  for (double frac : {1.0, 0.2, 0.01, 0.0004}) {
    for (double at : {0.0, 0.37}) {
      ViewportQuery q;
      q.origin = s.start_ns;
      q.start = extent * at;
      q.end = q.start + extent * frac;
      q.width_px = 900;
      std::vector<VisibleSlice> a, b;
      query_slices(s, q, &a);
      query_slices_pyramid(s, p, q, &b);
      // Both represent the same events; they may disagree by the few events that touch the
      // range's edges (a pyramid bin is either in or out as a whole).
      double n = static_cast<double>(count_in(a));
      EXPECT_NEAR(static_cast<double>(count_in(b)), n, 4 + n * 0.02) << frac << " @" << at;
      for (const auto& x : b) {
        EXPECT_LE(x.start, x.end);
        if (x.event != kNone) {
          EXPECT_EQ(x.count, 1u);
          EXPECT_EQ(s.events.name[x.event], x.name);
        } else {
          EXPECT_GT(x.count, 1u);
          EXPECT_LE(x.busy_permille, 1000u);
        }
      }
      // Bounded by the pixels, not the events.
      std::map<std::pair<uint32_t, uint32_t>, uint32_t> per_row;
      for (const auto& x : b) ++per_row[{x.track, x.depth}];
      for (auto& [row, c] : per_row) EXPECT_LE(c, 2 * q.width_px + 4);
    }
  }
}

TEST(Pyramid, LevelsEqualBruteForceOnRandomTraces) {
  for (uint32_t seed : {1u, 2u}) {
    TraceStore s = random_trace(4000, seed, 3);
    Pyramid p = build_pyramid(s);
    check_levels(s, p);
    check_queries(s, p);
  }
}

TEST(Pyramid, LevelChoiceIsTheCoarsestWithinAPixel) {
  TraceStore s = random_trace(1000, 9, 1);
  Pyramid p = build_pyramid(s);
  ASSERT_GE(p.levels.size(), 2u);
  EXPECT_EQ(pyramid_level_for(p, p.levels[0].bin_ns * 0.5),
            -1);  // finer than the finest bins: events
  EXPECT_EQ(pyramid_level_for(p, p.levels[0].bin_ns), 0);
  EXPECT_EQ(pyramid_level_for(p, p.levels[1].bin_ns * 1.5), 1);
  // Kept levels shrink geometrically.
  for (size_t i = 1; i < p.levels.size(); ++i)
    EXPECT_LE(p.levels[i].bin.size() + p.levels[i].long_events.size(),
              (p.levels[i - 1].bin.size() + p.levels[i - 1].long_events.size()) / 4);
}

TEST(Pyramid, RealTraces) {
  for (const char* rel :
       {"ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
        "chrome_trace/catapult/multiple_input_latency.json"}) {
    std::string text;
    if (!testing::read_shared(rel, &text)) GTEST_SKIP() << rel;
    auto r = testing::import_json(text);
    ASSERT_FALSE(r.failed);
    Pyramid p = build_pyramid(*r.store);
    check_levels(*r.store, p);
    check_queries(*r.store, p);
    EXPECT_LT(p.memory_bytes(), r.store->events.size() * 12 + 4096)
        << "the pyramid stays small next to the events";
  }
}

}  // namespace
}  // namespace strata
