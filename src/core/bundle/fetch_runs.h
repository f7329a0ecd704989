// Which of a bundle's wanted tiles one byte-range request can fetch together. A view's tiles lie
// in runs in the one-file bundle (each level's tiles and the events tiles are written in time
// order across their rows, a counter series' tiles together), and a request costs far more than
// its bytes on a static server, so adjacent tiles are fetched as one range and cut apart. A split
// bundle's tiles are separate files: it fetches each alone.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/bundle/bundle_format.h"

namespace strata::bundle {

// Tiles further apart than this are two requests: the bytes between them would be fetched for
// nothing.
constexpr uint64_t kFetchRunMaxGap = 16 * 1024;
// A run stops growing here, so one request does not hold back the tiles of the others.
constexpr uint64_t kFetchRunMaxBytes = 2 * 1024 * 1024;

// Where a tile's bytes are: which bundle (`part`: 0 for one bundle, a pod's host when several
// are open) and the byte range there.
struct TileSpan {
  int part = 0;
  uint64_t offset = 0;
  uint32_t length = 0;
};

// One request: `count` tiles of the reordered list from index `first`, covering
// [offset, offset + length) of bundle `part`.
struct FetchRun {
  int part = 0;
  uint64_t offset = 0, length = 0;
  uint32_t first = 0, count = 0;
};

// Orders `tiles` by (part, offset), dropping those span() does not know and repeats, and groups
// them into runs within one part, no wider than max_bytes, whose tiles are at most max_gap apart.
std::vector<FetchRun> fetch_runs(std::vector<uint32_t>* tiles,
                                 const std::function<bool(uint32_t, TileSpan*)>& span,
                                 uint64_t max_gap = kFetchRunMaxGap,
                                 uint64_t max_bytes = kFetchRunMaxBytes);

}  // namespace strata::bundle
