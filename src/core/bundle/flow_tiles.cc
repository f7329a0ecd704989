#include "core/bundle/flow_tiles.h"

#include <algorithm>

namespace strata::bundle {

namespace {

bool in_range(TimeNs x, TimeNs t0, TimeNs t1) { return x >= t0 && x <= t1; }

// The loaded trace's test: an edge is sent when either end is in the range.
bool edge_in(const FlowTile& f, size_t k, TimeNs t0, TimeNs t1) {
  return in_range(f.from_end[k], t0, t1) || in_range(f.to_start[k], t0, t1);
}

bool tile_in(const Tile& t, TimeNs t0, TimeNs t1) { return t.count && t.t0 <= t1 && t.t1 >= t0; }

}  // namespace

FlowLookup make_flow_lookup(const Manifest& m) {
  FlowLookup k;
  for (uint32_t i = 0; i < m.tiles.size(); ++i) {
    if (m.tiles[i].kind == TileKind::kFlows) k.out.push_back(i);
    if (m.tiles[i].kind == TileKind::kFlowsIn) k.in.push_back(i);
  }
  return k;
}

std::vector<uint32_t> plan_view_flows(const Manifest& m, const FlowLookup& k, TimeNs t0, TimeNs t1,
                                      const GetTile& get) {
  std::vector<uint32_t> want;
  size_t found = 0;
  for (uint32_t i : k.out) {
    if (found >= kMaxViewFlows) break;
    const Tile& t = m.tiles[i];
    if (!tile_in(t, t0, t1)) continue;
    const DecodedTile* d = get(i);
    if (!d) {
      want.push_back(i);
      found += t.count;
    } else if (!d->failed) {
      for (size_t e = 0; e < d->flows.size(); ++e) found += edge_in(d->flows, e, t0, t1);
    }
  }
  return want;
}

std::vector<ViewFlow> view_flows(const Manifest& m, const FlowLookup& k, TimeNs t0, TimeNs t1,
                                 const GetTile& get) {
  std::vector<ViewFlow> out;
  for (uint32_t i : k.out) {
    const Tile& t = m.tiles[i];
    if (!tile_in(t, t0, t1)) continue;
    const DecodedTile* d = get(i);
    if (!d) break;
    if (d->failed) continue;
    const FlowTile& f = d->flows;
    for (size_t e = 0; e < f.size() && out.size() < kMaxViewFlows; ++e)
      if (edge_in(f, e, t0, t1)) out.push_back({f.from[e], f.to[e], f.from_end[e], f.to_start[e]});
    if (out.size() >= kMaxViewFlows) break;
  }
  return out;
}

void flow_tiles_of(const Manifest& m, const FlowLookup& k, bool in, uint32_t lo, uint32_t hi,
                   std::vector<uint32_t>* out) {
  const std::vector<uint32_t>& tiles = in ? k.in : k.out;
  // Keys ascend across the tiles: the first whose last key reaches lo, on while first <= hi.
  auto it = std::partition_point(tiles.begin(), tiles.end(),
                                 [&](uint32_t i) { return m.tiles[i].vmax < lo; });
  for (; it != tiles.end() && m.tiles[*it].vmin <= hi; ++it) out->push_back(*it);
}

EventRows::EventRows(const Manifest& m) : m_(&m) {
  for (uint32_t t = 0; t < m.tracks.size(); ++t)
    if (m.tracks[t].event_count && m.tracks[t].rows.size() >= 2) by_first_.push_back(t);
  std::sort(by_first_.begin(), by_first_.end(), [&](uint32_t a, uint32_t b) {
    return m.tracks[a].first_event < m.tracks[b].first_event;
  });
}

bool EventRows::place(uint32_t event, uint32_t* track, uint32_t* depth) const {
  auto it = std::upper_bound(by_first_.begin(), by_first_.end(), event,
                             [&](uint32_t e, uint32_t t) { return e < m_->tracks[t].first_event; });
  if (it == by_first_.begin()) return false;
  const TrackInfo& t = m_->tracks[*(it - 1)];
  if (event - t.first_event >= t.event_count) return false;
  // rows[d] is depth d's first event; the last entry is the track's end.
  const auto row = std::upper_bound(t.rows.begin(), t.rows.end() - 1, event);
  *track = *(it - 1);
  *depth = static_cast<uint32_t>(row - t.rows.begin()) - 1;
  return true;
}

}  // namespace strata::bundle
