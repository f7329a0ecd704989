#include "engine/pod/pod_lazy.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "engine/pod/host_merge.h"

namespace strata {

void PodLazy::add(std::string name, bundle::Manifest m, bundle::SearchIndex search,
                  uint64_t bytes) {
  Host h;
  h.name = std::move(name);
  h.m = std::move(m);
  h.search = std::move(search);
  h.bytes = bytes;
  hosts_.push_back(std::move(h));
}

std::unique_ptr<TraceStore> PodLazy::finish() {
  auto pod = std::make_unique<TraceStore>();
  const size_t cap = hosts_.empty()
                         ? kTileCacheBytes
                         : std::max(kTileCacheBytes / hosts_.size(), kPodHostCacheMinBytes);
  uint32_t events = 0, tiles = 0;
  for (Host& h : hosts_) {
    h.s = std::make_unique<BundleSession>(std::move(h.m), std::move(h.search), h.bytes, cap);
    h.m = bundle::Manifest{};
    h.search = bundle::SearchIndex{};
    std::string error;
    std::unique_ptr<TraceStore> t = h.s->tables(&error);
    if (!t) t = std::make_unique<TraceStore>();  // a host whose tables do not read: no tracks
    h.track_base = static_cast<uint32_t>(pod->tracks.size());
    h.series_base = static_cast<uint32_t>(pod->series.size());
    const size_t file_base = pod->files.size();
    append_host(pod.get(), *t, h.name);
    h.stream_base = t->files.empty() || file_base >= pod->files.size()
                        ? 0
                        : pod->files[file_base].stream_base - t->files[0].stream_base;
    h.str.resize(t->strings.size());
    // Every host string is in the pod's (append_host interned each); id 0 is "" in both.
    for (size_t i = 1; i < t->strings.size(); ++i) {
      const StrId id = pod->strings.find(t->strings.get(static_cast<StrId>(i)));
      h.str[i] = id == kNone ? 0 : id;
    }
    h.event_base = events;
    h.tile_base = tiles;
    events += static_cast<uint32_t>(h.s->manifest().events);
    tiles += static_cast<uint32_t>(h.s->manifest().tiles.size());
    series_min_.insert(series_min_.end(), h.s->series_min().begin(), h.s->series_min().end());
    series_max_.insert(series_max_.end(), h.s->series_max().begin(), h.s->series_max().end());
  }
  const StrId e = pod->strings.find(kTileErrorName);
  error_name_ = e == kNone ? pod->strings.intern(kTileErrorName) : e;
  // A search's bins cut the pod's span, as on the whole pod, so the hosts' bins add up.
  for (Host& h : hosts_) h.s->set_find_span(pod->start_ns, pod->end_ns);
  return pod;
}

// As finish() builds it: every host's tables appended in order, then the error name.
std::unique_ptr<TraceStore> PodLazy::tables(std::string* error) const {
  auto pod = std::make_unique<TraceStore>();
  for (const Host& h : hosts_) {
    if (!h.s) continue;
    std::unique_ptr<TraceStore> t = h.s->tables(error);
    if (!t) return nullptr;
    append_host(pod.get(), *t, h.name);
  }
  if (pod->strings.find(kTileErrorName) == kNone) pod->strings.intern(kTileErrorName);
  return pod;
}

uint64_t PodLazy::bundle_bytes() const {
  uint64_t n = 0;
  for (const Host& h : hosts_) n += h.bytes;
  return n;
}

std::string PodLazy::analysis_reason() const {
  const uint64_t mb = (bundle_bytes() + (1u << 20) - 1) >> 20;
  const std::string why =
      "this pod's hosts are open lazily; load them whole to run analyses (Load whole reads all ";
  return why + std::to_string(mb) + " MB of their bundles into memory)";
}

size_t PodLazy::cache_cap() const {
  size_t n = 0;
  for (const Host& h : hosts_) n += h.s ? h.s->cache_cap() : 0;
  return n;
}

uint64_t PodLazy::events() const {
  uint64_t n = 0;
  for (const Host& h : hosts_) n += h.s ? h.s->manifest().events : 0;
  return n;
}

uint32_t PodLazy::track_events(uint32_t track) const {
  for (const Host& h : hosts_) {
    if (!h.s || track < h.track_base) continue;
    const uint32_t local = track - h.track_base;
    if (local < h.s->manifest().tracks.size()) return h.s->manifest().tracks[local].event_count;
  }
  return 0;
}

size_t PodLazy::tiles() const {
  size_t n = 0;
  for (const Host& h : hosts_) n += h.s ? h.s->manifest().tiles.size() : 0;
  return n;
}

const PodLazy::Host* PodLazy::host_of_tile(uint32_t i, uint32_t* local) const {
  for (const Host& h : hosts_) {
    if (!h.s || i < h.tile_base || i - h.tile_base >= h.s->manifest().tiles.size()) continue;
    *local = i - h.tile_base;
    return &h;
  }
  return nullptr;
}

TileEvent PodLazy::to_pod(const Host& h, TileEvent e) const {
  auto map = [&h](StrId v) { return v < h.str.size() ? h.str[v] : 0; };
  e.event += h.event_base;
  e.name = map(e.name);
  e.cat = map(e.cat);
  e.track += h.track_base;
  e.src_offset += h.stream_base;
  return e;
}

std::vector<uint32_t> PodLazy::wanted(const ViewportQuery& q) const {
  std::vector<uint32_t> out;
  for (const Host& h : hosts_)
    if (h.s)
      for (uint32_t i : h.s->wanted(q)) out.push_back(i + h.tile_base);
  return out;
}

bool PodLazy::tile_range(uint32_t i, uint64_t* offset, uint32_t* length) const {
  uint32_t local = 0;
  const Host* h = host_of_tile(i, &local);
  return h && h->s->tile_range(local, offset, length);
}

int PodLazy::tile_part(uint32_t i, uint32_t* local) const {
  const Host* h = host_of_tile(i, local);
  return h ? static_cast<int>(h - hosts_.data()) : -1;
}

void PodLazy::feed(uint32_t i, const uint8_t* data, size_t n) {
  uint32_t local = 0;
  if (const Host* h = host_of_tile(i, &local)) h->s->feed(local, data, n);
}

void PodLazy::fail(uint32_t i, std::string_view why) {
  uint32_t local = 0;
  if (const Host* h = host_of_tile(i, &local)) h->s->fail(local, why);
}

BundleStats PodLazy::stats() const {
  BundleStats t;
  for (const Host& h : hosts_) {
    if (!h.s) continue;
    const BundleStats& s = h.s->stats();
    t.tiles_fetched += s.tiles_fetched, t.bytes_fetched += s.bytes_fetched;
    t.tiles_failed += s.tiles_failed, t.evictions += s.evictions;
    t.cache_bytes += s.cache_bytes, t.cache_tiles += s.cache_tiles;
  }
  return t;
}

std::vector<std::string> PodLazy::errors() const {
  std::vector<std::string> out;
  for (const Host& h : hosts_)
    if (h.s)
      for (const std::string& e : h.s->errors()) out.push_back(h.name + ": " + e);
  return out;
}

std::vector<uint32_t> PodLazy::find_begin(std::vector<uint8_t> names, size_t limit, size_t bins) {
  std::vector<uint32_t> fetch;
  for (const Host& h : hosts_) {
    if (!h.s) continue;
    std::vector<uint8_t> own(h.str.size(), 0);
    for (size_t i = 0; i < own.size(); ++i) own[i] = h.str[i] < names.size() && names[h.str[i]];
    for (uint32_t i : h.s->find_begin(std::move(own), limit, bins))
      fetch.push_back(i + h.tile_base);
  }
  find_names_ = std::move(names);
  find_limit_ = limit;
  return fetch;
}

const BundleFind& PodLazy::find() const {
  BundleFind f;
  f.names = find_names_;
  f.limit = find_limit_;
  for (const Host& h : hosts_) {
    if (!h.s) continue;
    const BundleFind& g = h.s->find();
    f.count += g.count;
    if (f.bins.size() < g.bins.size()) f.bins.resize(g.bins.size(), 0);
    for (size_t b = 0; b < g.bins.size(); ++b) f.bins[b] += g.bins[b];
    for (uint32_t i : g.left) f.left.push_back(i + h.tile_base);
    for (const TileEvent& e : g.events) f.events.push_back(to_pod(h, e));
  }
  std::sort(f.events.begin(), f.events.end(), [](const TileEvent& a, const TileEvent& b) {
    return std::tie(a.start, a.event) < std::tie(b.start, b.event);
  });
  if (f.events.size() > f.limit) f.events.resize(f.limit);
  find_ = std::move(f);
  return find_;
}

int64_t PodLazy::locate(StrId name, double start, double tol,
                        const std::function<bool(uint32_t track)>& keep) const {
  int64_t best = -1;
  double best_d = tol;
  for (const Host& h : hosts_) {
    if (!h.s) continue;
    const auto at = std::find(h.str.begin(), h.str.end(), name);
    if (at == h.str.end() || name == 0) continue;
    const auto own = static_cast<StrId>(at - h.str.begin());
    const int64_t e =
        h.s->locate(own, start, best_d, [&](uint32_t track) { return keep(track + h.track_base); });
    TileEvent te;
    uint32_t tile = kNone;
    if (e < 0 || !h.s->event(static_cast<uint32_t>(e), &te, &tile)) continue;
    const double d = std::fabs(static_cast<double>(te.start) - start);
    if (best >= 0 && d >= best_d) continue;
    best = e + h.event_base;
    best_d = d;
  }
  return best;
}

bool PodLazy::event(uint32_t event, TileEvent* out, uint32_t* tile) const {
  *tile = kNone;
  for (const Host& h : hosts_) {
    if (!h.s || event < h.event_base || event - h.event_base >= h.s->manifest().events) continue;
    const bool held = h.s->event(event - h.event_base, out, tile);
    if (*tile != kNone) *tile += h.tile_base;
    if (held) *out = to_pod(h, *out);
    return held;
  }
  return false;
}

void PodLazy::view(const ViewportQuery& q, std::vector<VisibleSlice>* slices,
                   std::vector<CounterBucket>* buckets) const {
  std::vector<VisibleSlice> hs;
  std::vector<CounterBucket> hb;
  for (const Host& h : hosts_) {
    if (!h.s) continue;
    hs.clear(), hb.clear();
    h.s->view(q, &hs, &hb);
    for (VisibleSlice v : hs) {
      v.track += h.track_base;
      v.name = v.name < h.str.size() ? h.str[v.name] : 0;
      if (v.event != kNone) v.event += h.event_base;
      slices->push_back(v);
    }
    for (CounterBucket b : hb) {
      b.series += h.series_base;
      buckets->push_back(b);
    }
  }
}

}  // namespace strata
