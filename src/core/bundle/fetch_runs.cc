#include "core/bundle/fetch_runs.h"

#include <algorithm>
#include <tuple>

namespace strata::bundle {

std::vector<FetchRun> fetch_runs(std::vector<uint32_t>* tiles,
                                 const std::function<bool(uint32_t, TileSpan*)>& span,
                                 uint64_t max_gap, uint64_t max_bytes) {
  struct Item {
    TileSpan at;
    uint32_t tile;
  };
  std::vector<Item> items;
  items.reserve(tiles->size());
  for (uint32_t i : *tiles) {
    TileSpan s;
    if (span(i, &s)) items.push_back({s, i});
  }
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return std::tie(a.at.part, a.at.offset, a.tile) < std::tie(b.at.part, b.at.offset, b.tile);
  });
  items.erase(std::unique(items.begin(), items.end(),
                          [](const Item& a, const Item& b) { return a.tile == b.tile; }),
              items.end());
  tiles->clear();
  std::vector<FetchRun> runs;
  for (const Item& it : items) {
    const uint32_t k = static_cast<uint32_t>(tiles->size());
    tiles->push_back(it.tile);
    const uint64_t end = it.at.offset + it.at.length;
    if (!runs.empty()) {
      FetchRun& r = runs.back();
      const uint64_t run_end = r.offset + r.length;
      if (r.part == it.at.part && it.at.offset >= run_end && it.at.offset - run_end <= max_gap &&
          end - r.offset <= max_bytes) {
        r.length = end - r.offset;
        ++r.count;
        continue;
      }
    }
    runs.push_back({it.at.part, it.at.offset, it.at.length, k, 1});
  }
  return runs;
}

}  // namespace strata::bundle
