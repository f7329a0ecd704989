// A view's wanted tiles fetched as byte runs (core/bundle/fetch_runs.h): tiles in offset order,
// adjacent ones in one run, a gap or the run's size limit starting another; and on a packed
// trace, the runs cut back into tiles give the same view as the tiles fetched one by one, with
// far fewer requests.
#include "core/bundle/fetch_runs.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/bundle/tile_view.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "tools/pack/bundle_file.h"
#include "tools/pack/bundle_writer.h"

namespace strata {
namespace {

// Tile i's span: the i-th byte range of one bundle (part 0); an index past them is unknown.
std::function<bool(uint32_t, bundle::TileSpan*)> spans_of(
    const std::vector<std::pair<uint64_t, uint32_t>>& ranges) {
  return [ranges](uint32_t i, bundle::TileSpan* s) {
    if (i >= ranges.size()) return false;
    *s = {0, ranges[i].first, ranges[i].second};
    return true;
  };
}

// The spans of a bundle's tiles, as the engine gives them (engine_bundle_runs).
std::function<bool(uint32_t, bundle::TileSpan*)> spans_of(const bundle::Manifest& m) {
  return [&m](uint32_t i, bundle::TileSpan* s) {
    if (i >= m.tiles.size()) return false;
    *s = {0, m.tiles[i].offset, m.tiles[i].length};
    return true;
  };
}

TEST(FetchRuns, GroupsAdjacentTilesInOffsetOrder) {
  // Tiles 0-2 back to back, 3 after a 10-byte gap, 4 far away, 5 back to back with 4.
  const auto m = spans_of({{100, 50}, {150, 50}, {200, 25}, {235, 5}, {100000, 10}, {100010, 7}});
  std::vector<uint32_t> tiles = {5, 2, 0, 4, 1, 3, 2, 99};
  const auto runs = bundle::fetch_runs(&tiles, m, /*max_gap=*/16, /*max_bytes=*/1 << 20);
  EXPECT_EQ(tiles, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));  // ordered; the copy and 99 gone
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].offset, 100u);
  EXPECT_EQ(runs[0].length, 140u);  // through tile 3's end, the gap included
  EXPECT_EQ(runs[0].first, 0u);
  EXPECT_EQ(runs[0].count, 4u);
  EXPECT_EQ(runs[1].offset, 100000u);
  EXPECT_EQ(runs[1].length, 17u);
  EXPECT_EQ(runs[1].first, 4u);
  EXPECT_EQ(runs[1].count, 2u);
}

TEST(FetchRuns, AGapOrTheSizeLimitStartsAnotherRun) {
  const auto m = spans_of({{0, 100}, {100, 100}, {200, 100}, {330, 100}});
  std::vector<uint32_t> tiles = {0, 1, 2, 3};
  auto runs = bundle::fetch_runs(&tiles, m, /*max_gap=*/29, /*max_bytes=*/250);
  ASSERT_EQ(runs.size(), 3u);  // 0-1 (200 bytes; 2 would make 300), 2 alone (3 is 30 past it), 3
  EXPECT_EQ(runs[0].count, 2u);
  EXPECT_EQ(runs[1].offset, 200u);
  EXPECT_EQ(runs[1].count, 1u);
  EXPECT_EQ(runs[2].offset, 330u);
  tiles = {};
  EXPECT_TRUE(bundle::fetch_runs(&tiles, m).empty());
}

TEST(FetchRuns, ARunStaysWithinOneBundle) {
  // A pod's hosts: tiles 0-1 in host 0 and 2-3 in host 1 at the same offsets.
  const std::vector<bundle::TileSpan> spans = {{0, 0, 10}, {0, 10, 10}, {1, 0, 10}, {1, 10, 10}};
  std::vector<uint32_t> tiles = {3, 1, 2, 0, 7};
  const auto runs = bundle::fetch_runs(&tiles, [&](uint32_t i, bundle::TileSpan* s) {
    if (i >= spans.size()) return false;
    *s = spans[i];
    return true;
  });
  EXPECT_EQ(tiles, (std::vector<uint32_t>{0, 1, 2, 3}));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].part, 0);
  EXPECT_EQ(runs[0].count, 2u);
  EXPECT_EQ(runs[1].part, 1);
  EXPECT_EQ(runs[1].first, 2u);
  EXPECT_EQ(runs[1].length, 20u);
}

std::string trace_json(int threads, int per_thread) {
  std::string j = "[\n";
  char buf[200];
  for (int t = 0; t < threads; ++t) {
    long long ts = 1000;
    for (int i = 0; i < per_thread; ++i) {
      const long long dur = 3 + (i * 7919 + t * 31) % (i % 40 == 0 ? 3000 : 30);
      std::snprintf(
          buf, sizeof buf,
          "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%lld,\"dur\":%lld,\"name\":\"op%d\"},\n", t,
          ts, dur, i % 23);
      j += buf;
      ts += dur + 1 + i % 3;
    }
  }
  j += "{\"ph\":\"C\",\"pid\":1,\"ts\":1000,\"name\":\"mem\",\"args\":{\"a\":1}}]\n";
  return j;
}

TEST(FetchRuns, RunsCutIntoTilesDrawTheSameViewWithFewerRequests) {
  Engine loaded;
  ASSERT_TRUE(testing::load_trace(&loaded, "runs.json", trace_json(3, 8000)));
  bundle::PackOptions o;
  o.out = testing::scratch_path("fetch_runs.strata");
  o.tile_items = 64;
  bundle::PackStats stats;
  std::string error;
  ASSERT_TRUE(bundle::write_bundle(*loaded.store(), loaded.pyramid(), o, &stats, &error)) << error;
  bundle::BundleFile file;
  ASSERT_TRUE(file.open(o.out, &error)) << error;
  std::ifstream in(o.out, std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  const bundle::SearchIndex* search = file.search(&error);
  ASSERT_NE(search, nullptr) << error;

  const double ext = static_cast<double>(loaded.store()->end_ns - loaded.store()->start_ns);
  bool fewer = false;  // some view needs a third of the requests or less
  for (const auto& [start, end] :
       {std::pair{0.0, ext}, std::pair{0.3 * ext, 0.4 * ext}, std::pair{0.5 * ext, 0.51 * ext}}) {
    ViewportQuery q;
    q.origin = loaded.store()->start_ns;
    q.start = start, q.end = end, q.width_px = 1600;
    BundleSession one(file.manifest(), *search, bytes.size());
    BundleSession runs(file.manifest(), *search, bytes.size());
    std::vector<uint32_t> want = one.wanted(q);
    ASSERT_GT(want.size(), 3u);
    for (uint32_t i : want) {
      const std::vector<uint8_t> b = file.tile_bytes(i);
      one.feed(i, b.data(), b.size());
    }
    // Each row's (or level's, or series') tiles are written in time order, back to back: one
    // request each.
    std::set<std::tuple<int, uint32_t, int>> groups;
    for (uint32_t i : want) {
      const bundle::Tile& t = file.manifest().tiles[i];
      groups.emplace(static_cast<int>(t.kind), t.row, t.level);
    }
    const auto plan = bundle::fetch_runs(&want, spans_of(file.manifest()));
    EXPECT_LE(plan.size(), groups.size());
    fewer = fewer || plan.size() * 3 <= want.size();
    for (const bundle::FetchRun& r : plan) {
      ASSERT_LE(r.offset + r.length, bytes.size());
      for (uint32_t k = r.first; k < r.first + r.count; ++k) {
        const bundle::Tile& t = file.manifest().tiles[want[k]];
        runs.feed(want[k], bytes.data() + t.offset, t.length);
      }
    }
    EXPECT_TRUE(runs.wanted(q).empty());
    EXPECT_TRUE(runs.errors().empty());
    std::vector<VisibleSlice> a, b;
    std::vector<CounterBucket> ca, cb;
    one.view(q, &a, &ca);
    runs.view(q, &b, &cb);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].start, b[k].start);
      EXPECT_EQ(a[k].name, b[k].name);
      EXPECT_EQ(a[k].count, b[k].count);
    }
    EXPECT_EQ(ca.size(), cb.size());
  }
  EXPECT_TRUE(fewer);
}

}  // namespace
}  // namespace strata
