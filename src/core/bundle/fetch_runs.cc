#include "core/bundle/fetch_runs.h"

#include <algorithm>

namespace strata::bundle {

std::vector<FetchRun> fetch_runs(const Manifest& m, std::vector<uint32_t>* tiles, uint64_t max_gap,
                                 uint64_t max_bytes) {
  auto& t = *tiles;
  t.erase(std::remove_if(t.begin(), t.end(), [&](uint32_t i) { return i >= m.tiles.size(); }),
          t.end());
  std::sort(t.begin(), t.end(),
            [&](uint32_t a, uint32_t b) { return m.tiles[a].offset < m.tiles[b].offset; });
  t.erase(std::unique(t.begin(), t.end()), t.end());
  std::vector<FetchRun> runs;
  for (uint32_t k = 0; k < t.size(); ++k) {
    const Tile& tile = m.tiles[t[k]];
    const uint64_t end = tile.offset + tile.length;
    if (!runs.empty()) {
      FetchRun& r = runs.back();
      const uint64_t run_end = r.offset + r.length;
      if (tile.offset >= run_end && tile.offset - run_end <= max_gap &&
          end - r.offset <= max_bytes) {
        r.length = end - r.offset;
        ++r.count;
        continue;
      }
    }
    runs.push_back({tile.offset, tile.length, k, 1});
  }
  return runs;
}

}  // namespace strata::bundle
