// How strata-pack lays a bundle's tiles out: each pyramid level's tiles together, then the
// events, each group in time order across its rows, then the counters series by series. A view
// reads one level (or the events) of every row it shows over one time range, so its tiles lie
// side by side and the reader fetches them by a few byte ranges (core/bundle/fetch_runs), not one
// per row: this is what a lazy bundle's first pixels wait for.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bundle_test_util.h"
#include "core/bundle/fetch_runs.h"
#include "core/bundle/tile_view.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "tools/pack/bundle_file.h"
#include "tools/pack/bundle_writer.h"

namespace strata::bundle {
namespace {

// The byte ranges a view of [start, end) of the trace (fractions of it) is fetched by.
struct ViewFetch {
  size_t tiles = 0, rows = 0, runs = 0;
};

ViewFetch fetch_of(const Manifest& m, const TileLookup& k, const TraceStore& s, double start,
                   double end) {
  const double ext = static_cast<double>(s.end_ns - s.start_ns);
  ViewportQuery q;
  q.origin = s.start_ns;
  q.start = start * ext, q.end = end * ext, q.width_px = 1600;
  std::vector<uint32_t> want = plan_view(m, k, q);
  ViewFetch f;
  f.tiles = want.size();
  std::set<std::pair<int, uint32_t>> rows;  // (kind, row or series)
  for (uint32_t i : want) rows.emplace(static_cast<int>(m.tiles[i].kind), m.tiles[i].row);
  f.rows = rows.size();
  f.runs = fetch_runs(&want, [&](uint32_t i, TileSpan* span) {
             if (i >= m.tiles.size()) return false;
             span->offset = m.tiles[i].offset, span->length = m.tiles[i].length;
             return true;
           }).size();
  return f;
}

TEST(BundleLayout, AViewsTilesAreFetchedByFewerRequestsThanItHasRows) {
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "layout.json", testing::generated_trace(8, 6000)));
  PackOptions o;
  o.out = testing::scratch_path("layout.strata");
  o.tile_items = 96;  // several tiles per row at every level
  PackStats stats;
  std::string error;
  ASSERT_TRUE(write_bundle(*e.store(), e.pyramid(), o, &stats, &error)) << error;
  BundleFile file;
  ASSERT_TRUE(file.open(o.out, &error)) << error;
  const Manifest& m = file.manifest();
  const TileLookup k = make_lookup(m);

  // Groups in the file: every level's tiles (coarsest first), then events, their tiles' first
  // times never going back, then the counters series by series.
  for (size_t i = 1; i < m.tiles.size(); ++i) {
    const Tile &a = m.tiles[i - 1], &b = m.tiles[i];
    EXPECT_LT(a.offset, b.offset);
    // Levels from the coarsest (most negative) to the finest, then events, counters, and the
    // flows and analyses, which are read by other keys than time.
    auto group = [&](const Tile& t) {
      switch (t.kind) {
        case TileKind::kLevel:
          return -1 - static_cast<int>(t.level);
        case TileKind::kEvents:
          return 1;
        case TileKind::kCounter:
          return 2;
        default:
          return 3;
      }
    };
    ASSERT_LE(group(a), group(b)) << "tile " << i;
    if (group(a) == group(b) && group(a) < 2) EXPECT_LE(a.t0, b.t0) << "tile " << i;
    // Counters series by series, each in time order.
    if (group(a) == 2 && group(b) == 2) {
      EXPECT_LE(a.row, b.row) << "tile " << i;
      if (a.row == b.row) EXPECT_LE(a.t0, b.t0) << "tile " << i;
    }
  }

  // The whole trace, a tenth and a hundredth of it: each view reads tiles of many rows, and the
  // tiles of each group it reads are side by side.
  for (const auto& [start, end] :
       {std::pair{0.0, 1.0}, std::pair{0.4, 0.5}, std::pair{0.5, 0.51}}) {
    const ViewFetch f = fetch_of(m, k, *e.store(), start, end);
    SCOPED_TRACE(std::to_string(start) + " to " + std::to_string(end));
    ASSERT_GT(f.rows, 8u);
    EXPECT_GE(f.tiles, f.rows);
    EXPECT_GT(f.runs, 0u);
    EXPECT_LE(f.runs * 4, f.rows) << f.tiles << " tiles of " << f.rows << " rows";
  }
}

}  // namespace
}  // namespace strata::bundle
