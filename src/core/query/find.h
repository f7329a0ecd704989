// Search over the whole trace (not just the visible range): events whose name contains a text,
// case-insensitively. Matching is done once per distinct name, then one pass over the name
// column, so it costs one linear scan however many events match.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

struct FindResult {
  uint64_t count = 0;            // all matches in the trace
  std::vector<uint32_t> events;  // the first `limit` matches by start time (then index)
  // Matches per equal slice of [s.start_ns, s.end_ns] by start time, so every match can be
  // marked on the whole trace's ruler even when only the first `limit` are listed.
  std::vector<uint32_t> bins;
};

FindResult find_events(const TraceStore& s, std::string_view text, size_t limit);
// The same over a precomputed per-string-id match table (regex search builds one); `bins`
// slices for FindResult::bins (0: none).
FindResult find_matching(const TraceStore& s, const std::vector<uint8_t>& name_matches,
                         size_t limit, size_t bins = 0);

// ASCII case-insensitive substring test (names are UTF-8; non-ASCII bytes compare exactly).
bool contains_ignore_case(std::string_view hay, std::string_view needle);

}  // namespace strata
