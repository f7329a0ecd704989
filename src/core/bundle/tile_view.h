// A timeline view answered from a bundle's decoded tiles instead of a store: which tiles a view
// reads (the rule of view_tiles(), plus what its edges and counters need), and the slices and
// counter buckets drawn from them, in the shapes query_slices_pyramid() and query_counters()
// give on a loaded trace, so the UI draws a bundle as it draws a trace.
//
// From events tiles the slices are exactly a loaded trace's. From level tiles they are too,
// but for one thing the level tile does not carry: the start of a bin's longest event. A bin
// that stands alone (one event) is drawn from the bin's start for the event's duration, and a
// run's end counts its longest event from the bin's start: off by less than a bin, which at the
// chosen level is under a pixel.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/bundle/bundle_reader.h"
#include "core/query/viewport.h"

namespace strata::bundle {

// Counter series whose view spans more tiles than this are drawn from the index's per-tile
// min/max (one bucket per tile, no fetch); fewer are fetched and drawn sample by sample.
constexpr size_t kMaxCounterTilesPerView = 16;

// One tile, decoded (or why it could not be).
struct DecodedTile {
  TileKind kind = TileKind::kEvents;
  EventTile events;
  LevelTile level;
  CounterTile counter;
  FlowTile flows;    // kFlows, kFlowsIn
  std::string text;  // kAnalysis: the table's JSON
  bool failed = false;
  std::string error;
  size_t bytes() const;  // memory held by the decoded columns
};

// Decodes tile i of `m` from its stored bytes; a failure is kept in the tile (failed, error).
DecodedTile decode_tile(const Manifest& m, uint32_t i, const uint8_t* data, size_t n);

// The tiles of each row (level by level) and each series, in time order, built once per bundle.
struct TileLookup {
  std::vector<std::vector<uint32_t>> events;               // [row]
  std::vector<std::vector<std::vector<uint32_t>>> levels;  // [level][row]
  std::vector<std::vector<uint32_t>> counters;             // [series]
};
TileLookup make_lookup(const Manifest& m);

// The pyramid level a view of q reads (the coarsest whose bins are at most a pixel), or -1: its
// events.
int view_level(const Manifest& m, const ViewportQuery& q);

// Every tile a view of q reads, in index order: view_tiles()'s for the slices (with the bin
// just before the range, which a loaded trace's view also reads), and for each counter series
// the tiles in range and the one before (the sample in force at the left edge) when they are
// at most kMaxCounterTilesPerView.
std::vector<uint32_t> plan_view(const Manifest& m, const TileLookup& k, const ViewportQuery& q);

// Tile i decoded, or null when it is not at hand (not fetched yet, or evicted).
using GetTile = std::function<const DecodedTile*(uint32_t)>;

// The view of q from the tiles at hand. A tile that failed is drawn as one slice over its time
// range with count 0 and name `error_name` (the UI colours it as an error); a tile not at hand
// leaves its place empty. Track indices are the store's (the manifest's).
void view_from_tiles(const Manifest& m, const TileLookup& k, const ViewportQuery& q,
                     const GetTile& get, StrId error_name, std::vector<VisibleSlice>* slices,
                     std::vector<CounterBucket>* buckets);

// Each series' value range from the index (the counter tiles' min and max): the track list's
// vertical scale without a tile.
void series_ranges(const Manifest& m, const TileLookup& k, std::vector<double>* min,
                   std::vector<double>* max);

}  // namespace strata::bundle
