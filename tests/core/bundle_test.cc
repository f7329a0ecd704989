// The tile bundle (docs/BUNDLE.md): strata-pack's writer against the reader. A packed store
// comes back exactly: every tile decodes to the store's own columns over its range (events,
// pyramid levels, counter samples), the rows are covered once, the search index lists exactly
// the tiles holding a name, a split bundle has the same index and tiles, and damage (a flipped
// byte, a missing tile file, another format version, not a bundle) is reported for what it hit.
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "bundle_test_util.h"
#include "core/bundle/bundle_reader.h"
#include "core/bundle/bundle_store.h"
#include "core/formats/sqlite/byte_reader.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "real_trace_fixtures.h"
#include "tools/pack/bundle_file.h"
#include "tools/pack/bundle_writer.h"
#include "tools/pack/pod_manifest.h"

namespace strata::bundle {
namespace {

using strata::testing::read_file;
using strata::testing::scratch_path;

using strata::testing::generated_trace;

struct Packed {
  Engine engine;
  std::string path;
  PackStats stats;
};

void pack(const std::string& name, const std::string& json, PackOptions o, Packed* p) {
  ASSERT_TRUE(strata::testing::load_trace(&p->engine, name, json)) << p->engine.last_error();
  p->path = o.out;
  std::string error;
  ASSERT_TRUE(write_bundle(*p->engine.store(), p->engine.pyramid(), o, &p->stats, &error)) << error;
}

PackOptions small_tiles(const std::string& out, bool split = false) {
  PackOptions o;
  o.out = out;
  o.split = split;
  o.tile_items = 257;  // several tiles per row and level
  return o;
}

// Every tile of `b` decodes to exactly the store's and pyramid's columns over its range.
void expect_same_as_store(const BundleFile& b, const TraceStore& s, const Pyramid& p) {
  const Manifest& m = b.manifest();
  ASSERT_EQ(m.events, s.events.size());
  ASSERT_EQ(m.strings.size(), s.strings.size());
  for (size_t i = 0; i < m.strings.size(); ++i)
    ASSERT_EQ(m.strings[i], s.strings.get(static_cast<StrId>(i)));
  ASSERT_EQ(m.tracks.size(), s.tracks.size());
  for (size_t i = 0; i < m.tracks.size(); ++i) {
    EXPECT_EQ(m.tracks[i].key, s.tracks[i].key);
    EXPECT_EQ(m.tracks[i].rows, s.tracks[i].rows);
    EXPECT_EQ(m.tracks[i].name, s.tracks[i].name);
  }
  ASSERT_EQ(m.rows.size(), p.rows.size());
  ASSERT_EQ(m.level_bin_ns.size(), p.levels.size());
  ASSERT_EQ(m.series.size(), s.series.size());
  // What each row's tiles give back, concatenated in index order.
  std::vector<uint32_t> next_event(m.rows.size());
  for (size_t r = 0; r < m.rows.size(); ++r) {
    ASSERT_EQ(m.rows[r].track, p.rows[r].track);
    next_event[r] = s.tracks[p.rows[r].track].rows[p.rows[r].depth];
  }
  std::vector<std::vector<size_t>> bins_seen(p.levels.size(), std::vector<size_t>(p.rows.size()));
  std::vector<std::vector<size_t>> longs_seen = bins_seen;
  std::vector<size_t> samples_seen(s.series.size());
  size_t events = 0;
  std::string error;
  for (uint32_t i = 0; i < m.tiles.size(); ++i) {
    const Tile& t = m.tiles[i];
    const std::vector<uint8_t> bytes = b.tile_bytes(i);
    if (t.kind == TileKind::kEvents) {
      EventTile e;
      ASSERT_TRUE(decode_events(t, bytes.data(), bytes.size(), &e, &error)) << error;
      ASSERT_EQ(e.first, next_event[t.row]) << "tile " << i << " does not continue its row";
      for (size_t k = 0; k < e.size(); ++k) {
        const size_t x = e.first + k;
        ASSERT_EQ(e.start[k], s.events.start[x]);
        ASSERT_EQ(e.dur[k], s.events.dur[x]);
        ASSERT_EQ(e.name[k], s.events.name[x]);
        ASSERT_EQ(e.cat[k], s.events.cat[x]);
        ASSERT_EQ(e.phase[k], s.events.phase[x]);
        ASSERT_EQ(e.src_offset[k], s.events.src_offset[x]);
        ASSERT_EQ(e.src_len[k], s.events.src_len[x]);
        ASSERT_EQ(s.events.track[x], m.rows[t.row].track);
        ASSERT_EQ(s.events.depth[x], m.rows[t.row].depth);
        ASSERT_GE(e.start[k], t.t0);
        ASSERT_LE(end_of(e.start[k], e.dur[k]), t.t1);
      }
      next_event[t.row] += e.size();
      events += e.size();
    } else if (t.kind == TileKind::kLevel) {
      LevelTile l;
      ASSERT_TRUE(decode_level(t, bytes.data(), bytes.size(), &l, &error)) << error;
      const PyramidLevel& L = p.levels[t.level];
      ASSERT_EQ(m.level_bin_ns[t.level], L.bin_ns);
      size_t& bs = bins_seen[t.level][t.row];
      for (size_t k = 0; k < l.bin.size(); ++k) {
        const size_t x = L.row_bins[t.row] + bs + k;
        ASSERT_LT(x, L.row_bins[t.row + 1]);
        ASSERT_EQ(l.bin[k], L.bin[x]);
        ASSERT_EQ(l.count[k], L.count[x]);
        ASSERT_EQ(l.busy[k], L.busy[x]);
        ASSERT_EQ(l.longest[k], L.longest[x]);
        ASSERT_EQ(l.longest_name[k], s.events.name[L.longest[x]]);
        ASSERT_EQ(l.longest_dur[k], s.events.dur[L.longest[x]]);
      }
      bs += l.bin.size();
      size_t& ls = longs_seen[t.level][t.row];
      for (size_t k = 0; k < l.long_event.size(); ++k) {
        const size_t x = L.row_long[t.row] + ls + k;
        ASSERT_LT(x, L.row_long[t.row + 1]);
        const uint32_t ev = L.long_events[x];
        ASSERT_EQ(l.long_event[k], ev);
        ASSERT_EQ(l.long_start[k], s.events.start[ev]);
        ASSERT_EQ(l.long_dur[k], s.events.dur[ev]);
        ASSERT_EQ(l.long_name[k], s.events.name[ev]);
      }
      ls += l.long_event.size();
    } else if (t.kind == TileKind::kFlows || t.kind == TileKind::kFlowsIn) {
      FlowTile f;  // each edge as the store holds it, in its order (bundle_flows_test: more)
      ASSERT_TRUE(decode_flows(t, bytes.data(), bytes.size(), &f, &error)) << error;
      for (size_t k = 0; k < f.size(); ++k) {
        const uint32_t e = t.kind == TileKind::kFlows ? t.first + static_cast<uint32_t>(k)
                                                      : s.flows.by_to[t.first + k];
        ASSERT_EQ(f.edge[k], e);
        ASSERT_EQ(f.from[k], s.flows.from[e]);
        ASSERT_EQ(f.to[k], s.flows.to[e]);
      }
    } else if (t.kind == TileKind::kAnalysis) {
      std::string text;
      ASSERT_TRUE(decode_text(t, bytes.data(), bytes.size(), &text, &error)) << error;
    } else {
      CounterTile c;
      ASSERT_TRUE(decode_counter(t, bytes.data(), bytes.size(), &c, &error)) << error;
      const CounterSeries& cs = s.series[t.row];
      for (size_t k = 0; k < c.ts.size(); ++k) {
        const size_t x = cs.first_sample + samples_seen[t.row] + k;
        ASSERT_EQ(c.ts[k], s.samples.ts[x]);
        ASSERT_EQ(c.value[k], s.samples.value[x]);
        ASSERT_GE(c.value[k], t.vmin);
        ASSERT_LE(c.value[k], t.vmax);
      }
      samples_seen[t.row] += c.ts.size();
    }
  }
  // Every event once, every bin and long event once, every sample once.
  EXPECT_EQ(events, s.events.size());
  for (size_t r = 0; r < m.rows.size(); ++r) {
    EXPECT_EQ(next_event[r], s.tracks[p.rows[r].track].rows[p.rows[r].depth + 1]);
    for (size_t l = 0; l < p.levels.size(); ++l) {
      EXPECT_EQ(bins_seen[l][r], p.levels[l].row_bins[r + 1] - p.levels[l].row_bins[r]);
      EXPECT_EQ(longs_seen[l][r], p.levels[l].row_long[r + 1] - p.levels[l].row_long[r]);
    }
  }
  for (size_t c = 0; c < s.series.size(); ++c) EXPECT_EQ(samples_seen[c], s.series[c].sample_count);
}

TEST(Bundle, GeneratedTraceComesBackExactly) {
  Packed p;
  pack("gen.json", generated_trace(5, 3000), small_tiles(scratch_path("gen.strata")), &p);
  const TraceStore& s = *p.engine.store();
  ASSERT_GT(p.engine.pyramid().levels.size(), 1u) << "the trace should keep pyramid levels";
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(p.path, &error)) << error;
  EXPECT_FALSE(b.split());
  EXPECT_GT(p.stats.tiles[0], 5u * 2) << "rows are cut into several tiles";
  EXPECT_GT(p.stats.tiles[1], 0u);
  EXPECT_GT(p.stats.tiles[2], 0u);
  expect_same_as_store(b, s, p.engine.pyramid());
  EXPECT_EQ(b.manifest().sources.at(0).name, "gen.json");
  EXPECT_EQ(b.manifest().start_ns, s.start_ns);
  EXPECT_GT(b.manifest().summary.busy_ns, 0);
  std::remove(p.path.c_str());
}

TEST(Bundle, TilesInRangeAreTheOnesOverlappingIt) {
  Packed p;
  pack("gen.json", generated_trace(2, 2000), small_tiles(scratch_path("range.strata")), &p);
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(p.path, &error)) << error;
  const Manifest& m = b.manifest();
  const TraceStore& s = *p.engine.store();
  const TimeNs mid = (s.start_ns + s.end_ns) / 2, t0 = mid - 20000, t1 = mid + 20000;
  size_t row_tiles = 0, picked_tiles = 0;
  for (uint32_t r = 0; r < m.rows.size(); ++r) {
    std::set<uint32_t> want;  // the tiles holding an event that overlaps [t0, t1]
    for (uint32_t i = 0; i < m.tiles.size(); ++i) {
      const Tile& t = m.tiles[i];
      if (t.kind != TileKind::kEvents || t.row != r) continue;
      for (uint32_t e = t.first; e < t.first + t.count; ++e)
        if (s.events.start[e] <= t1 && end_of(s.events.start[e], s.events.dur[e]) >= t0)
          want.insert(i);
    }
    // A tile's range bounds its events, so a tile may be picked for a gap between two of its
    // events: never one missed, and only tiles whose range meets the view.
    const std::vector<uint32_t> got = tiles_in_range(m, TileKind::kEvents, r, 0, t0, t1);
    const std::set<uint32_t> picked(got.begin(), got.end());
    for (uint32_t i : want) EXPECT_TRUE(picked.count(i)) << "row " << r << " misses tile " << i;
    for (uint32_t i : got) EXPECT_TRUE(m.tiles[i].t0 <= t1 && m.tiles[i].t1 >= t0);
    EXPECT_LE(got.size(), want.size() + 1) << "row " << r;
    row_tiles += std::count_if(m.tiles.begin(), m.tiles.end(), [&](const Tile& t) {
      return t.kind == TileKind::kEvents && t.row == r;
    });
    picked_tiles += got.size();
  }
  EXPECT_LT(picked_tiles * 4, row_tiles) << "a narrow view reads a few tiles of each row";
  // The whole trace, as wide as the coarsest level has bins, reads that level's tiles; a 40 us
  // view 1920 px wide reads events tiles.
  ASSERT_FALSE(m.level_bin_ns.empty());
  const double px = static_cast<double>((s.end_ns - s.start_ns) / m.level_bin_ns.back());
  const std::vector<uint32_t> whole = view_tiles(m, s.start_ns, s.end_ns, std::max(1.0, px));
  ASSERT_FALSE(whole.empty());
  std::set<uint32_t> rows_seen;
  for (uint32_t i : whole) {
    EXPECT_EQ(m.tiles[i].kind, TileKind::kLevel);
    EXPECT_EQ(m.tiles[i].level, m.tiles[whole[0]].level);
    rows_seen.insert(m.tiles[i].row);
  }
  EXPECT_EQ(rows_seen.size(), m.rows.size()) << "every row is drawn";
  for (uint32_t i : view_tiles(m, t0, t1, 1920)) EXPECT_EQ(m.tiles[i].kind, TileKind::kEvents);
  std::remove(p.path.c_str());
}

TEST(Bundle, SearchIndexListsExactlyTheTilesHoldingAName) {
  Packed p;
  pack("gen.json", generated_trace(3, 2000), small_tiles(scratch_path("search.strata")), &p);
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(p.path, &error)) << error;
  const SearchIndex* idx = b.search(&error);
  ASSERT_NE(idx, nullptr) << error;
  const Manifest& m = b.manifest();
  std::vector<std::set<uint32_t>> want(m.strings.size());
  for (uint32_t i = 0; i < m.tiles.size(); ++i) {
    if (m.tiles[i].kind != TileKind::kEvents) continue;
    const std::vector<uint8_t> bytes = b.tile_bytes(i);
    EventTile e;
    ASSERT_TRUE(decode_events(m.tiles[i], bytes.data(), bytes.size(), &e, &error)) << error;
    for (StrId n : e.name) want[n].insert(i);
  }
  size_t named = 0;
  for (size_t id = 0; id < m.strings.size(); ++id) {
    std::set<uint32_t> got(idx->tiles.begin() + idx->offsets[id],
                           idx->tiles.begin() + idx->offsets[id + 1]);
    EXPECT_EQ(got, want[id]) << m.strings[id];
    named += !got.empty();
  }
  EXPECT_GT(named, 40u);  // op0..op36, k0..k10, mark
  std::remove(p.path.c_str());
}

TEST(Bundle, SplitBundleHasTheSameIndexAndTiles) {
  const std::string json = generated_trace(3, 1500);
  Packed one, split;
  pack("gen.json", json, small_tiles(scratch_path("one.strata")), &one);
  const std::string dir = scratch_path("split_bundle");
  pack("gen.json", json, small_tiles(dir, true), &split);
  BundleFile a, b;
  std::string error;
  ASSERT_TRUE(a.open(one.path, &error)) << error;
  ASSERT_TRUE(b.open(dir, &error)) << error;
  EXPECT_TRUE(b.split());
  ASSERT_EQ(a.manifest().tiles.size(), b.manifest().tiles.size());
  for (uint32_t i = 0; i < a.manifest().tiles.size(); ++i) {
    EXPECT_EQ(a.manifest().tiles[i].offset, b.manifest().tiles[i].offset);
    EXPECT_EQ(a.manifest().tiles[i].crc, b.manifest().tiles[i].crc);
    EXPECT_EQ(a.tile_bytes(i), b.tile_bytes(i)) << "tile " << i;
  }
  expect_same_as_store(b, *split.engine.store(), split.engine.pyramid());
  std::remove(one.path.c_str());
}

// Flips one byte of a file in place.
void flip_byte(const std::string& path, uint64_t at) {
  FILE* f = std::fopen(path.c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  std::fseek(f, static_cast<long>(at), SEEK_SET);
  const int c = std::fgetc(f);
  std::fseek(f, static_cast<long>(at), SEEK_SET);
  std::fputc(c ^ 0x40, f);
  std::fclose(f);
}

// Decodes every tile: the indices of those that failed, and the message of the first.
std::vector<uint32_t> failing_tiles(const BundleFile& b, std::string* first_error) {
  std::vector<uint32_t> bad;
  for (uint32_t i = 0; i < b.manifest().tiles.size(); ++i) {
    const Tile& t = b.manifest().tiles[i];
    const std::vector<uint8_t> bytes = b.tile_bytes(i);
    std::string error;
    bool ok;
    if (t.kind == TileKind::kEvents) {
      EventTile e;
      ok = decode_events(t, bytes.data(), bytes.size(), &e, &error);
    } else if (t.kind == TileKind::kLevel) {
      LevelTile l;
      ok = decode_level(t, bytes.data(), bytes.size(), &l, &error);
    } else {
      CounterTile c;
      ok = decode_counter(t, bytes.data(), bytes.size(), &c, &error);
    }
    if (!ok) {
      if (bad.empty()) *first_error = error;
      bad.push_back(i);
    }
  }
  return bad;
}

TEST(Bundle, CorruptTileIsReportedForThatTileOnly) {
  Packed p;
  pack("gen.json", generated_trace(2, 1500), small_tiles(scratch_path("corrupt.strata")), &p);
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(p.path, &error)) << error;
  const uint32_t victim = static_cast<uint32_t>(b.manifest().tiles.size() / 2);
  const Tile& t = b.manifest().tiles[victim];
  flip_byte(p.path, t.offset + t.length / 2);
  ASSERT_TRUE(b.open(p.path, &error)) << "the index is intact: " << error;
  const std::vector<uint32_t> bad = failing_tiles(b, &error);
  EXPECT_EQ(bad, std::vector<uint32_t>{victim});
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  std::remove(p.path.c_str());
}

TEST(Bundle, MissingSplitTileIsReportedForThatTileOnly) {
  Packed p;
  const std::string dir = scratch_path("missing_bundle");
  pack("gen.json", generated_trace(2, 1500), small_tiles(dir, true), &p);
  ASSERT_EQ(std::remove((dir + "/tiles/3.zst").c_str()), 0);
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(dir, &error)) << error;
  EXPECT_EQ(failing_tiles(b, &error), std::vector<uint32_t>{3});
  EXPECT_NE(error.find("missing"), std::string::npos) << error;
}

TEST(Bundle, OtherVersionAndOtherFilesAreRefusedWithAMessage) {
  Packed p;
  pack("gen.json", generated_trace(1, 200), small_tiles(scratch_path("version.strata")), &p);
  flip_byte(p.path, 8);  // the version's low byte: 2 → 0x42
  BundleFile b;
  std::string error;
  EXPECT_FALSE(b.open(p.path, &error));
  EXPECT_NE(error.find("format version 66"), std::string::npos) << error;
  EXPECT_NE(error.find("reads version 2"), std::string::npos) << error;
  EXPECT_NE(error.find("pack the trace again"), std::string::npos) << error;

  const std::string json = scratch_path("not_a_bundle.json");
  FILE* f = std::fopen(json.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  const std::string text = generated_trace(1, 100);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  EXPECT_FALSE(b.open(json, &error));
  EXPECT_NE(error.find("not a Strata bundle"), std::string::npos) << error;

  // A damaged index fails the open, never a tile read past it.
  Packed q;
  pack("gen.json", generated_trace(1, 200), small_tiles(scratch_path("index.strata")), &q);
  ASSERT_TRUE(b.open(q.path, &error)) << error;
  flip_byte(q.path, b.manifest().header.index_offset + 3);
  EXPECT_FALSE(b.open(q.path, &error));
  EXPECT_NE(error.find("index"), std::string::npos) << error;
  std::remove(p.path.c_str());
  std::remove(q.path.c_str());
  std::remove(json.c_str());
}

// The whole bundle back as a store: the same store (strings, tracks, rows, events, samples,
// messages) and so the same pyramid.
void expect_store_round_trip(const Packed& p) {
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(p.path, &error)) << error;
  TraceStore back;
  size_t bad = 0;
  ASSERT_TRUE(store_from_bundle(
      b.manifest(),
      [&b](uint32_t i, std::vector<uint8_t>* out) {
        *out = b.tile_bytes(i);
        return !out->empty();
      },
      &back, &bad, &error))
      << error;
  EXPECT_EQ(bad, 0u);
  strata::testing::expect_same_store(*p.engine.store(), back);
  const Pyramid again = build_pyramid(back);
  const Pyramid& was = p.engine.pyramid();
  ASSERT_EQ(again.levels.size(), was.levels.size());
  for (size_t l = 0; l < was.levels.size(); ++l) {
    EXPECT_EQ(again.levels[l].bin, was.levels[l].bin);
    EXPECT_EQ(again.levels[l].long_events, was.levels[l].long_events);
  }
}

TEST(Bundle, WholeBundleIsTheSameStoreAgain) {
  Packed p;
  pack("gen.json", generated_trace(4, 2500), small_tiles(scratch_path("store.strata")), &p);
  expect_store_round_trip(p);
  std::remove(p.path.c_str());
}

TEST(Bundle, WholeBundleWithABadTileKeepsTheRestAndSaysWhich) {
  Packed p;
  pack("gen.json", generated_trace(2, 1500), small_tiles(scratch_path("badstore.strata")), &p);
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(p.path, &error)) << error;
  uint32_t victim = 0;
  while (b.manifest().tiles[victim].kind != TileKind::kEvents || victim == 0) ++victim;
  const Tile t = b.manifest().tiles[victim];
  flip_byte(p.path, t.offset + 1);
  TraceStore back;
  size_t bad = 0;
  ASSERT_TRUE(store_from_bundle(
      b.manifest(),
      [&b](uint32_t i, std::vector<uint8_t>* out) {
        *out = b.tile_bytes(i);
        return true;
      },
      &back, &bad, &error));
  EXPECT_EQ(bad, 1u);
  ASSERT_FALSE(back.errors.empty());
  EXPECT_NE(back.errors.back().find("checksum"), std::string::npos) << back.errors.back();
  const TraceStore& s = *p.engine.store();
  for (size_t e = 0; e < s.events.size(); ++e) {
    const bool hit = e >= t.first && e < t.first + t.count;
    ASSERT_EQ(back.events.dur[e], hit ? 0 : s.events.dur[e]) << e;
    if (!hit) {
      ASSERT_EQ(back.events.start[e], s.events.start[e]) << e;
    }
  }
  // The row stays in time order around the hole.
  const size_t last = std::min<size_t>(s.events.size() - 1, t.first + t.count);
  for (size_t e = t.first - 1; e < last; ++e) {
    if (back.events.track[e] == back.events.track[e + 1] &&
        back.events.depth[e] == back.events.depth[e + 1]) {
      ASSERT_LE(back.events.start[e], back.events.start[e + 1]);
    }
  }
  std::remove(p.path.c_str());
}

TEST(Bundle, EngineOpensABundleAsTheTraceItWasPackedFrom) {
  Packed p;
  pack("gen.json", generated_trace(3, 1500), small_tiles(scratch_path("engine.strata")), &p);
  std::string bytes;
  ASSERT_TRUE(read_file(p.path, &bytes));
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  Engine e;
  MemoryByteReader reader(data, bytes.size());
  ASSERT_TRUE(e.load_bundle("engine.strata", &reader)) << e.last_error();
  strata::testing::expect_same_store(*p.engine.store(), *e.store());
  EXPECT_EQ(e.track_list(), p.engine.track_list());
  EXPECT_EQ(e.find_json("op1", 50), p.engine.find_json("op1", 50));
  EXPECT_EQ(e.query_json("find", "{\"text\":\"k3\",\"limit\":20}"),
            p.engine.query_json("find", "{\"text\":\"k3\",\"limit\":20}"));

  // A v1 bundle (no flows, no analyses): refused with the message, the trace shown stays.
  std::string old = bytes;
  old[8] = 1;
  MemoryByteReader bad(reinterpret_cast<const uint8_t*>(old.data()), old.size());
  const uint32_t generation = e.generation();
  EXPECT_FALSE(e.load_bundle("old.strata", &bad));
  EXPECT_NE(e.last_error().find("format version 1;"), std::string::npos) << e.last_error();
  EXPECT_NE(e.last_error().find("reads version 2"), std::string::npos) << e.last_error();
  EXPECT_EQ(e.generation(), generation);
  EXPECT_EQ(e.store()->events.size(), p.engine.store()->events.size());
  std::remove(p.path.c_str());
}

// A split bundle: the engine reads the manifest through its reader and each tile through the
// split reader (the page's tiles/<i>.zst fetches); without one the manifest alone is refused.
TEST(Bundle, EngineOpensASplitBundleThroughItsTileReader) {
  const std::string json = generated_trace(3, 1500);
  Packed p;
  const std::string dir = scratch_path("engine_split");
  pack("gen.json", json, small_tiles(dir, true), &p);
  std::string manifest;
  ASSERT_TRUE(read_file(dir + "/manifest.strata", &manifest));
  const auto* data = reinterpret_cast<const uint8_t*>(manifest.data());
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(dir, &error)) << error;
  uint32_t reads = 0;
  auto tile = [&](uint32_t i, uint32_t length, std::vector<uint8_t>* out) {
    ++reads;
    *out = b.tile_bytes(i);
    return out->size() == length;
  };
  Engine e;
  MemoryByteReader reader(data, manifest.size());
  EXPECT_FALSE(e.load_bundle("manifest.strata", &reader));
  EXPECT_NE(e.last_error().find("tiles/"), std::string::npos) << e.last_error();
  ASSERT_TRUE(e.load_bundle("manifest.strata", &reader, tile)) << e.last_error();
  EXPECT_GT(reads, 0u);
  strata::testing::expect_same_store(*p.engine.store(), *e.store());
  EXPECT_EQ(e.track_list(), p.engine.track_list());

  // A tile that cannot be read is named; the rest of the trace is there. (An events tile: a
  // bundle read whole rebuilds its levels and does not read theirs.)
  const auto& tiles = b.manifest().tiles;
  const auto first_events = static_cast<uint32_t>(
      std::find_if(tiles.begin(), tiles.end(),
                   [](const Tile& t) { return t.kind == TileKind::kEvents; }) -
      tiles.begin());
  ASSERT_LT(first_events, tiles.size());
  auto missing = [&](uint32_t i, uint32_t length, std::vector<uint8_t>* out) {
    return i != first_events && tile(i, length, out);
  };
  ASSERT_TRUE(e.load_bundle("manifest.strata", &reader, missing)) << e.last_error();
  const auto& errors = e.store()->errors;
  const std::string named = "tile " + std::to_string(first_events) + " cannot be read";
  EXPECT_TRUE(std::any_of(errors.begin(), errors.end(),
                          [&](const std::string& m) { return m.find(named) != std::string::npos; }))
      << errors.size() << " errors";
  EXPECT_EQ(e.store()->events.size(), p.engine.store()->events.size());
}

// An index whose checksum holds but whose content lies (a writer bug, a crafted file): every
// truncation and many single-byte changes of the inflated index either fail the parse with a
// message or give a manifest whose tiles still read without a crash (ASan/UBSan build).
TEST(Bundle, LyingIndexFailsCleanly) {
  Packed p;
  pack("gen.json", generated_trace(2, 600), small_tiles(scratch_path("lying.strata")), &p);
  std::string bytes;
  ASSERT_TRUE(read_file(p.path, &bytes));
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  Header h;
  std::string error;
  ASSERT_TRUE(parse_header(data, bytes.size(), &h, &error)) << error;
  std::vector<uint8_t> raw;
  ASSERT_TRUE(inflate_blob(data + h.index_offset, h.index_length, h.index_length, h.index_raw,
                           h.index_crc, "index", &raw, &error));
  auto parse_changed = [&](const std::vector<uint8_t>& changed) {
    std::vector<uint8_t> z(ZSTD_compressBound(changed.size()));
    z.resize(ZSTD_compress(z.data(), z.size(), changed.data(), changed.size(), 1));
    Header g = h;
    g.index_length = static_cast<uint32_t>(z.size());
    g.index_raw = static_cast<uint32_t>(changed.size());
    g.index_crc = static_cast<uint32_t>(crc32(0, z.data(), static_cast<uInt>(z.size())));
    Manifest m;
    std::string why;
    if (!parse_index(g, z.data(), z.size(), &m, &why)) {
      EXPECT_FALSE(why.empty());
      return false;
    }
    TraceStore back;
    size_t bad = 0;
    store_from_bundle(
        m,
        [&](uint32_t i, std::vector<uint8_t>* out) {
          const Tile& t = m.tiles[i];
          if (t.offset > bytes.size() || t.length > bytes.size() - t.offset) return false;
          out->assign(data + t.offset, data + t.offset + t.length);
          return true;
        },
        &back, &bad, &why);
    build_pyramid(back);  // what Engine::load_bundle does next: the layout must hold
    return true;
  };
  size_t refused = 0;
  for (size_t cut = 0; cut < raw.size(); cut += 1 + raw.size() / 97)
    refused += !parse_changed(std::vector<uint8_t>(raw.begin(), raw.begin() + cut));
  EXPECT_GT(refused, 90u) << "a cut index is refused";
  for (size_t at = 0; at < raw.size(); at += 1 + raw.size() / 211) {
    std::vector<uint8_t> changed = raw;
    changed[at] ^= 0xff;
    parse_changed(changed);
  }
  std::remove(p.path.c_str());
}

TEST(Bundle, PodManifestListsEachHostWithItsTimeBaseAndSummary) {
  const std::string dir = scratch_path("pod");
  ASSERT_EQ(::system(("mkdir -p '" + dir + "'").c_str()), 0);
  for (int h = 0; h < 4; ++h) {
    Packed p;
    PackOptions o;
    o.out = dir + "/host" + std::to_string(h) + ".strata";
    pack("host" + std::to_string(h) + ".json", generated_trace(2, 300, 5000 + h * 1000), o, &p);
  }
  FILE* junk = std::fopen((dir + "/host9.strata").c_str(), "wb");  // not a bundle
  ASSERT_NE(junk, nullptr);
  std::fputs("{}", junk);
  std::fclose(junk);
  const PodMergeResult r = merge_pod(dir);
  EXPECT_EQ(r.hosts, 4u);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("host9.strata: not a Strata bundle"), std::string::npos);
  // Host h starts h ms after host 0: the base is host 0's start (5 ms), offsets in ns.
  EXPECT_NE(r.json.find("\"base\":\"5000000\""), std::string::npos) << r.json;
  for (int h = 0; h < 4; ++h) {
    const std::string host = "\"name\":\"host" + std::to_string(h) + "\",\"bundle\":\"host" +
                             std::to_string(h) + ".strata\",\"origin\":\"" +
                             std::to_string(5000000 + h * 1000000) +
                             "\",\"offset\":" + std::to_string(h * 1000000) + ",";
    EXPECT_NE(r.json.find(host), std::string::npos) << host << "\n" << r.json;
  }
  EXPECT_EQ(r.json.find("\"busy\":0,"), std::string::npos) << "every host is busy";
  ASSERT_EQ(::system(("rm -rf '" + dir + "'").c_str()), 0);
}

TEST(Bundle, RealKinetoTraceComesBackExactly) {
  std::string gz;
  if (!strata::testing::read_shared(strata::testing::kResnetKineto, &gz))
    GTEST_SKIP() << "../shared/data absent";
  Packed p;
  PackOptions o;
  o.out = scratch_path("resnet.strata");
  pack("worker0.pt.trace.json.gz", gz, o, &p);  // compressed: the engine inflates it
  BundleFile b;
  std::string error;
  ASSERT_TRUE(b.open(p.path, &error)) << error;
  expect_same_as_store(b, *p.engine.store(), p.engine.pyramid());
  expect_store_round_trip(p);
  EXPECT_EQ(b.manifest().sources.at(0).compression, "gzip");
  EXPECT_GT(b.manifest().summary.steps, 0u) << "ResNet's ProfilerStep#N slices";
  EXPECT_LT(p.stats.total_bytes, gz.size()) << "smaller than the gzipped source";
  std::remove(p.path.c_str());
}

}  // namespace
}  // namespace strata::bundle
