// A bundle opened lazily (engine/bundle_session.h): views answered from tiles fetched on demand
// against the same trace loaded whole. Events-level views are exactly the loaded trace's; level
// views hold the same events and names (a lone event drawn from its bin's start, within a bin);
// counters zoomed in are the same buckets; the cache stays under its cap and a corrupt tile is an
// error span in its place with the rest drawn.
#include "engine/bundle_session.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "bundle_test_util.h"
#include "core/bundle/bundle_reader.h"
#include "core/formats/sqlite/byte_reader.h"
#include "core/query/find.h"
#include "core/query/viewport.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "protocol/view_messages.h"
#include "tools/pack/bundle_file.h"
#include "tools/pack/bundle_writer.h"

namespace strata {
namespace {

using bundle::BundleFile;

// Nested slices on several threads, short and long ones (the pyramid keeps levels with bins and
// long events), instants and a counter.
std::string trace_json(int threads, int per_thread) {
  std::string j = "{\"traceEvents\":[\n";
  char buf[256];
  for (int t = 0; t < threads; ++t) {
    long long ts = 1000 + t * 3;
    for (int i = 0; i < per_thread; ++i) {
      const long long dur = 2 + (i * 7919 + t * 31) % (i % 50 == 0 ? 5000 : 40);
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%lld,\"dur\":%lld,\"name\":\"op%d\","
                    "\"cat\":\"c%d\"},\n",
                    t, ts, dur, i % 37, i % 3);
      j += buf;
      if (dur > 3) {
        std::snprintf(
            buf, sizeof buf,
            "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%lld,\"dur\":1,\"name\":\"k%d\"},\n", t,
            ts + 1, i % 11);
        j += buf;
      }
      if (t == 0) {
        std::snprintf(
            buf, sizeof buf,
            "{\"ph\":\"C\",\"pid\":1,\"ts\":%lld,\"name\":\"mem\",\"args\":{\"a\":%d}},\n", ts,
            (i * 13) % 1000);
        j += buf;
      }
      ts += dur + 1 + i % 4;
    }
  }
  j += "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"host\"}}]}\n";
  return j;
}

using Fixture = testing::PackedTrace;

void make(Fixture* f, const std::string& name) {
  testing::pack_trace(f, name + ".json", trace_json(4, 6000));
}

std::unique_ptr<BundleSession> session_of(BundleFile* f, size_t cap = kTileCacheBytes) {
  std::string error;
  const bundle::SearchIndex* s = f->search(&error);
  EXPECT_NE(s, nullptr) << error;
  return std::make_unique<BundleSession>(f->manifest(), s ? *s : bundle::SearchIndex{}, 1, cap);
}

// Feeds every tile the view wants; the number fed.
size_t fetch(BundleSession* s, const BundleFile& f, const ViewportQuery& q) {
  const std::vector<uint32_t> want = s->wanted(q);
  for (uint32_t i : want) {
    const std::vector<uint8_t> b = f.tile_bytes(i);
    s->feed(i, b.data(), b.size());
  }
  return want.size();
}

ViewportQuery query(const Engine& e, double start, double end, uint32_t px) {
  ViewportQuery q;
  q.origin = e.store()->start_ns;
  q.start = start, q.end = end, q.width_px = px;
  return q;
}

using Key = std::tuple<uint32_t, uint32_t, double, double, uint32_t, uint32_t, uint32_t, uint32_t>;
std::vector<Key> keys(const std::vector<VisibleSlice>& v) {
  std::vector<Key> k;
  for (const VisibleSlice& s : v)
    k.emplace_back(s.track, s.depth, s.start, s.end, s.name, s.event, s.count, s.busy_permille);
  std::sort(k.begin(), k.end());
  return k;
}

double extent(const Engine& e) {
  return static_cast<double>(e.store()->end_ns - e.store()->start_ns);
}

TEST(BundleSession, ZoomedInViewsAreTheLoadedTracesExactly) {
  Fixture f;
  make(&f, "lazy_events");
  auto s = session_of(&f.file);
  const double ext = extent(f.loaded);
  size_t views = 0;
  for (double frac : {0.0, 0.13, 0.5, 0.77, 0.999}) {
    for (double span : {2000.0, 20000.0, 150000.0}) {
      const ViewportQuery q = query(f.loaded, frac * ext, frac * ext + span, 1600);
      if (bundle::view_level(s->manifest(), q) >= 0) continue;  // levels: the test below
      ++views;
      std::vector<VisibleSlice> want, got;
      query_slices_pyramid(*f.loaded.store(), f.loaded.pyramid(), q, &want);
      std::vector<CounterBucket> b;
      fetch(s.get(), f.file, q);
      EXPECT_TRUE(s->wanted(q).empty());
      s->view(q, &got, &b);
      ASSERT_FALSE(want.empty());
      EXPECT_EQ(keys(got), keys(want)) << "view " << q.start << ".." << q.end;
    }
  }
  EXPECT_GE(views, 10u);
  // Before its tiles are fed a view draws nothing of them, and says what it wants.
  auto fresh = session_of(&f.file);
  const ViewportQuery q = query(f.loaded, ext / 2, ext / 2 + 20000, 1600);
  std::vector<VisibleSlice> none;
  std::vector<CounterBucket> b;
  fresh->view(q, &none, &b);
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(fresh->wanted(q).empty());
  // Only the tiles in view were fetched: far fewer than the bundle holds.
  EXPECT_LT(s->stats().tiles_fetched * 4, s->manifest().tiles.size());
}

TEST(BundleSession, LevelViewsHoldTheSameEventsAndNames) {
  Fixture f;
  make(&f, "lazy_levels");
  auto s = session_of(&f.file);
  ASSERT_FALSE(s->manifest().level_bin_ns.empty());
  const double ext = extent(f.loaded);
  size_t views = 0;
  std::set<int> levels;
  for (auto [div, px] : {std::pair{1.0, 10u}, {1.0, 100u}, {2.0, 50u}, {8.0, 60u}}) {
    const ViewportQuery q = query(f.loaded, ext * 0.1, ext * 0.1 + ext / div, px);
    const int level = bundle::view_level(s->manifest(), q);
    if (level < 0) continue;
    ++views;
    levels.insert(level);
    fetch(s.get(), f.file, q);
    std::vector<VisibleSlice> want, got;
    std::vector<CounterBucket> b;
    query_slices_pyramid(*f.loaded.store(), f.loaded.pyramid(), q, &want);
    s->view(q, &got, &b);
    ASSERT_EQ(got.size(), want.size());
    std::sort(want.begin(), want.end(), [](auto& a, auto& c) {
      return std::tie(a.track, a.depth, a.start) < std::tie(c.track, c.depth, c.start);
    });
    std::sort(got.begin(), got.end(), [](auto& a, auto& c) {
      return std::tie(a.track, a.depth, a.start) < std::tie(c.track, c.depth, c.start);
    });
    const double bin = static_cast<double>(s->manifest().level_bin_ns[level]);
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].track, want[i].track);
      EXPECT_EQ(got[i].depth, want[i].depth);
      EXPECT_EQ(got[i].name, want[i].name);
      EXPECT_EQ(got[i].event, want[i].event);
      EXPECT_EQ(got[i].count, want[i].count);
      EXPECT_NEAR(got[i].start, want[i].start, bin);
      EXPECT_NEAR(got[i].end, want[i].end, bin);
    }
  }
  EXPECT_GE(views, 3u);
  EXPECT_GE(levels.size(), 2u);
}

TEST(BundleSession, ZoomedInCountersAreTheLoadedTracesBuckets) {
  Fixture f;
  make(&f, "lazy_counters");
  auto s = session_of(&f.file);
  ASSERT_FALSE(s->manifest().series.empty());
  const double ext = extent(f.loaded);
  const ViewportQuery q = query(f.loaded, ext * 0.05, ext * 0.05 + ext / 200, 800);
  fetch(s.get(), f.file, q);
  std::vector<VisibleSlice> sl;
  std::vector<CounterBucket> want, got;
  query_counters(*f.loaded.store(), q, &want);
  s->view(q, &sl, &got);
  ASSERT_FALSE(want.empty());
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].series, want[i].series);
    EXPECT_EQ(got[i].start, want[i].start);
    EXPECT_EQ(got[i].min, want[i].min);
    EXPECT_EQ(got[i].max, want[i].max);
    EXPECT_EQ(got[i].last, want[i].last);
  }
  // The whole trace: too many counter tiles to fetch, so one bucket per tile from the index.
  const ViewportQuery all = query(f.loaded, 0, ext, 800);
  for (uint32_t i : s->wanted(all))
    EXPECT_NE(s->manifest().tiles[i].kind, bundle::TileKind::kCounter);
  got.clear();
  s->view(all, &sl, &got);
  EXPECT_GT(got.size(), bundle::kMaxCounterTilesPerView);
}

TEST(BundleSession, TheCacheStaysUnderItsCap) {
  Fixture f;
  make(&f, "lazy_cache");
  constexpr size_t kCap = 256 << 10;
  auto s = session_of(&f.file, kCap);
  const double ext = extent(f.loaded);
  size_t biggest = 0;
  for (int k = 0; k < 60; ++k) {
    const ViewportQuery q = query(f.loaded, ext * k / 60, ext * k / 60 + 30000, 1000);
    for (uint32_t i : s->wanted(q)) {
      const std::vector<uint8_t> b = f.file.tile_bytes(i);
      s->feed(i, b.data(), b.size());
      biggest =
          std::max(biggest, bundle::decode_tile(s->manifest(), i, b.data(), b.size()).bytes());
      EXPECT_LE(s->stats().cache_bytes, kCap + biggest);
    }
  }
  EXPECT_GT(s->stats().evictions, 0u);
  // An evicted view is wanted again.
  const ViewportQuery first = query(f.loaded, 0, 30000, 1000);
  EXPECT_FALSE(s->wanted(first).empty());
}

TEST(BundleSession, ACorruptTileIsAnErrorSpanAndTheRestDraws) {
  Fixture f;
  make(&f, "lazy_corrupt");
  auto s = session_of(&f.file);
  const ViewportQuery q = query(f.loaded, 5000, 60000, 1600);
  const std::vector<uint32_t> want = s->wanted(q);
  ASSERT_GE(want.size(), 2u);
  const uint32_t bad = want[0];
  for (uint32_t i : want) {
    std::vector<uint8_t> b = f.file.tile_bytes(i);
    if (i == bad) b[b.size() / 2] ^= 0x40;
    s->feed(i, b.data(), b.size());
  }
  EXPECT_TRUE(s->wanted(q).empty());  // a failed tile is not asked for again
  ASSERT_EQ(s->errors().size(), 1u);
  EXPECT_NE(s->errors()[0].find("checksum"), std::string::npos) << s->errors()[0];
  std::vector<VisibleSlice> got;
  std::vector<CounterBucket> b;
  s->view(q, &got, &b);
  size_t errors = 0, drawn = 0;
  for (const VisibleSlice& v : got) {
    if (v.count == 0) {
      ++errors;
      EXPECT_EQ(v.name, s->error_name());
      EXPECT_EQ(v.track, s->manifest().rows[s->manifest().tiles[bad].row].track);
    } else {
      ++drawn;
    }
  }
  EXPECT_EQ(errors, 1u);
  EXPECT_GT(drawn, 0u);
  // A tile that cannot be fetched at all (a missing split file).
  s->fail(want[1], "missing or cut short");
  EXPECT_EQ(s->errors().size(), 2u);
}

// The engine: a lazy bundle's track list is the loaded trace's (event counts included), its
// views come from the session, and summary() reports the tiles.
TEST(BundleSession, EngineOpensABundleLazily) {
  Fixture f;
  make(&f, "lazy_engine");
  FileByteReader r(f.path);
  ASSERT_TRUE(r.ok());
  Engine e;
  ASSERT_TRUE(e.open_bundle_lazy("lazy_engine.strata", &r)) << e.last_error();
  ASSERT_NE(e.bundle_session(), nullptr);
  const std::vector<uint8_t> a = f.loaded.track_list(), b = e.track_list();
  proto::TrackListHead ha, hb;
  std::memcpy(&ha, a.data() + sizeof(proto::Header), sizeof ha);
  std::memcpy(&hb, b.data() + sizeof(proto::Header), sizeof hb);
  EXPECT_EQ(ha.origin_ns, hb.origin_ns);
  EXPECT_EQ(ha.extent_ns, hb.extent_ns);
  EXPECT_EQ(ha.track_count, hb.track_count);
  EXPECT_EQ(ha.process_count, hb.process_count);
  EXPECT_EQ(hb.string_count, ha.string_count + 1);  // the tile error's name
  const size_t off =
      sizeof(proto::Header) + sizeof ha + ha.process_count * sizeof(proto::ProcessEntry);
  for (uint32_t t = 0; t < ha.track_count; ++t) {
    proto::TrackEntry ta, tb;
    std::memcpy(&ta, a.data() + off + t * sizeof ta, sizeof ta);
    std::memcpy(&tb, b.data() + off + t * sizeof tb, sizeof tb);
    EXPECT_EQ(ta.event_count, tb.event_count);
    EXPECT_EQ(ta.rows, tb.rows);
    EXPECT_EQ(ta.tid, tb.tid);
  }
  // A zoomed-in view request: its tiles wanted, then the reply equals the loaded trace's.
  struct {
    proto::Header h;
    proto::ViewRequestBody b;
  } msg{};
  msg.h = {proto::MsgType::kViewRequest, sizeof msg, e.generation(), 7};
  msg.b.start = 10000, msg.b.end = 40000, msg.b.width_px = 1500;
  const auto* req = reinterpret_cast<const uint8_t*>(&msg);
  const std::vector<uint32_t> want = e.bundle_wanted(req, sizeof msg);
  ASSERT_FALSE(want.empty());
  for (uint32_t i : want) {
    const std::vector<uint8_t> bytes = f.file.tile_bytes(i);
    e.bundle_session()->feed(i, bytes.data(), bytes.size());
  }
  EXPECT_TRUE(e.bundle_wanted(req, sizeof msg).empty());
  msg.h.generation = f.loaded.generation();
  const std::vector<uint8_t> va = f.loaded.view(req, sizeof msg);
  msg.h.generation = e.generation();
  const std::vector<uint8_t> vb = e.view(req, sizeof msg);
  proto::ViewReplyHead ra, rb;
  std::memcpy(&ra, va.data() + sizeof(proto::Header), sizeof ra);
  std::memcpy(&rb, vb.data() + sizeof(proto::Header), sizeof rb);
  ASSERT_GT(ra.slice_count, 0u);
  EXPECT_EQ(ra.slice_count, rb.slice_count);
  EXPECT_EQ(ra.bucket_count, rb.bucket_count);
  const size_t s0 = sizeof(proto::Header) + sizeof ra;
  EXPECT_EQ(
      0, std::memcmp(va.data() + s0, vb.data() + s0, ra.slice_count * sizeof(proto::SliceEntry)));
  const std::string sum = e.summary_json();
  EXPECT_NE(sum.find("\"bundle\":{"), std::string::npos) << sum;
  EXPECT_NE(sum.find("\"tilesFetched\":" + std::to_string(want.size())), std::string::npos) << sum;
  EXPECT_NE(sum.find("\"events\":" + std::to_string(f.loaded.store()->events.size())),
            std::string::npos);
  // Analyses see an empty trace, not missing events.
  EXPECT_EQ(e.store()->events.size(), 0u);
  // Loading another trace ends the session.
  ASSERT_TRUE(testing::load_trace(&e, "small.json", trace_json(1, 10)));
  EXPECT_EQ(e.bundle_session(), nullptr);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// Search on a lazy bundle: once the tiles the search blob lists are fed, the find query and
// strata.find answer exactly as on the trace loaded whole; before, they list nothing.
TEST(BundleSession, SearchReadsOnlyTheListedTilesAndAnswersAsALoadedTrace) {
  Fixture f;
  make(&f, "lazy_find");
  FileByteReader r(f.path);
  Engine e;
  ASSERT_TRUE(e.open_bundle_lazy("lazy_find.strata", &r)) << e.last_error();
  const size_t events_tiles = static_cast<size_t>(std::count_if(
      e.bundle_session()->manifest().tiles.begin(), e.bundle_session()->manifest().tiles.end(),
      [](const bundle::Tile& t) { return t.kind == bundle::TileKind::kEvents; }));
  for (const std::string args :
       {R"({"text":"K7","limit":50})", R"({"text":"^op(3|17)$","regex":true})",
        R"({"text":"nothing like it"})", R"({"text":"mark"})"}) {
    std::vector<uint32_t> tiles;
    std::string error;
    ASSERT_TRUE(e.bundle_find_begin(args, &tiles, &error)) << error;
    for (uint32_t i : tiles) {
      const std::vector<uint8_t> b = f.file.tile_bytes(i);
      e.bundle_session()->feed(i, b.data(), b.size());
    }
    ASSERT_TRUE(e.bundle_session()->find().done());
    EXPECT_EQ(e.query_json("find", args), f.loaded.query_json("find", args)) << args;
    if (args.find("K7") != std::string::npos) {
      EXPECT_FALSE(tiles.empty());
      EXPECT_LT(tiles.size(), events_tiles);  // only the tiles holding k7
      EXPECT_EQ(e.find_json("K7", 50), f.loaded.find_json("K7", 50));
      // A match located by its name, start and thread, as the page's strata.locate asks.
      const TraceStore& ls = *f.loaded.store();
      const FindResult fr = find_events(ls, "k7", 5);
      ASSERT_FALSE(fr.events.empty());
      for (uint32_t ev : fr.events) {
        const Track& t = ls.tracks[ls.events.track[ev]];
        const std::string pid = ls.processes[t.process].key;
        const double at = static_cast<double>(ls.events.start[ev]);
        EXPECT_EQ(e.locate("k7", at, pid, t.key), static_cast<int64_t>(ev));
      }
    }
  }
  std::vector<uint32_t> tiles;
  std::string error;
  EXPECT_FALSE(e.bundle_find_begin(R"({"text":"(","regex":true})", &tiles, &error));
  EXPECT_NE(error.find("regular expression"), std::string::npos);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// The part of a JSON reply from `"key":[` to its closing bracket (flat arrays of objects).
std::string array_of(const std::string& json, const std::string& key) {
  const size_t a = json.find("\"" + key + "\":[");
  if (a == std::string::npos) return "";
  size_t depth = 0, i = json.find('[', a);
  for (size_t j = i; j < json.size(); ++j) {
    depth += json[j] == '[';
    if (json[j] == ']' && --depth == 0) return json.substr(i, j - i + 1);
  }
  return "";
}

// Selection and details on a lazy bundle: an event whose tile is held is selected and detailed
// with the loaded trace's fields; its args need the source (a note says so without it).
TEST(BundleSession, SelectionAndDetailsReadTheEventsTile) {
  Fixture f;
  make(&f, "lazy_details");
  FileByteReader r(f.path);
  Engine e;
  ASSERT_TRUE(e.open_bundle_lazy("lazy_details.strata", &r)) << e.last_error();
  const uint32_t event = static_cast<uint32_t>(f.loaded.store()->events.size() / 3);
  const std::vector<uint32_t> tiles = e.bundle_details_wanted(event);
  ASSERT_FALSE(tiles.empty());
  EXPECT_EQ(e.details_json(event, ""), "null");  // not held yet
  for (uint32_t tile : tiles) {
    const std::vector<uint8_t> b = f.file.tile_bytes(tile);
    e.bundle_session()->feed(tile, b.data(), b.size());
  }
  EXPECT_TRUE(e.bundle_details_wanted(event).empty());
  const std::string args = "{\"events\":[" + std::to_string(event) + "]}";
  const std::string got = e.query_json("select", args), want = f.loaded.query_json("select", args);
  EXPECT_EQ(array_of(got, "events"), array_of(want, "events"));
  EXPECT_NE(got.find("\"count\":1"), std::string::npos) << got;
  const std::string d = e.details_json(event, ""), full = f.loaded.details_json(event, "");
  for (const char* key : {"\"name\":", "\"cat\":", "\"startNs\":", "\"durNs\":", "\"pid\":",
                          "\"tid\":", "\"depth\":"}) {
    const size_t a = d.find(key), c = full.find(key);
    ASSERT_NE(a, std::string::npos) << key << " in " << d;
    ASSERT_NE(c, std::string::npos) << key;
    EXPECT_EQ(d.substr(a, d.find_first_of(",}", a) - a),
              full.substr(c, full.find_first_of(",}", c) - c))
        << key;
  }
  EXPECT_NE(d.find("\"recordNote\":\"args: the source is not here"), std::string::npos) << d;
  // With the record read from the source by its range: the record, no note.
  uint64_t off = 0;
  uint32_t len = 0;
  ASSERT_TRUE(e.bundle_event_source(event, &off, &len));
  uint64_t off2 = 0;
  uint32_t len2 = 0;
  ASSERT_TRUE(f.loaded.event_source(event, &off2, &len2));
  EXPECT_EQ(off, off2);
  EXPECT_EQ(len, len2);
  const std::string with = e.details_json(event, "{\"args\":{\"x\":1}}");
  EXPECT_NE(with.find("\"record\":{\"args\":{\"x\":1}}"), std::string::npos) << with;
  EXPECT_EQ(with.find("recordNote"), std::string::npos);
  // Analyses answer from the tables packed with the bundle; with other arguments they say
  // plainly that they need the bundle whole.
  EXPECT_EQ(e.query_json("analysis", "{}"), f.loaded.query_json("analysis", "{}"));
  const std::string why = e.query_json("analysis", R"({"name":"steps","limit":3})");
  EXPECT_NE(why.find("load it whole to run analyses"), std::string::npos) << why;
}

}  // namespace
}  // namespace strata
