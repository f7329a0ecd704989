#include "ui/timeline/tiles.h"

#include <algorithm>
#include <cmath>

#include "protocol/view_messages.h"

namespace strata {

namespace {

// A view never needs more tiles than this (a 16k px canvas at the coarsest fitting level uses
// 64); the cap keeps a corrupt view from looping.
constexpr int64_t kMaxSlots = 256;
// How many levels up the plan looks for a coarser cached tile.
constexpr int kCoarserLevels = 12;

}  // namespace

double tile_span(int level) { return std::ldexp(kTileBaseNs, level); }
double tile_start(const TileKey& k) { return static_cast<double>(k.index) * tile_span(k.level); }
double tile_end(const TileKey& k) { return static_cast<double>(k.index + 1) * tile_span(k.level); }

int tile_level_for(double ns_per_px) {
  // Nearest in log scale: a tile pixel is within a factor sqrt(2) of the view's, so a view draws
  // about as many slices as it has pixels (the floor would draw up to twice as many).
  if (!(ns_per_px >= std::sqrt(2.0))) return 0;  // also NaN
  int level = static_cast<int>(std::floor(std::log2(ns_per_px) + 0.5));
  // log2 can land a hair off at the boundaries; settle it with exact comparisons of squares.
  auto below = [&](int l) {
    return std::ldexp(1.0, 2 * l + 1) <= ns_per_px * ns_per_px;
  };  // 2^(l+.5) <= r
  while (level > 0 && !below(level - 1)) --level;
  while (level < kMaxTileLevel && below(level)) ++level;
  return std::clamp(level, 0, kMaxTileLevel);
}

void tiles_covering(int level, double start, double end, std::vector<TileKey>* out) {
  out->clear();
  if (!(end > start)) return;
  const double span = tile_span(level);
  const int64_t first = static_cast<int64_t>(std::floor(start / span));
  int64_t last = static_cast<int64_t>(std::ceil(end / span)) - 1;
  last = std::min(std::max(last, first), first + kMaxSlots - 1);
  for (int64_t i = first; i <= last; ++i) out->push_back({level, i});
}

size_t tile_bytes(const ViewReply& r) {
  return sizeof(Tile) + r.slices.capacity() * sizeof(proto::SliceEntry) +
         r.buckets.capacity() * sizeof(proto::BucketEntry) +
         r.flows.capacity() * sizeof(proto::FlowEntry);
}

const Tile* tile_find(const TileCache& c, const TileKey& k) {
  auto it = c.tiles.find(k);
  return it == c.tiles.end() ? nullptr : &it->second;
}

void tile_touch(TileCache* c, const TileKey& k) {
  auto it = c->tiles.find(k);
  if (it != c->tiles.end()) it->second.last_use = ++c->clock;
}

void tile_insert(TileCache* c, const TileKey& k, uint32_t flags, ViewReply data) {
  auto it = c->tiles.find(k);
  if (it != c->tiles.end()) {
    c->bytes -= it->second.bytes;
    c->tiles.erase(it);
  }
  Tile t;
  t.data = std::move(data);
  t.flags = flags;
  t.bytes = tile_bytes(t.data);
  t.last_use = ++c->clock;
  c->bytes += t.bytes;
  c->tiles.emplace(k, std::move(t));
  // Evict the least recently used until within budget. A linear scan per eviction: the cache
  // holds hundreds of tiles, and evictions happen only when a reply arrives.
  while (c->bytes > c->budget_bytes && c->tiles.size() > 1) {
    auto victim = c->tiles.end();
    for (auto i = c->tiles.begin(); i != c->tiles.end(); ++i)
      if (!(i->first == k) &&
          (victim == c->tiles.end() || i->second.last_use < victim->second.last_use))
        victim = i;
    if (victim == c->tiles.end()) break;
    c->bytes -= victim->second.bytes;
    c->tiles.erase(victim);
    ++c->evictions;
  }
}

void plan_tiles(const TileCache& c, int level, double start, double end,
                std::vector<TileSegment>* out) {
  out->clear();
  std::vector<TileKey> slots;
  tiles_covering(level, start, end, &slots);
  auto push = [&](double a, double b, int lv, TileKey key, const Tile* t) {
    a = std::max(a, start);
    b = std::min(b, end);
    if (!(b > a)) return;
    if (!out->empty() && out->back().tile == t && out->back().level == lv && out->back().b >= a) {
      out->back().b = b;  // same tile (or the overview) continues
      return;
    }
    out->push_back({a, b, lv, key, t});
  };
  for (const TileKey& k : slots) {
    const double a = tile_start(k), b = tile_end(k);
    if (const Tile* t = tile_find(c, k)) {
      push(a, b, k.level, k, t);
      continue;
    }
    if (k.level > 0) {  // zooming out by one level: the two finer halves are as good
      TileKey lo{k.level - 1, k.index * 2}, hi{k.level - 1, k.index * 2 + 1};
      const Tile* tl = tile_find(c, lo);
      const Tile* th = tl ? tile_find(c, hi) : nullptr;
      if (tl && th) {
        push(tile_start(lo), tile_end(lo), lo.level, lo, tl);
        push(tile_start(hi), tile_end(hi), hi.level, hi, th);
        continue;
      }
    }
    bool found = false;
    for (int lv = k.level + 1; lv <= std::min(k.level + kCoarserLevels, kMaxTileLevel) && !found;
         ++lv) {
      TileKey up{lv, static_cast<int64_t>(std::floor(a / tile_span(lv)))};
      if (const Tile* t = tile_find(c, up)) {
        push(a, b, lv, up, t);
        found = true;
      }
    }
    if (!found) push(a, b, kOverviewLevel, TileKey{}, nullptr);
  }
}

void tiles_wanted(const TileCache& c, int level, double start, double end, double min_t,
                  double max_t, uint32_t flags, std::vector<TileKey>* out) {
  out->clear();
  std::vector<TileKey> slots;
  tiles_covering(level, start, end, &slots);
  if (slots.empty()) return;
  // Visible tiles first, then the margin.
  slots.push_back({level, slots.back().index + 1});
  slots.push_back({level, slots.front().index - 1});
  for (const TileKey& k : slots) {
    if (tile_end(k) <= min_t || tile_start(k) >= max_t) continue;
    const Tile* t = tile_find(c, k);
    if (t && (t->flags & flags) == flags) continue;
    bool sent = false;
    for (const TileRequest& r : c.in_flight) sent |= r.key == k && (r.flags & flags) == flags;
    if (!sent) out->push_back(k);
  }
}

}  // namespace strata
