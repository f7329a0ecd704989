#include "core/graph/tile_index.h"

#include <algorithm>
#include <cmath>

namespace strata::graph {

namespace {

bool finite_box(const float* b) {
  return std::isfinite(b[0]) && std::isfinite(b[1]) && std::isfinite(b[2]) && std::isfinite(b[3]) &&
         b[2] >= b[0] && b[3] >= b[1];
}

// A tile that most items fit in (the 90th percentile of the larger side, at least 256), grown
// until the grid has at most ~1M tiles.
float pick_tile(const float* boxes, uint32_t count, float width, float height) {
  std::vector<float> sides;
  sides.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const float* b = boxes + 4 * static_cast<size_t>(i);
    if (finite_box(b)) sides.push_back(std::max(b[2] - b[0], b[3] - b[1]));
  }
  float tile = 256;
  if (!sides.empty()) {
    const size_t k = sides.size() * 9 / 10;
    std::nth_element(sides.begin(), sides.begin() + k, sides.end());
    tile = std::max(tile, sides[k]);
  }
  while (static_cast<double>(width / tile + 1) * (height / tile + 1) > 1 << 20) tile *= 2;
  return tile;
}

}  // namespace

TileIndex build_tile_index(const float* boxes, uint32_t count, float tile) {
  TileIndex t;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool any = false;
  for (uint32_t i = 0; i < count; ++i) {
    const float* b = boxes + 4 * static_cast<size_t>(i);
    if (!finite_box(b)) continue;
    x0 = any ? std::min(x0, b[0]) : b[0];
    y0 = any ? std::min(y0, b[1]) : b[1];
    x1 = any ? std::max(x1, b[2]) : b[2];
    y1 = any ? std::max(y1, b[3]) : b[3];
    any = true;
  }
  t.tile = tile > 0 ? tile : pick_tile(boxes, count, x1 - x0, y1 - y0);
  while (static_cast<double>((x1 - x0) / t.tile + 1) * ((y1 - y0) / t.tile + 1) > 1 << 22)
    t.tile *= 2;  // a tiny tile asked for a huge graph: keep the grid bounded
  t.x0 = x0;
  t.y0 = y0;
  t.cols = any ? static_cast<uint32_t>((x1 - x0) / t.tile) + 1 : 0;
  t.rows = any ? static_cast<uint32_t>((y1 - y0) / t.tile) + 1 : 0;
  const uint32_t tiles = t.cols * t.rows;
  // Counting sort by tile; big items last, in id order.
  std::vector<uint32_t> tile_of(count, UINT32_MAX);
  t.tile_start.assign(static_cast<size_t>(tiles) + 1, 0);
  for (uint32_t i = 0; i < count; ++i) {
    const float* b = boxes + 4 * static_cast<size_t>(i);
    if (!finite_box(b) || b[2] - b[0] > t.tile || b[3] - b[1] > t.tile) continue;
    const uint32_t cx = std::min(t.cols - 1, static_cast<uint32_t>((b[0] - x0) / t.tile));
    const uint32_t cy = std::min(t.rows - 1, static_cast<uint32_t>((b[1] - y0) / t.tile));
    tile_of[i] = cy * t.cols + cx;
    ++t.tile_start[tile_of[i] + 1];
  }
  for (uint32_t k = 0; k < tiles; ++k) t.tile_start[k + 1] += t.tile_start[k];
  t.big_begin = tiles ? t.tile_start[tiles] : 0;
  t.order.assign(count, 0);
  std::vector<uint32_t> fill(t.tile_start.begin(), t.tile_start.end() - 1);
  uint32_t big = t.big_begin;
  for (uint32_t i = 0; i < count; ++i)
    t.order[tile_of[i] == UINT32_MAX ? big++ : fill[tile_of[i]]++] = i;
  return t;
}

void tile_query(const TileIndex& t, float x0, float y0, float x1, float y1,
                std::vector<IndexRange>* out) {
  out->clear();
  auto add = [&](uint32_t b, uint32_t e) {
    if (b >= e) return;
    if (!out->empty() && out->back().second == b)
      out->back().second = e;
    else
      out->emplace_back(b, e);
  };
  if (t.cols && t.rows && x1 >= x0 && y1 >= y0) {
    // An item starting in tile k is at most one tile big, so it reaches into tile k + 1 at
    // most: look one tile left and up of the rectangle.
    auto cell = [&](float v, float origin, uint32_t n) {
      const double c = std::floor((static_cast<double>(v) - origin) / t.tile);
      return static_cast<int64_t>(std::clamp<double>(c, -1, static_cast<double>(n) + 1));
    };
    const int64_t cx0 = std::max<int64_t>(cell(x0, t.x0, t.cols) - 1, 0);
    const int64_t cx1 = std::min<int64_t>(cell(x1, t.x0, t.cols), t.cols - 1);
    const int64_t cy0 = std::max<int64_t>(cell(y0, t.y0, t.rows) - 1, 0);
    const int64_t cy1 = std::min<int64_t>(cell(y1, t.y0, t.rows), t.rows - 1);
    for (int64_t cy = cy0; cy <= cy1 && cx0 <= cx1; ++cy)
      add(t.tile_start[cy * t.cols + cx0], t.tile_start[cy * t.cols + cx1 + 1]);
  }
  add(t.big_begin, static_cast<uint32_t>(t.order.size()));
}

}  // namespace strata::graph
