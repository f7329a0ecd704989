// A pod's hosts opened lazily: each host's bundle is a BundleSession of its own (its header,
// index and search blob read, its tiles fetched on demand), and this stands for all of them as
// one trace. The store installed is every host's tables appended as a whole open appends their
// stores (engine/pod/host_merge.h: "<host> <process>" groups, pids kept, times as written), so
// tracks, series, strings and events are numbered as on the whole pod; tiles are numbered host
// after host. Each answer is the hosts' answers with their indices moved to the pod's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/bundle/bundle_format.h"
#include "engine/lazy_tiles.h"

namespace strata {

// A host's share of the decoded-tile cache: the pod's cap (kTileCacheBytes) split evenly, but
// never below this, so one view's tiles of a host (a few per row) fit without evicting each other.
constexpr size_t kPodHostCacheMinBytes = 4ull << 20;

class PodLazy final : public LazyTiles {
 public:
  // Host `name`'s index as read (read_bundle_index); `bytes`: its bundle's size (a split
  // bundle's tiles included).
  void add(std::string name, bundle::Manifest m, bundle::SearchIndex search, uint64_t bytes);
  size_t hosts() const { return hosts_.size(); }
  // After the last add: the sessions made (the cache split between them) and the store that
  // stands for the pod (no events, as a lazy bundle's tables).
  std::unique_ptr<TraceStore> finish();

  uint64_t bundle_bytes() const override;
  std::string analysis_reason() const override;
  std::unique_ptr<TraceStore> tables(std::string* error) const override;
  size_t cache_cap() const override;
  uint64_t events() const override;
  uint32_t track_events(uint32_t track) const override;
  size_t tiles() const override;
  StrId error_name() const override { return error_name_; }
  const std::vector<double>& series_min() const override { return series_min_; }
  const std::vector<double>& series_max() const override { return series_max_; }

  std::vector<uint32_t> wanted(const ViewportQuery& q) const override;
  bool tile_range(uint32_t i, uint64_t* offset, uint32_t* length) const override;
  int tile_part(uint32_t i, uint32_t* local) const override;
  void feed(uint32_t i, const uint8_t* data, size_t n) override;
  void fail(uint32_t i, std::string_view why) override;
  BundleStats stats() const override;
  std::vector<std::string> errors() const override;

  std::vector<uint32_t> find_begin(std::vector<uint8_t> names, size_t limit, size_t bins) override;
  const BundleFind& find() const override;
  int64_t locate(StrId name, double start, double tol,
                 const std::function<bool(uint32_t track)>& keep) const override;
  bool event(uint32_t event, TileEvent* out, uint32_t* tile) const override;
  void view(const ViewportQuery& q, std::vector<VisibleSlice>* slices,
            std::vector<CounterBucket>* buckets) const override;

  // Queries: each host's tiles planned by its session (a name by each host's search blob, the
  // pod's string id taken to the host's), moved to the pod's tile numbering.
  bool tile_row(uint32_t i, uint32_t* track, uint32_t* depth, TimeNs* t0,
                TimeNs* t1) const override;
  uint32_t max_depth(uint32_t track) const override;
  void row_tiles(uint32_t track, uint32_t depth, TimeNs a, TimeNs b,
                 std::vector<uint32_t>* out) const override;
  uint32_t event_tile(uint32_t event) const override;
  std::vector<uint32_t> name_tiles(StrId name) const override;
  void add_neighbour_tiles(std::vector<uint32_t>* tiles, bool above, bool below) const override;
  std::vector<uint32_t> missing(const std::vector<uint32_t>& tiles) const override;
  // Each host's tiles put together by its session, appended host after host as the whole open
  // appends their stores (append_host), so the store's events, tracks and strings are the
  // pod's: events named by the pod's index, rows where the whole pod has them.
  PartialStore partial(std::vector<uint32_t> tiles) const override;

 private:
  struct Host {
    std::string name;
    bundle::Manifest m;  // until finish() moves it into the session
    bundle::SearchIndex search;
    uint64_t bytes = 0;
    std::unique_ptr<BundleSession> s;
    // Where the host's indices start in the pod's.
    uint32_t track_base = 0, series_base = 0, event_base = 0, tile_base = 0;
    uint64_t stream_base = 0;
    std::vector<StrId> str;  // host string id -> the pod's
  };
  // The host holding pod tile i (with its local index), or null.
  const Host* host_of_tile(uint32_t i, uint32_t* local) const;
  TileEvent to_pod(const Host& h, TileEvent e) const;
  // The host holding pod track `track` (with its local index), or null.
  const Host* host_of_track(uint32_t track, uint32_t* local) const;
  // Pod tiles `tiles` by host: [host] -> its local indices.
  std::vector<std::vector<uint32_t>> by_host(const std::vector<uint32_t>& tiles) const;
  std::vector<Host> hosts_;
  StrId error_name_ = 0;
  std::vector<double> series_min_, series_max_;
  std::vector<uint8_t> find_names_;
  size_t find_limit_ = 0;
  mutable BundleFind find_;  // the hosts' searches merged, as of the last find()
};

}  // namespace strata
