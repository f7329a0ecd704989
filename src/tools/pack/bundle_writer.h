// Writing a tile bundle (docs/BUNDLE.md) from a loaded store and its pyramid: strata-pack's
// job. Native only (it links zstd's compressor, which the browser modules never need).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/bundle/bundle_format.h"
#include "core/pyramid/pyramid.h"
#include "core/store/trace_store.h"

namespace strata::bundle {

struct PackOptions {
  // The bundle file, or with `split` the directory that gets manifest.strata and tiles/.
  std::string out;
  bool split = false;
  uint32_t tile_items = kTileItems;  // smaller in tests, to cut rows into several tiles
  // The analyses run on the whole store at pack time (pack_analyses.h): the list query's JSON
  // and each available analysis' table JSON with its default arguments, by name.
  std::string analysis_list;
  std::vector<std::pair<std::string, std::string>> analyses;
};

struct PackStats {
  uint64_t tiles[kTileKinds] = {}, tile_bytes[kTileKinds] = {}, raw_bytes[kTileKinds] = {};
  uint64_t index_bytes = 0, search_bytes = 0, total_bytes = 0;
};

// What the pod manifest lists for a host: busy time and its training steps.
HostSummary host_summary(const TraceStore& s);

bool write_bundle(const TraceStore& s, const Pyramid& p, const PackOptions& o, PackStats* stats,
                  std::string* error);

}  // namespace strata::bundle
