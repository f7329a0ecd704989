#include "engine/bundle_session.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace strata {

using bundle::DecodedTile;

BundleSession::BundleSession(bundle::Manifest m, bundle::SearchIndex search, uint64_t bundle_bytes,
                             size_t cache_cap)
    : m_(std::move(m)), search_(std::move(search)), bundle_bytes_(bundle_bytes), cap_(cache_cap) {
  lookup_ = bundle::make_lookup(m_);
  bundle::series_ranges(m_, lookup_, &series_min_, &series_max_);
}

std::unique_ptr<TraceStore> BundleSession::tables() const {
  auto s = std::make_unique<TraceStore>();
  const auto nstrings = static_cast<StrId>(std::max<size_t>(1, m_.strings.size()));
  auto id = [nstrings](StrId v) { return v < nstrings ? v : 0; };
  // In id order every string gets its id back (the index holds each once; id 0 is "").
  for (size_t i = 1; i < m_.strings.size(); ++i) s->strings.intern(m_.strings[i]);
  s->strings.intern(kTileErrorName);
  for (const bundle::SourceInfo& f : m_.sources) {
    SourceFile sf;
    sf.name = f.name, sf.format = f.format, sf.compression = f.compression;
    sf.bytes = f.bytes, sf.stream_base = f.stream_base, sf.loaded = f.bytes;
    s->files.push_back(sf);
  }
  for (const bundle::ProcessInfo& p : m_.processes) {
    Process q;
    q.key = p.key, q.pid = p.pid, q.name = id(p.name), q.sort_index = p.sort_index;
    q.has_sort_index = p.has_sort_index, q.global = p.global, q.file = p.file;
    q.labels = p.labels, q.tracks = p.tracks;
    for (StrId& l : q.labels) l = id(l);
    s->processes.push_back(std::move(q));
  }
  for (const bundle::TrackInfo& t : m_.tracks) {
    Track u;
    u.process = t.process, u.kind = static_cast<TrackKind>(t.kind), u.key = t.key;
    u.tid = t.tid, u.name = id(t.name), u.sort_index = t.sort_index;
    u.has_sort_index = t.has_sort_index, u.max_depth = t.max_depth;
    // No events here: every row is empty (the tiles hold them).
    u.rows.assign(t.rows.size(), 0);
    s->tracks.push_back(std::move(u));
  }
  for (const bundle::SeriesInfo& c : m_.series) {
    CounterSeries cs;
    cs.track = c.track, cs.name = id(c.name), cs.in_bytes = c.in_bytes, cs.scale = c.scale;
    s->series.push_back(cs);
  }
  s->start_ns = m_.start_ns, s->end_ns = m_.end_ns, s->has_time = m_.has_time;
  s->display_time_unit = m_.display_time_unit;
  std::copy_n(m_.phase_counts.begin(), std::min<size_t>(256, m_.phase_counts.size()),
              s->phase_counts.begin());
  s->errors = m_.errors, s->warnings = m_.warnings, s->notes = m_.notes;
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
  // The events tile whose [first, first + count) holds the event: tiles of a row are in store
  // order, and rows do not share events, so any tile's range decides.
  for (uint32_t i = 0; i < m_.tiles.size(); ++i) {
    const bundle::Tile& t = m_.tiles[i];
    if (t.kind != bundle::TileKind::kEvents || event < t.first || event - t.first >= t.count)
      continue;
    *tile = i;
    const DecodedTile* d = get(i);
    if (!d || d->failed) return false;
    const bundle::EventTile& e = d->events;
    const size_t k = event - t.first;
    if (k >= e.size()) return false;
    const bundle::RowInfo row = m_.rows[t.row];
    *out = {event,      e.start[k], e.dur[k],  e.name[k],       e.cat[k],
            e.phase[k], row.track,  row.depth, e.src_offset[k], e.src_len[k]};
    return true;
  }
  *tile = UINT32_MAX;
  return false;
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
