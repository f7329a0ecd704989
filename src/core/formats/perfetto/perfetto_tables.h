// What the details pane needs to decode a Perfetto TrackEvent re-read from the file: the
// interned strings its debug annotations refer to. Interned ids are scoped to one packet
// sequence and start over each time the sequence clears its incremental state, so the tables
// are kept per "generation" (one sequence between two clears), and each imported event's
// record offset finds its generation.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/types.h"

namespace strata {

struct PerfettoTables {
  struct Generation {
    std::unordered_map<uint64_t, std::string> annotation_names;
    std::unordered_map<uint64_t, std::string> string_values;
    std::unordered_map<uint64_t, std::string> source_locations;  // "function (file:line)"
  };
  std::vector<Generation> generations;
  // (record offset of the first TrackEvent of a run of events of one generation, generation),
  // in file order: an event's generation is that of the last entry at or before its offset.
  std::vector<std::pair<uint64_t, uint32_t>> generation_at;

  const Generation* generation_of(uint64_t offset) const {
    auto it =
        std::upper_bound(generation_at.begin(), generation_at.end(), std::make_pair(offset, kNone));
    if (it == generation_at.begin()) return nullptr;
    --it;
    return it->second < generations.size() ? &generations[it->second] : nullptr;
  }
};

}  // namespace strata
