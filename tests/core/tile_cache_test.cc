// The UI's tile cache (src/ui/timeline/tiles.h): which tiles cover a range, which cached tile a
// view draws at each place (exact, finer halves, coarser, overview), and LRU eviction by bytes.
// The last test requests real tiles from the Engine over the protocol and checks that a tile's
// content does not depend on the view it was requested for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "engine/engine.h"
#include "protocol/view_messages.h"
#include "ui/timeline/tiles.h"

namespace strata {
namespace {

ViewReply reply_with(size_t slices) {
  ViewReply r;
  r.valid = true;
  r.slices.resize(slices);
  return r;
}

TEST(TileMath, LevelIsTheNearestInLogScale) {
  EXPECT_EQ(tile_level_for(0.01), 0);
  EXPECT_EQ(tile_level_for(1), 0);
  EXPECT_EQ(tile_level_for(1.41), 0);
  EXPECT_EQ(tile_level_for(1.42), 1);
  EXPECT_EQ(tile_level_for(2), 1);
  EXPECT_EQ(tile_level_for(2.8), 1);
  EXPECT_EQ(tile_level_for(2.9), 2);
  EXPECT_EQ(tile_level_for(1024), 10);
  EXPECT_EQ(tile_level_for(1400), 10);
  EXPECT_EQ(tile_level_for(1500), 11);
  EXPECT_EQ(tile_level_for(1e300), kMaxTileLevel);
  // A level's pixels are within a factor sqrt(2) of the view's.
  for (double r = 1.5; r < 1e15; r *= 1.37) {
    int l = tile_level_for(r);
    double px = tile_span(l) / kTilePx;
    EXPECT_LE(px, r * std::sqrt(2.0)) << r;
    EXPECT_GE(px * std::sqrt(2.0), r) << r;
  }
}

TEST(TileMath, TilesCoverTheRangeExactly) {
  std::vector<TileKey> k;
  const double span = tile_span(3);  // 4096 ns
  tiles_covering(3, 100, 9000, &k);
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k[0].index, 0);
  EXPECT_EQ(k[2].index, 2);
  EXPECT_EQ(tile_start(k[1]), span);
  // Boundaries: a range ending exactly on a tile edge does not take the next tile.
  tiles_covering(3, span, 2 * span, &k);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].index, 1);
  // Negative times (before the trace start) have negative indices.
  tiles_covering(3, -10, 10, &k);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].index, -1);
  tiles_covering(3, 10, 10, &k);
  EXPECT_TRUE(k.empty());
  // A level is its finer level's tiles in pairs.
  TileKey c{5, 7};
  EXPECT_EQ(tile_start(c), tile_start({4, 14}));
  EXPECT_EQ(tile_end(c), tile_end({4, 15}));
}

TEST(TilePlan, ExactElseFinerHalvesElseCoarserElseOverview) {
  TileCache c;
  const int L = 4;
  const double s = tile_span(L);
  std::vector<TileSegment> plan;
  // Nothing cached: the overview everywhere, one segment.
  plan_tiles(c, L, 0.5 * s, 3.5 * s, &plan);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].tile, nullptr);
  EXPECT_EQ(plan[0].a, 0.5 * s);
  EXPECT_EQ(plan[0].b, 3.5 * s);

  tile_insert(&c, {L, 0}, 0, reply_with(1));      // slot 0: exact
  tile_insert(&c, {L - 1, 2}, 0, reply_with(1));  // slot 1: both finer halves
  tile_insert(&c, {L - 1, 3}, 0, reply_with(1));
  tile_insert(&c, {L + 2, 0}, 0, reply_with(1));  // slots 2, 3: a coarser tile (4 slots)
  plan_tiles(c, L, 0.5 * s, 3.5 * s, &plan);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].key, (TileKey{L, 0}));
  EXPECT_EQ(plan[0].a, 0.5 * s);
  EXPECT_EQ(plan[0].b, s);
  EXPECT_EQ(plan[1].key, (TileKey{L - 1, 2}));
  EXPECT_EQ(plan[2].key, (TileKey{L - 1, 3}));
  EXPECT_EQ(plan[2].b, 2 * s);
  EXPECT_EQ(plan[3].key, (TileKey{L + 2, 0}));  // slots 2 and 3 merge: the same coarse tile
  EXPECT_EQ(plan[3].a, 2 * s);
  EXPECT_EQ(plan[3].b, 3.5 * s);
  for (const TileSegment& g : plan) EXPECT_NE(g.tile, nullptr);

  // Only one finer half is not enough: slot 1 falls back to the coarser tile.
  c.tiles.erase({L - 1, 3});
  plan_tiles(c, L, 0.5 * s, 3.5 * s, &plan);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[1].key, (TileKey{L + 2, 0}));
  EXPECT_EQ(plan[1].a, s);

  // Segments tile the view with no gap or overlap.
  tile_insert(&c, {L, 2}, 0, reply_with(1));
  plan_tiles(c, L, 0.3 * s, 3.9 * s, &plan);
  double at = 0.3 * s;
  for (const TileSegment& g : plan) {
    EXPECT_EQ(g.a, at);
    at = g.b;
  }
  EXPECT_EQ(at, 3.9 * s);
}

TEST(TileWanted, VisibleMissingThenMarginNeverTwice) {
  TileCache c;
  const int L = 2;
  const double s = tile_span(L);
  std::vector<TileKey> w;
  tiles_wanted(c, L, 1.5 * s, 3.5 * s, 0, 100 * s, 0, &w);
  ASSERT_EQ(w.size(), 5u);  // slots 1..3, then margins 4 and 0
  EXPECT_EQ(w[0].index, 1);
  EXPECT_EQ(w[2].index, 3);
  EXPECT_EQ(w[3].index, 4);
  EXPECT_EQ(w[4].index, 0);
  // Cached or in flight: not wanted again.
  tile_insert(&c, {L, 2}, 0, reply_with(1));
  c.in_flight.push_back({7, {L, 3}, 0, 0});
  tiles_wanted(c, L, 1.5 * s, 3.5 * s, 0, 100 * s, 0, &w);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].index, 1);
  // A cached tile without flows is wanted again when flows are asked for.
  tiles_wanted(c, L, 1.5 * s, 3.5 * s, 0, 100 * s, proto::kWantFlows, &w);
  EXPECT_EQ(w.size(), 5u);
  // Nothing outside the trace's time limits.
  tiles_wanted(c, L, 0, 0.5 * s, 0, 0.5 * s, 0, &w);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].index, 0);
}

TEST(TileCacheLru, EvictsLeastRecentlyUsedByBytes) {
  TileCache c;
  const size_t one = tile_bytes(reply_with(100));
  c.budget_bytes = one * 3 + one / 2;  // room for three
  for (int i = 0; i < 3; ++i) tile_insert(&c, {1, i}, 0, reply_with(100));
  EXPECT_EQ(c.tiles.size(), 3u);
  EXPECT_EQ(c.bytes, 3 * one);
  tile_touch(&c, {1, 0});  // 0 is now the most recent; 1 the least
  tile_insert(&c, {1, 3}, 0, reply_with(100));
  EXPECT_EQ(c.tiles.size(), 3u);
  EXPECT_EQ(c.evictions, 1u);
  EXPECT_EQ(tile_find(c, {1, 1}), nullptr);
  EXPECT_NE(tile_find(c, {1, 0}), nullptr);
  EXPECT_NE(tile_find(c, {1, 3}), nullptr);
  // A big tile evicts several, never itself, and the byte count stays exact.
  tile_insert(&c, {2, 0}, 0, reply_with(250));
  EXPECT_NE(tile_find(c, {2, 0}), nullptr);
  size_t sum = 0;
  for (const auto& [k, t] : c.tiles) sum += t.bytes;
  EXPECT_EQ(sum, c.bytes);
  EXPECT_LE(c.bytes, c.budget_bytes);
  // Replacing a tile (e.g. now with flows) does not double-count it.
  const size_t before = c.bytes;
  tile_insert(&c, {2, 0}, proto::kWantFlows, reply_with(250));
  EXPECT_EQ(c.bytes, before);
  EXPECT_EQ(tile_find(c, {2, 0})->flags, proto::kWantFlows);
}

// Real replies: the events a tile holds are the events a wider request at the same resolution
// holds over the tile's range, so a tile's content does not depend on the view it serves.
std::vector<uint8_t> ask(Engine* e, uint32_t generation, double a, double b, uint32_t px) {
  struct {
    proto::Header h;
    proto::ViewRequestBody b;
  } m{};
  m.h = {proto::MsgType::kViewRequest, sizeof m, generation, 1};
  m.b.start = a;
  m.b.end = b;
  m.b.width_px = px;
  return e->view(reinterpret_cast<const uint8_t*>(&m), sizeof m);
}

TEST(TileReplies, TileContentIsTheSameWhateverTheView) {
  Engine e;
  std::string json = "[";
  for (int i = 0; i < 4000; ++i) {
    json += (i ? "," : "") + std::string("{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"e") +
            std::to_string(i % 5) + "\",\"ts\":" + std::to_string(i * 3) +
            ",\"dur\":" + std::to_string(1 + (i % 7) * (i % 3)) + "}";
  }
  json += "]";
  e.load_begin("t.json", json.size());
  std::memcpy(e.load_buffer(json.size()), json.data(), json.size());
  e.load_commit(json.size());
  ASSERT_TRUE(e.load_end());
  TraceData d;
  std::vector<uint8_t> tl = e.track_list();
  ASSERT_TRUE(d.apply(tl.data(), tl.size()));
  const int L = 11;  // 2 us per px, 1 ms tiles: events of 1-13 us, some folded, some not
  const double s = tile_span(L);
  std::vector<uint8_t> one = ask(&e, d.generation, 5 * s, 6 * s, kTilePx);
  ASSERT_TRUE(d.apply(one.data(), one.size()));
  const ViewReply tile = d.reply;
  std::vector<uint8_t> wide = ask(&e, d.generation, 3 * s, 9 * s, 6 * kTilePx);
  ASSERT_TRUE(d.apply(wide.data(), wide.size()));
  auto events_inside = [&](const ViewReply& r) {
    std::vector<uint32_t> ev;
    for (const proto::SliceEntry& x : r.slices)
      if (x.event != kNone && x.start >= 5 * s && x.end <= 6 * s) ev.push_back(x.event);
    std::sort(ev.begin(), ev.end());
    return ev;
  };
  std::vector<uint32_t> a = events_inside(tile), b = events_inside(d.reply);
  EXPECT_GT(a.size(), 20u);
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace strata
