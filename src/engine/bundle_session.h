// A tile bundle opened lazily (docs/BUNDLE.md): the header, index and search blob are read at
// open; each tile is fetched only when a view, a search or a details pane needs it, and kept in
// a bounded cache of decoded tiles (least recently used out first). The session says which
// tiles a request needs and does not hold (the caller fetches them however it can: a Range
// request, a split tile's file, a picked file's slice), takes their bytes, and answers the
// request from what it holds. No I/O here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/bundle/bundle_reader.h"
#include "core/bundle/flow_tiles.h"
#include "core/bundle/tile_view.h"
#include "core/store/trace_store.h"
#include "engine/bundle_partial.h"

namespace strata {

// Bundles at least this big open lazily; smaller ones are read whole (every view then works as
// on a loaded trace). The worker may pass another threshold (tests open small bundles lazily).
constexpr uint64_t kLazyBundleBytes = 256ull << 20;
// The decoded tiles a lazy bundle keeps, in bytes: the page's memory for a bundle of any size is
// its index and this. A view needs a few tiles per row, so this holds many views.
constexpr size_t kTileCacheBytes = 96ull << 20;
// The text of a tile that could not be read, as drawn in its place.
constexpr std::string_view kTileErrorName = "(tile could not be read)";

// Why an analysis does not run on a lazy bundle of `bundle_bytes`, and what loading it whole
// costs (the analyses' error on a lazy bundle; the UI offers "Load whole" beside it).
std::string lazy_bundle_analysis_reason(uint64_t bundle_bytes);

// One event read from an events tile: what a search match or a details pane shows.
struct TileEvent {
  uint32_t event = 0;  // the store index (as a loaded trace numbers it)
  TimeNs start = 0, dur = 0;
  StrId name = 0, cat = 0;
  char phase = 'X';
  uint32_t track = 0, depth = 0;  // store track
  uint64_t src_offset = 0;
  uint32_t src_len = 0;
};

// A search over the bundle's events tiles: the matches counted as each listed tile arrives, the
// earliest `limit` kept (as find_matching() keeps them on a loaded trace).
struct BundleFind {
  uint64_t count = 0;
  std::vector<TileEvent> events;  // by (start, event)
  std::vector<uint32_t> bins;     // matches per equal slice of the trace, by start
  std::vector<uint8_t> names;     // per string id: the name matched
  size_t limit = 0;
  std::vector<uint32_t> left;  // listed tiles not counted yet
  bool done() const { return left.empty(); }
};

struct BundleStats {
  uint64_t tiles_fetched = 0, bytes_fetched = 0;  // tiles fed (bytes as stored)
  uint64_t tiles_failed = 0, evictions = 0;
  size_t cache_bytes = 0, cache_tiles = 0;
};

class BundleSession {
 public:
  // Takes the decoded index and search blob (the caller read them by the header's ranges).
  BundleSession(bundle::Manifest m, bundle::SearchIndex search, uint64_t bundle_bytes,
                size_t cache_cap = kTileCacheBytes);
  BundleSession(const BundleSession&) = delete;  // event_rows_ points at m_
  BundleSession& operator=(const BundleSession&) = delete;

  const bundle::Manifest& manifest() const { return m_; }
  uint64_t bundle_bytes() const { return bundle_bytes_; }
  size_t cache_cap() const { return cap_; }
  // The store that stands for the bundle in the engine: its strings (and kTileErrorName last),
  // sources, processes, tracks and series, without events or samples (each track's rows are
  // empty), so code that reads a store sees an empty trace rather than missing events. Null,
  // with why, when the index's string table repeats a string.
  std::unique_ptr<TraceStore> tables(std::string* error) const;
  StrId error_name() const { return static_cast<StrId>(m_.strings.size()); }

  // ---- tiles ----------------------------------------------------------------------------------
  // The tiles a view of q reads that the cache does not hold (and that have not failed).
  std::vector<uint32_t> wanted(const ViewportQuery& q) const;
  // Where tile i's bytes are in the one-file bundle (a split bundle's tiles/<i>.zst holds them
  // alone): false for an index out of range.
  bool tile_range(uint32_t i, uint64_t* offset, uint32_t* length) const;
  // Tile i's bytes as fetched: decoded into the cache, or marked failed with the reason.
  void feed(uint32_t i, const uint8_t* data, size_t n);
  // Tile i could not be fetched (a missing split file, a failed request).
  void fail(uint32_t i, std::string_view why);
  bool holds(uint32_t i) const { return cache_.count(i) != 0; }
  const BundleStats& stats() const { return stats_; }
  // Tile failures so far, one message each (summary().errors).
  const std::vector<std::string>& errors() const { return errors_; }

  // ---- search ------------------------------------------------------------------------------
  // Starts a search for the events whose name id is marked in `names` (the string table matched
  // first): the search blob lists the tiles holding each name; those held are counted now, the
  // others as they are fed (or failed). Returns the listed tiles not held, to fetch.
  std::vector<uint32_t> find_begin(std::vector<uint8_t> names, size_t limit, size_t bins);
  // The span a search's bins cut into equal slices: the bundle's own unless set (a pod's hosts
  // bin over the pod's span, so their bins add up).
  void set_find_span(TimeNs start, TimeNs end) {
    find_start_ = start, find_end_ = end, find_span_ = true;
  }
  // The search so far (complete when done()).
  const BundleFind& find() const { return find_; }
  // The held event named `name` that starts closest to `start` (within `tol` ns) and passes
  // `keep` (its store track), or -1: the events tiles at hand are searched.
  int64_t locate(StrId name, double start, double tol,
                 const std::function<bool(uint32_t track)>& keep) const;
  // Event `event` when the cache holds its tile; else false and *tile is the tile to fetch.
  bool event(uint32_t event, TileEvent* out, uint32_t* tile) const;

  // ---- queries over some tiles (engine/bundle_partial.h) -------------------------------------
  // Appends the events tiles of row (track, depth) from the first that ends at or after `a` to
  // the last that starts at or before `b`: every event of the row over [a, b], in order.
  void row_tiles(uint32_t track, uint32_t depth, TimeNs a, TimeNs b,
                 std::vector<uint32_t>* out) const;
  // The events tile holding event `event` (from the index alone), or kNone.
  uint32_t event_tile(uint32_t event) const;
  // The events tiles holding an event named `name` (the search blob), in index order.
  std::vector<uint32_t> name_tiles(StrId name) const;
  // Adds, for each events tile listed, the tiles of the row above (`above`: its events'
  // parents) and below (`below`: their children, and so their self times) over its time range.
  void add_neighbour_tiles(std::vector<uint32_t>* tiles, bool above, bool below) const;
  // The listed tiles neither held nor failed: to fetch before partial().
  std::vector<uint32_t> missing(const std::vector<uint32_t>& tiles) const;
  // The listed events tiles at hand as a store (a failed tile's events are absent), with the
  // edges of the listed flows tiles at hand whose both events are in it.
  PartialStore partial(std::vector<uint32_t> tiles) const;
  // Tile i decoded when held (a failed one: failed set), else null.
  const bundle::DecodedTile* tile(uint32_t i) const { return get(i); }

  // ---- flows (core/bundle/flow_tiles.h) -------------------------------------------------------
  // The flows tiles the arrows of [t0, t1] (absolute ns) need, not held.
  std::vector<uint32_t> flows_wanted(TimeNs t0, TimeNs t1) const;
  // The arrows of [t0, t1] from the flows tiles at hand, each placed on its rows (store tracks).
  struct Arrow {
    bundle::ViewFlow flow;
    uint32_t from_track = 0, from_depth = 0, to_track = 0, to_depth = 0;
  };
  std::vector<Arrow> view_flows(TimeNs t0, TimeNs t1) const;
  // Appends the flows tiles holding the edges out of (`in` false) or into events [lo, hi].
  void flow_tiles_of(bool in, uint32_t lo, uint32_t hi, std::vector<uint32_t>* out) const {
    bundle::flow_tiles_of(m_, flow_lookup_, in, lo, hi, out);
  }

  // ---- analyses (packed with default arguments) ----------------------------------------------
  // The kAnalysis tile of analysis `name`, or kNone when the bundle carries none for it.
  uint32_t analysis_tile(std::string_view name) const;

  // ---- answers --------------------------------------------------------------------------------
  // The view from the tiles at hand (core/bundle/tile_view.h); store track indices.
  void view(const ViewportQuery& q, std::vector<VisibleSlice>* slices,
            std::vector<CounterBucket>* buckets) const;
  // Each series' value range from the index.
  const std::vector<double>& series_min() const { return series_min_; }
  const std::vector<double>& series_max() const { return series_max_; }

 private:
  const bundle::DecodedTile* get(uint32_t i) const;
  void find_count(uint32_t i, const bundle::DecodedTile* d);
  BundleFind find_;
  TimeNs find_start_ = 0, find_end_ = 0;
  bool find_span_ = false;
  void insert(uint32_t i, bundle::DecodedTile d);
  bundle::Manifest m_;
  bundle::SearchIndex search_;
  bundle::TileLookup lookup_;
  bundle::FlowLookup flow_lookup_;
  bundle::EventRows event_rows_;
  std::vector<std::vector<uint32_t>> track_rows_;  // [track][depth]: index into m_.rows
  std::vector<uint32_t> events_by_first_;          // the events tiles by their first event
  uint64_t bundle_bytes_ = 0;
  size_t cap_ = 0;
  std::vector<double> series_min_, series_max_;
  struct Entry {
    bundle::DecodedTile tile;
    size_t bytes = 0;
    uint64_t last_use = 0;
  };
  // Touching an entry on use (LRU) changes no answer: mutable so answers stay const.
  mutable std::unordered_map<uint32_t, Entry> cache_;
  mutable uint64_t clock_ = 0;
  std::unordered_map<uint32_t, std::string> failed_;
  std::vector<std::string> errors_;
  BundleStats stats_;
};

}  // namespace strata
