// The timeline's tile cache: the time axis cut into tiles per zoom level, each tile one view
// reply for a fixed range at a fixed pixel width, so its content does not depend on where the
// view happens to be. Panning back and zooming across levels reuse cached tiles; while a finer
// tile is on its way the view draws the finest cached tile that covers the place (a coarser
// level, or the two halves one level finer), else the whole-trace overview: never a gap.
//
// Pure data and maths: no ImGui, no GL, so tests/core checks it natively.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "ui/trace_data.h"

namespace strata {

// Every tile is requested at this width; level L has tiles of kTileBaseNs << L ns, so level L
// draws 2^L ns per pixel and its pixel columns line up across neighbouring tiles.
constexpr uint32_t kTilePx = 512;
constexpr double kTileBaseNs = kTilePx;
constexpr int kMaxTileLevel = 52;
// Level used in plans for the overview (coarser than every tile level).
constexpr int kOverviewLevel = 1000;

struct TileKey {
  int level = 0;
  int64_t index = 0;  // tile covers [index, index + 1) × tile_span(level), relative ns
  bool operator<(const TileKey& o) const {
    return level != o.level ? level < o.level : index < o.index;
  }
  bool operator==(const TileKey& o) const { return level == o.level && index == o.index; }
};

double tile_span(int level);
double tile_start(const TileKey& k);
double tile_end(const TileKey& k);
// The level whose pixels are nearest `ns_per_px` in log scale (within a factor sqrt(2)),
// clamped to [0, kMaxTileLevel].
int tile_level_for(double ns_per_px);
// The tiles of `level` that cover [start, end) (relative ns), left to right.
void tiles_covering(int level, double start, double end, std::vector<TileKey>* out);

struct Tile {
  ViewReply data;
  uint32_t flags = 0;  // proto::kWantFlows when it carries flow arrows
  size_t bytes = 0;
  uint64_t last_use = 0;  // LRU clock
};

struct TileRequest {
  uint32_t id = 0;
  TileKey key;
  uint32_t flags = 0;
  double sent_ms = 0;
};

struct TileCache {
  size_t budget_bytes = size_t(64) << 20;
  std::map<TileKey, Tile> tiles;
  size_t bytes = 0;
  uint64_t clock = 0;
  std::vector<TileRequest> in_flight;  // sent, not answered yet
  std::vector<TileRequest> late;       // given up on and sent again; a late answer is still kept
  std::vector<TileKey> last_visible;   // for hit/miss counting: the exact-level tiles last needed
  uint64_t hits = 0, misses = 0, requests = 0, evictions = 0;
};

size_t tile_bytes(const ViewReply& r);
// The tile (any flags), or null.
const Tile* tile_find(const TileCache& c, const TileKey& k);
// Stores a tile (replacing an older copy) and evicts least recently used tiles until the cache
// fits its budget; the new tile itself is never evicted.
void tile_insert(TileCache* c, const TileKey& k, uint32_t flags, ViewReply data);
// Marks a tile as just used (LRU).
void tile_touch(TileCache* c, const TileKey& k);

// One part of the view and the data to draw there: a tile (`level` < kOverviewLevel) or the
// overview (tile == nullptr; draw TraceData::overview when valid).
struct TileSegment {
  double a = 0, b = 0;  // relative ns, within the view
  int level = kOverviewLevel;
  TileKey key;
  const Tile* tile = nullptr;
};

// For each tile slot of `level` over [start, end): the exact tile when cached, else both halves
// one level finer, else the nearest coarser cached tile, else the overview. Adjacent slots
// drawn from the same tile merge into one segment. Pointers stay valid until the cache changes.
void plan_tiles(const TileCache& c, int level, double start, double end,
                std::vector<TileSegment>* out);

// Tiles to request for a view at `level` over [start, end): the visible tiles that are missing
// (or lack `flags`), then one tile either side as a margin for pans; none in flight already,
// none outside [min_t, max_t].
void tiles_wanted(const TileCache& c, int level, double start, double end, double min_t,
                  double max_t, uint32_t flags, std::vector<TileKey>* out);

}  // namespace strata
