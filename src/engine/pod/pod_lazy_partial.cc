// PodLazy's queries over some tiles (engine/lazy_tiles.h): what a details pane or a selection
// reads is planned by each host's BundleSession in its own indices and moved to the pod's, and
// the tiles fetched are put together host by host into one store numbered as the whole pod, so
// the engine's select and details code runs on a lazy pod as on a lazy bundle.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine/pod/host_merge.h"
#include "engine/pod/pod_lazy.h"

namespace strata {

const PodLazy::Host* PodLazy::host_of_track(uint32_t track, uint32_t* local) const {
  for (const Host& h : hosts_) {
    if (!h.s || track < h.track_base || track - h.track_base >= h.s->manifest().tracks.size())
      continue;
    *local = track - h.track_base;
    return &h;
  }
  return nullptr;
}

std::vector<std::vector<uint32_t>> PodLazy::by_host(const std::vector<uint32_t>& tiles) const {
  std::vector<std::vector<uint32_t>> out(hosts_.size());
  for (uint32_t i : tiles) {
    // Hosts are in tile order: the last starting at or before i holds it, if any does.
    auto at = std::upper_bound(hosts_.begin(), hosts_.end(), i,
                               [](uint32_t t, const Host& h) { return t < h.tile_base; });
    if (at == hosts_.begin()) continue;
    const Host& h = *(at - 1);
    if (h.s && i - h.tile_base < h.s->manifest().tiles.size())
      out[static_cast<size_t>(&h - hosts_.data())].push_back(i - h.tile_base);
  }
  return out;
}

bool PodLazy::tile_row(uint32_t i, uint32_t* track, uint32_t* depth, TimeNs* t0, TimeNs* t1) const {
  uint32_t local = 0;
  const Host* h = host_of_tile(i, &local);
  if (!h) return false;
  const bundle::Manifest& m = h->s->manifest();
  const bundle::Tile& t = m.tiles[local];
  if (t.kind != bundle::TileKind::kEvents || t.row >= m.rows.size()) return false;
  *track = m.rows[t.row].track + h->track_base, *depth = m.rows[t.row].depth;
  *t0 = t.t0, *t1 = t.t1;
  return true;
}

uint32_t PodLazy::max_depth(uint32_t track) const {
  uint32_t local = 0;
  const Host* h = host_of_track(track, &local);
  return h ? h->s->manifest().tracks[local].max_depth : 0;
}

void PodLazy::row_tiles(uint32_t track, uint32_t depth, TimeNs a, TimeNs b,
                        std::vector<uint32_t>* out) const {
  uint32_t local = 0;
  const Host* h = host_of_track(track, &local);
  if (!h) return;
  const size_t from = out->size();
  h->s->row_tiles(local, depth, a, b, out);
  for (size_t k = from; k < out->size(); ++k) (*out)[k] += h->tile_base;
}

uint32_t PodLazy::event_tile(uint32_t event) const {
  for (const Host& h : hosts_) {
    if (!h.s || event < h.event_base || event - h.event_base >= h.s->manifest().events) continue;
    const uint32_t i = h.s->event_tile(event - h.event_base);
    return i == kNone ? kNone : i + h.tile_base;
  }
  return kNone;
}

std::vector<uint32_t> PodLazy::name_tiles(StrId name) const {
  std::vector<uint32_t> out;
  if (name == 0) return out;
  for (const Host& h : hosts_) {
    if (!h.s || h.str.size() < 2) continue;
    // The host's id of the pod's string (each host's strings are interned in the pod's; id 0 is
    // "" in both).
    const auto at = std::find(h.str.begin() + 1, h.str.end(), name);
    if (at == h.str.end()) continue;
    for (uint32_t i : h.s->name_tiles(static_cast<StrId>(at - h.str.begin())))
      out.push_back(i + h.tile_base);
  }
  return out;
}

void PodLazy::add_neighbour_tiles(std::vector<uint32_t>* tiles, bool above, bool below) const {
  std::vector<std::vector<uint32_t>> local = by_host(*tiles);
  tiles->clear();
  for (size_t k = 0; k < hosts_.size(); ++k) {
    if (local[k].empty()) continue;
    hosts_[k].s->add_neighbour_tiles(&local[k], above, below);
    for (uint32_t i : local[k]) tiles->push_back(i + hosts_[k].tile_base);
  }
}

std::vector<uint32_t> PodLazy::missing(const std::vector<uint32_t>& tiles) const {
  const std::vector<std::vector<uint32_t>> local = by_host(tiles);
  std::vector<uint32_t> out;
  for (size_t k = 0; k < hosts_.size(); ++k)
    if (!local[k].empty())
      for (uint32_t i : hosts_[k].s->missing(local[k])) out.push_back(i + hosts_[k].tile_base);
  return out;
}

PartialStore PodLazy::partial(std::vector<uint32_t> tiles) const {
  PartialStore p;
  p.store = std::make_unique<TraceStore>();
  const std::vector<std::vector<uint32_t>> local = by_host(tiles);
  for (size_t k = 0; k < hosts_.size(); ++k) {
    const Host& h = hosts_[k];
    if (!h.s) continue;
    // A host without tiles here still adds its tables: the pod's tracks stay numbered as
    // installed, and its rows (empty) sit where its events would be.
    const PartialStore hp = h.s->partial(local[k]);
    const auto base = static_cast<uint32_t>(p.store->events.size());
    append_host(p.store.get(), *hp.store, h.name);
    // Record locators as finish() moved them (append_host's base also counts events appended).
    EventColumns& ev = p.store->events;
    for (size_t e = base; e < ev.size(); ++e)
      ev.src_offset[e] = hp.store->events.src_offset[e - base] + h.stream_base;
    for (const PartialStore::Run& r : hp.runs) {
      const PartialStore::Run run{r.local + base, r.global + h.event_base, r.count};
      if (!p.runs.empty() && p.runs.back().local + p.runs.back().count == run.local &&
          p.runs.back().global + p.runs.back().count == run.global)
        p.runs.back().count += run.count;
      else
        p.runs.push_back(run);
    }
  }
  if (p.store->strings.find(kTileErrorName) == kNone) p.store->strings.intern(kTileErrorName);
  return p;
}

}  // namespace strata
