#include "engine/bundle_session.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "core/bundle/bundle_store.h"

namespace strata {

using bundle::DecodedTile;

std::string lazy_bundle_analysis_reason(uint64_t bundle_bytes) {
  const uint64_t mb = (bundle_bytes + (1u << 20) - 1) >> 20;
  return "this bundle is open lazily; load it whole to run analyses (Load whole reads all " +
         std::to_string(mb) + " MB of it into memory)";
}

BundleSession::BundleSession(bundle::Manifest m, bundle::SearchIndex search, uint64_t bundle_bytes,
                             size_t cache_cap)
    : m_(std::move(m)),
      search_(std::move(search)),
      event_rows_(m_),
      bundle_bytes_(bundle_bytes),
      cap_(cache_cap) {
  lookup_ = bundle::make_lookup(m_);
  flow_lookup_ = bundle::make_flow_lookup(m_);
  for (uint32_t i = 0; i < m_.tiles.size(); ++i)
    if (m_.tiles[i].kind == bundle::TileKind::kEvents && m_.tiles[i].count)
      events_by_first_.push_back(i);
  std::sort(events_by_first_.begin(), events_by_first_.end(),
            [&](uint32_t a, uint32_t b) { return m_.tiles[a].first < m_.tiles[b].first; });
  track_rows_.resize(m_.tracks.size());
  for (uint32_t r = 0; r < m_.rows.size(); ++r) {
    const bundle::RowInfo& row = m_.rows[r];
    if (row.track >= track_rows_.size()) continue;
    std::vector<uint32_t>& depths = track_rows_[row.track];
    if (depths.size() <= row.depth) depths.resize(row.depth + 1, kNone);
    depths[row.depth] = r;
  }
  bundle::series_ranges(m_, lookup_, &series_min_, &series_max_);
}

std::unique_ptr<TraceStore> BundleSession::tables(std::string* error) const {
  auto s = std::make_unique<TraceStore>();
  if (!bundle::store_tables(m_, s.get(), error)) return nullptr;
  s->strings.intern(kTileErrorName);
  // No events or samples here (the tiles hold them): every row and series is empty.
  for (Track& t : s->tracks) {
    t.first_event = 0, t.event_count = 0;
    std::fill(t.rows.begin(), t.rows.end(), 0);
  }
  for (CounterSeries& c : s->series) c.first_sample = 0, c.sample_count = 0;
  return s;
}

std::vector<uint32_t> BundleSession::wanted(const ViewportQuery& q) const {
  std::vector<uint32_t> out;
  for (uint32_t i : bundle::plan_view(m_, lookup_, q))
    if (!cache_.count(i) && !failed_.count(i)) out.push_back(i);
  return out;
}

bool BundleSession::tile_range(uint32_t i, uint64_t* offset, uint32_t* length) const {
  if (i >= m_.tiles.size()) return false;
  *offset = m_.tiles[i].offset;
  *length = m_.tiles[i].length;
  return true;
}

void BundleSession::feed(uint32_t i, const uint8_t* data, size_t n) {
  if (i >= m_.tiles.size() || cache_.count(i)) return;
  ++stats_.tiles_fetched;
  stats_.bytes_fetched += n;
  DecodedTile d = bundle::decode_tile(m_, i, data, n);
  if (d.failed) {
    fail(i, d.error);
    return;
  }
  insert(i, std::move(d));
  find_count(i, get(i));
}

void BundleSession::fail(uint32_t i, std::string_view why) {
  if (i >= m_.tiles.size() || failed_.count(i)) return;
  ++stats_.tiles_failed;
  std::string message = "bundle tile " + std::to_string(i) + ": " + std::string(why);
  failed_.emplace(i, message);
  errors_.push_back(std::move(message));
  find_count(i, nullptr);
}

std::vector<uint32_t> BundleSession::find_begin(std::vector<uint8_t> names, size_t limit,
                                                size_t bins) {
  find_ = BundleFind{};
  find_.names = std::move(names);
  find_.names.resize(m_.strings.size(), 0);
  find_.limit = limit;
  find_.bins.assign(bins, 0);
  std::vector<uint32_t> tiles;
  const size_t ids = search_.offsets.empty() ? 0 : search_.offsets.size() - 1;
  for (size_t id = 0; id < find_.names.size() && id < ids; ++id) {
    if (!find_.names[id]) continue;
    for (uint32_t k = search_.offsets[id]; k < search_.offsets[id + 1] && k < search_.tiles.size();
         ++k)
      tiles.push_back(search_.tiles[k]);
  }
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  std::vector<uint32_t> fetch;
  for (uint32_t i : tiles)
    if (i < m_.tiles.size() && m_.tiles[i].kind == bundle::TileKind::kEvents && !failed_.count(i)) {
      find_.left.push_back(i);
      if (!cache_.count(i)) fetch.push_back(i);
    }
  for (uint32_t i : tiles)
    if (cache_.count(i)) find_count(i, get(i));
  return fetch;
}

// Counts tile i's matches once, when it is one the search waits for (d null: it failed).
void BundleSession::find_count(uint32_t i, const DecodedTile* d) {
  auto at = std::lower_bound(find_.left.begin(), find_.left.end(), i);
  if (at == find_.left.end() || *at != i) return;
  find_.left.erase(at);
  if (!d || d->failed || d->kind != bundle::TileKind::kEvents) return;
  const bundle::EventTile& e = d->events;
  const bundle::RowInfo row = m_.rows[m_.tiles[i].row];
  const size_t bins = find_.bins.size();
  const TimeNs t0 = find_span_ ? find_start_ : m_.start_ns;
  const double span =
      static_cast<double>(std::max<TimeNs>(1, (find_span_ ? find_end_ : m_.end_ns) - t0));
  auto earlier = [](const TileEvent& a, const TileEvent& b) {
    return std::tie(a.start, a.event) < std::tie(b.start, b.event);
  };
  std::vector<TileEvent>& heap = find_.events;  // a max-heap of the earliest `limit`
  for (size_t k = 0; k < e.size(); ++k) {
    if (e.name[k] >= find_.names.size() || !find_.names[e.name[k]]) continue;
    ++find_.count;
    if (bins) {
      const double at_bin = static_cast<double>(e.start[k] - t0) * bins / span;
      find_.bins[static_cast<size_t>(std::clamp(at_bin, 0.0, static_cast<double>(bins - 1)))]++;
    }
    if (find_.limit == 0) continue;
    TileEvent t{e.first + static_cast<uint32_t>(k),
                e.start[k],
                e.dur[k],
                e.name[k],
                e.cat[k],
                e.phase[k],
                row.track,
                row.depth,
                e.src_offset[k],
                e.src_len[k]};
    if (heap.size() < find_.limit) {
      heap.push_back(t);
      std::push_heap(heap.begin(), heap.end(), earlier);
    } else if (earlier(t, heap.front())) {
      std::pop_heap(heap.begin(), heap.end(), earlier);
      heap.back() = t;
      std::push_heap(heap.begin(), heap.end(), earlier);
    }
  }
  if (find_.done()) std::sort_heap(heap.begin(), heap.end(), earlier);
}

int64_t BundleSession::locate(StrId name, double start, double tol,
                              const std::function<bool(uint32_t track)>& keep) const {
  int64_t best = -1;
  double best_d = tol;
  for (const auto& [i, entry] : cache_) {
    const DecodedTile& d = entry.tile;
    if (d.kind != bundle::TileKind::kEvents) continue;
    const uint32_t track = m_.rows[m_.tiles[i].row].track;
    if (!keep(track)) continue;
    for (size_t k = 0; k < d.events.size(); ++k) {
      if (d.events.name[k] != name) continue;
      const double dist = std::fabs(static_cast<double>(d.events.start[k]) - start);
      if (dist > best_d) continue;
      best = d.events.first + static_cast<int64_t>(k);
      best_d = dist;
    }
  }
  return best;
}

bool BundleSession::event(uint32_t event, TileEvent* out, uint32_t* tile) const {
  *tile = event_tile(event);
  if (*tile == kNone) return false;
  const bundle::Tile& t = m_.tiles[*tile];
  const DecodedTile* d = get(*tile);
  if (!d || d->failed) return false;
  const bundle::EventTile& e = d->events;
  const size_t k = event - t.first;
  if (k >= e.size()) return false;
  const bundle::RowInfo row = m_.rows[t.row];
  *out = {event,      e.start[k], e.dur[k],  e.name[k],       e.cat[k],
          e.phase[k], row.track,  row.depth, e.src_offset[k], e.src_len[k]};
  return true;
}

void BundleSession::row_tiles(uint32_t track, uint32_t depth, TimeNs a, TimeNs b,
                              std::vector<uint32_t>* out) const {
  if (track >= track_rows_.size() || depth >= track_rows_[track].size()) return;
  const uint32_t row = track_rows_[track][depth];
  if (row == kNone || row >= lookup_.events.size()) return;
  const std::vector<uint32_t>& tiles = lookup_.events[row];
  // Tiles of a row are in time order; t1 (the latest end so far) need not grow, so the first
  // tile reaching `a` is found by a walk, the last starting by `b` by the order of starts.
  size_t k = 0;
  while (k < tiles.size() && m_.tiles[tiles[k]].t1 < a) ++k;
  for (; k < tiles.size() && m_.tiles[tiles[k]].t0 <= b; ++k) out->push_back(tiles[k]);
}

uint32_t BundleSession::event_tile(uint32_t event) const {
  // Rows do not share events, so the tile starting last at or before the event decides.
  auto at = std::upper_bound(events_by_first_.begin(), events_by_first_.end(), event,
                             [&](uint32_t e, uint32_t i) { return e < m_.tiles[i].first; });
  if (at == events_by_first_.begin()) return kNone;
  const bundle::Tile& t = m_.tiles[*(at - 1)];
  return event - t.first < t.count ? *(at - 1) : kNone;
}

std::vector<uint32_t> BundleSession::name_tiles(StrId name) const {
  std::vector<uint32_t> out;
  if (static_cast<size_t>(name) + 1 >= search_.offsets.size()) return out;
  for (uint32_t k = search_.offsets[name];
       k < search_.offsets[name + 1] && k < search_.tiles.size(); ++k)
    if (search_.tiles[k] < m_.tiles.size() &&
        m_.tiles[search_.tiles[k]].kind == bundle::TileKind::kEvents)
      out.push_back(search_.tiles[k]);
  return out;
}

void BundleSession::add_neighbour_tiles(std::vector<uint32_t>* tiles, bool above,
                                        bool below) const {
  const size_t n = tiles->size();
  for (size_t k = 0; k < n; ++k) {
    const bundle::Tile& t = m_.tiles[(*tiles)[k]];
    if (t.kind != bundle::TileKind::kEvents) continue;
    const bundle::RowInfo row = m_.rows[t.row];
    if (above && row.depth > 0) row_tiles(row.track, row.depth - 1, t.t0, t.t1, tiles);
    if (below) row_tiles(row.track, row.depth + 1, t.t0, t.t1, tiles);
  }
  std::sort(tiles->begin(), tiles->end());
  tiles->erase(std::unique(tiles->begin(), tiles->end()), tiles->end());
}

std::vector<uint32_t> BundleSession::missing(const std::vector<uint32_t>& tiles) const {
  std::vector<uint32_t> out;
  for (uint32_t i : tiles)
    if (i < m_.tiles.size() && !cache_.count(i) && !failed_.count(i)) out.push_back(i);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

PartialStore BundleSession::partial(std::vector<uint32_t> tiles) const {
  PartialStore p;
  std::string error;
  p.store = tables(&error);
  if (!p.store) p.store = std::make_unique<TraceStore>();
  std::vector<uint32_t> flow_tiles;
  for (uint32_t i : tiles)
    if (i < m_.tiles.size() && (m_.tiles[i].kind == bundle::TileKind::kFlows ||
                                m_.tiles[i].kind == bundle::TileKind::kFlowsIn))
      flow_tiles.push_back(i);
  // In the trace's order: a row's tiles follow each other, rows by track and depth.
  std::erase_if(tiles, [&](uint32_t i) {
    return i >= m_.tiles.size() || m_.tiles[i].kind != bundle::TileKind::kEvents;
  });
  std::sort(tiles.begin(), tiles.end(),
            [&](uint32_t a, uint32_t b) { return m_.tiles[a].first < m_.tiles[b].first; });
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  EventColumns& ev = p.store->events;
  const auto nstrings = static_cast<StrId>(std::max<size_t>(1, m_.strings.size()));
  for (uint32_t i : tiles) {
    const DecodedTile* d = get(i);
    if (!d || d->failed) continue;
    const bundle::EventTile& e = d->events;
    const bundle::RowInfo row = m_.rows[m_.tiles[i].row];
    const auto local = static_cast<uint32_t>(ev.size());
    for (size_t k = 0; k < e.size(); ++k) {
      ev.start.push_back(e.start[k]), ev.dur.push_back(e.dur[k]);
      ev.name.push_back(e.name[k] < nstrings ? e.name[k] : 0);
      ev.cat.push_back(e.cat[k] < nstrings ? e.cat[k] : 0);
      ev.track.push_back(row.track), ev.depth.push_back(row.depth);
      ev.phase.push_back(e.phase[k]);
      ev.src_offset.push_back(e.src_offset[k]), ev.src_len.push_back(e.src_len[k]);
    }
    const auto count = static_cast<uint32_t>(e.size());
    if (!p.runs.empty() && p.runs.back().global + p.runs.back().count == e.first)
      p.runs.back().count += count;
    else
      p.runs.push_back({local, e.first, count});
  }
  // Each track's rows where its events would be in the store (empty where no tile is here).
  for (size_t t = 0; t < p.store->tracks.size() && t < m_.tracks.size(); ++t) {
    Track& u = p.store->tracks[t];
    const bundle::TrackInfo& ti = m_.tracks[t];
    u.first_event = p.before(ti.first_event);
    u.event_count = p.before(ti.first_event + ti.event_count) - u.first_event;
    for (size_t r = 0; r < u.rows.size() && r < ti.rows.size(); ++r)
      u.rows[r] = p.before(ti.rows[r]);
  }
  // The edges between events here, in the store's edge order (so by source, as the trace's).
  struct Edge {
    uint32_t edge, from, to, kind;
  };
  std::vector<Edge> edges;
  for (uint32_t i : flow_tiles) {
    const DecodedTile* d = get(i);
    if (!d || d->failed) continue;
    const bundle::FlowTile& f = d->flows;
    for (size_t k = 0; k < f.size(); ++k) {
      const uint32_t a = p.local(f.from[k]), b = p.local(f.to[k]);
      if (a != kNone && b != kNone && f.kind[k] < m_.flow_kinds.size())
        edges.push_back({f.edge[k], a, b, f.kind[k]});
    }
  }
  std::sort(edges.begin(), edges.end(),
            [](const Edge& x, const Edge& y) { return x.edge < y.edge; });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const Edge& x, const Edge& y) { return x.edge == y.edge; }),
              edges.end());
  FlowColumns& fl = p.store->flows;
  for (const bundle::FlowKindInfo& k : m_.flow_kinds) fl.kinds.push_back({k.name, k.cat});
  for (const Edge& e : edges)
    fl.from.push_back(e.from), fl.to.push_back(e.to), fl.kind.push_back(e.kind);
  fl.by_to.resize(fl.size());
  for (uint32_t e = 0; e < fl.by_to.size(); ++e) fl.by_to[e] = e;
  std::stable_sort(fl.by_to.begin(), fl.by_to.end(),
                   [&](uint32_t a, uint32_t b) { return fl.to[a] < fl.to[b]; });
  return p;
}

std::vector<uint32_t> BundleSession::flows_wanted(TimeNs t0, TimeNs t1) const {
  std::vector<uint32_t> out;
  for (uint32_t i :
       bundle::plan_view_flows(m_, flow_lookup_, t0, t1, [this](uint32_t i) { return get(i); }))
    if (!failed_.count(i)) out.push_back(i);
  return out;
}

std::vector<BundleSession::Arrow> BundleSession::view_flows(TimeNs t0, TimeNs t1) const {
  std::vector<Arrow> out;
  for (const bundle::ViewFlow& f :
       bundle::view_flows(m_, flow_lookup_, t0, t1, [this](uint32_t i) { return get(i); })) {
    Arrow a;
    a.flow = f;
    if (event_rows_.place(f.from, &a.from_track, &a.from_depth) &&
        event_rows_.place(f.to, &a.to_track, &a.to_depth))
      out.push_back(a);
  }
  return out;
}

uint32_t BundleSession::analysis_tile(std::string_view name) const {
  for (uint32_t i = 0; i < m_.tiles.size(); ++i) {
    const bundle::Tile& t = m_.tiles[i];
    if (t.kind == bundle::TileKind::kAnalysis && t.row < m_.analyses.size() &&
        m_.analyses[t.row] == name)
      return i;
  }
  return kNone;
}

void BundleSession::insert(uint32_t i, DecodedTile d) {
  Entry e;
  e.bytes = d.bytes();
  e.tile = std::move(d);
  e.last_use = ++clock_;
  stats_.cache_bytes += e.bytes;
  cache_.emplace(i, std::move(e));
  // Least recently used out first, never the tile just fed (a view waits for it).
  while (stats_.cache_bytes > cap_ && cache_.size() > 1) {
    auto oldest = cache_.end();
    for (auto it = cache_.begin(); it != cache_.end(); ++it)
      if (it->first != i &&
          (oldest == cache_.end() || it->second.last_use < oldest->second.last_use))
        oldest = it;
    if (oldest == cache_.end()) break;
    stats_.cache_bytes -= oldest->second.bytes;
    cache_.erase(oldest);
    ++stats_.evictions;
  }
  stats_.cache_tiles = cache_.size();
}

const DecodedTile* BundleSession::get(uint32_t i) const {
  auto it = cache_.find(i);
  if (it != cache_.end()) {
    it->second.last_use = ++clock_;
    return &it->second.tile;
  }
  static const DecodedTile failed_tile = [] {
    DecodedTile d;
    d.failed = true;
    return d;
  }();
  return failed_.count(i) ? &failed_tile : nullptr;
}

void BundleSession::view(const ViewportQuery& q, std::vector<VisibleSlice>* slices,
                         std::vector<CounterBucket>* buckets) const {
  bundle::view_from_tiles(
      m_, lookup_, q, [this](uint32_t i) { return get(i); }, error_name(), slices, buckets);
}

}  // namespace strata
