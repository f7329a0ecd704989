// A spatial index of boxes for drawing a big graph: items bucketed by the tile (a square of
// `tile` world units) holding their top-left corner, stored row by row, so the items meeting a
// view are a few contiguous ranges of `order` (one per tile row, merged when they touch). The
// graph viewer keeps its GPU instance buffers in this order, so a view is one draw call per
// range, and its CPU loops (text, hit testing) visit only those ranges. Built once per layout.
// Items wider or taller than a tile would reach past the neighbouring tile: they are kept at the
// end of `order` (`big`) and always returned.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace strata::graph {

struct TileIndex {
  float tile = 1, x0 = 0, y0 = 0;  // tile size and the grid's origin (world units)
  uint32_t cols = 0, rows = 0;
  std::vector<uint32_t> order;       // item ids: small items tile by tile (row-major), then big
  std::vector<uint32_t> tile_start;  // rows * cols + 1 offsets into order (small items)
  uint32_t big_begin = 0;            // order[big_begin..] are the big items
};

using IndexRange = std::pair<uint32_t, uint32_t>;  // [begin, end) positions in order

// `boxes` holds x0, y0, x1, y1 per item. `tile` <= 0 picks a size from the boxes (so that most
// items are small and the grid has at most about a million tiles). Non-finite boxes are big.
TileIndex build_tile_index(const float* boxes, uint32_t count, float tile = 0);

// The ranges of positions in t.order whose items may meet the rectangle (every item that meets
// it is in one; items of nearby tiles come too): ascending, disjoint, merged when adjacent.
void tile_query(const TileIndex& t, float x0, float y0, float x1, float y1,
                std::vector<IndexRange>* out);

}  // namespace strata::graph
