// What the engine asks of a trace whose events stay in tiles fetched on demand: one lazy bundle
// (BundleTiles, a BundleSession) or a pod's hosts opened lazily (engine/pod/pod_lazy.h, a
// BundleSession per host). Indices are the installed store's (its tracks, series, strings and
// event numbering) and tiles are numbered across every bundle behind it, so the engine's views,
// search, details and summary read either the same way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/bundle_session.h"

namespace strata {

class LazyTiles {
 public:
  virtual ~LazyTiles() = default;

  // The one bundle's session, or null (a pod's hosts).
  virtual BundleSession* single() { return nullptr; }

  virtual uint64_t bundle_bytes() const = 0;  // every bundle's size
  // Why the analyses do not run on it and what loading it whole costs (their error; the UI
  // offers "Load whole" beside it).
  virtual std::string analysis_reason() const = 0;
  virtual size_t cache_cap() const = 0;
  virtual uint64_t events() const = 0;  // events in the tiles
  virtual uint32_t track_events(uint32_t track) const = 0;
  virtual size_t tiles() const = 0;
  virtual StrId error_name() const = 0;  // kTileErrorName's id
  virtual const std::vector<double>& series_min() const = 0;
  virtual const std::vector<double>& series_max() const = 0;
  // The tables of the store installed for it, again (strings, sources, processes, tracks,
  // series; no events), for a reply that writes events as a store's; null, with why, when a
  // bundle's tables do not read.
  virtual std::unique_ptr<TraceStore> tables(std::string* error) const = 0;

  // ---- tiles (BundleSession's, numbered across the bundles) ----------------------------------
  virtual std::vector<uint32_t> wanted(const ViewportQuery& q) const = 0;
  // Tile i's byte range in its own bundle (a split bundle's tiles/<local>.zst holds it alone).
  virtual bool tile_range(uint32_t i, uint64_t* offset, uint32_t* length) const = 0;
  // Which bundle tile i is in (0 for one bundle; a pod's host in the order opened) and its
  // index there (*local); -1 for an index out of range.
  virtual int tile_part(uint32_t i, uint32_t* local) const = 0;
  virtual void feed(uint32_t i, const uint8_t* data, size_t n) = 0;
  virtual void fail(uint32_t i, std::string_view why) = 0;
  virtual BundleStats stats() const = 0;
  virtual std::vector<std::string> errors() const = 0;

  // ---- search, events, views -----------------------------------------------------------------
  virtual std::vector<uint32_t> find_begin(std::vector<uint8_t> names, size_t limit,
                                           size_t bins) = 0;
  virtual const BundleFind& find() const = 0;
  virtual int64_t locate(StrId name, double start, double tol,
                         const std::function<bool(uint32_t track)>& keep) const = 0;
  virtual bool event(uint32_t event, TileEvent* out, uint32_t* tile) const = 0;
  virtual void view(const ViewportQuery& q, std::vector<VisibleSlice>* slices,
                    std::vector<CounterBucket>* buckets) const = 0;

  // ---- queries over some tiles (engine/bundle_partial.h), as BundleSession plans them --------
  // Events tile i's row (store track, depth) and time range; false for another tile.
  virtual bool tile_row(uint32_t i, uint32_t* track, uint32_t* depth, TimeNs* t0,
                        TimeNs* t1) const = 0;
  virtual uint32_t max_depth(uint32_t track) const = 0;
  virtual void row_tiles(uint32_t track, uint32_t depth, TimeNs a, TimeNs b,
                         std::vector<uint32_t>* out) const = 0;
  virtual uint32_t event_tile(uint32_t event) const = 0;
  virtual std::vector<uint32_t> name_tiles(StrId name) const = 0;
  virtual void add_neighbour_tiles(std::vector<uint32_t>* tiles, bool above, bool below) const = 0;
  virtual std::vector<uint32_t> missing(const std::vector<uint32_t>& tiles) const = 0;
  // The listed tiles at hand as one store numbered as the trace installed (its tracks, strings
  // and events), on which the loaded trace's select and details code runs.
  virtual PartialStore partial(std::vector<uint32_t> tiles) const = 0;
  // A view's flow arrows over [t0, t1] (absolute ns): the flows tiles they need, not held, and
  // the arrows from those at hand (store tracks). None unless overridden: a pod's hosts do not
  // carry their flows into the pod.
  virtual std::vector<uint32_t> flows_wanted(TimeNs /*t0*/, TimeNs /*t1*/) const { return {}; }
  virtual std::vector<BundleSession::Arrow> view_flows(TimeNs /*t0*/, TimeNs /*t1*/) const {
    return {};
  }
};

// One lazy bundle: its session as it is.
class BundleTiles final : public LazyTiles {
 public:
  explicit BundleTiles(std::unique_ptr<BundleSession> s) : s_(std::move(s)) {}
  BundleSession* single() override { return s_.get(); }
  uint64_t bundle_bytes() const override { return s_->bundle_bytes(); }
  std::string analysis_reason() const override {
    return lazy_bundle_analysis_reason(s_->bundle_bytes());
  }
  size_t cache_cap() const override { return s_->cache_cap(); }
  uint64_t events() const override { return s_->manifest().events; }
  uint32_t track_events(uint32_t track) const override {
    return track < s_->manifest().tracks.size() ? s_->manifest().tracks[track].event_count : 0;
  }
  size_t tiles() const override { return s_->manifest().tiles.size(); }
  StrId error_name() const override { return s_->error_name(); }
  const std::vector<double>& series_min() const override { return s_->series_min(); }
  const std::vector<double>& series_max() const override { return s_->series_max(); }
  std::unique_ptr<TraceStore> tables(std::string* error) const override {
    return s_->tables(error);
  }
  std::vector<uint32_t> wanted(const ViewportQuery& q) const override { return s_->wanted(q); }
  bool tile_range(uint32_t i, uint64_t* offset, uint32_t* length) const override {
    return s_->tile_range(i, offset, length);
  }
  int tile_part(uint32_t i, uint32_t* local) const override {
    *local = i;
    return i < s_->manifest().tiles.size() ? 0 : -1;
  }
  void feed(uint32_t i, const uint8_t* data, size_t n) override { s_->feed(i, data, n); }
  void fail(uint32_t i, std::string_view why) override { s_->fail(i, why); }
  BundleStats stats() const override { return s_->stats(); }
  std::vector<std::string> errors() const override { return s_->errors(); }
  std::vector<uint32_t> find_begin(std::vector<uint8_t> names, size_t limit, size_t bins) override {
    return s_->find_begin(std::move(names), limit, bins);
  }
  const BundleFind& find() const override { return s_->find(); }
  int64_t locate(StrId name, double start, double tol,
                 const std::function<bool(uint32_t track)>& keep) const override {
    return s_->locate(name, start, tol, keep);
  }
  bool event(uint32_t event, TileEvent* out, uint32_t* tile) const override {
    return s_->event(event, out, tile);
  }
  void view(const ViewportQuery& q, std::vector<VisibleSlice>* slices,
            std::vector<CounterBucket>* buckets) const override {
    s_->view(q, slices, buckets);
  }
  bool tile_row(uint32_t i, uint32_t* track, uint32_t* depth, TimeNs* t0,
                TimeNs* t1) const override {
    const bundle::Manifest& m = s_->manifest();
    if (i >= m.tiles.size() || m.tiles[i].kind != bundle::TileKind::kEvents ||
        m.tiles[i].row >= m.rows.size())
      return false;
    *track = m.rows[m.tiles[i].row].track, *depth = m.rows[m.tiles[i].row].depth;
    *t0 = m.tiles[i].t0, *t1 = m.tiles[i].t1;
    return true;
  }
  uint32_t max_depth(uint32_t track) const override {
    return track < s_->manifest().tracks.size() ? s_->manifest().tracks[track].max_depth : 0;
  }
  void row_tiles(uint32_t track, uint32_t depth, TimeNs a, TimeNs b,
                 std::vector<uint32_t>* out) const override {
    s_->row_tiles(track, depth, a, b, out);
  }
  uint32_t event_tile(uint32_t event) const override { return s_->event_tile(event); }
  std::vector<uint32_t> name_tiles(StrId name) const override { return s_->name_tiles(name); }
  void add_neighbour_tiles(std::vector<uint32_t>* tiles, bool above, bool below) const override {
    s_->add_neighbour_tiles(tiles, above, below);
  }
  std::vector<uint32_t> missing(const std::vector<uint32_t>& tiles) const override {
    return s_->missing(tiles);
  }
  PartialStore partial(std::vector<uint32_t> tiles) const override {
    return s_->partial(std::move(tiles));
  }
  std::vector<uint32_t> flows_wanted(TimeNs t0, TimeNs t1) const override {
    return s_->flows_wanted(t0, t1);
  }
  std::vector<BundleSession::Arrow> view_flows(TimeNs t0, TimeNs t1) const override {
    return s_->view_flows(t0, t1);
  }

 private:
  std::unique_ptr<BundleSession> s_;
};

}  // namespace strata
