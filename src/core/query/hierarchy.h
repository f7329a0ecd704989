// Parent, children and self time of a slice, from the (track, depth) rows of the store: the
// parent is the slice one row up that covers the start, the children are the slices one row
// down inside [start, end]. Self time = duration minus the children's (clipped) durations.
#pragma once
#include <cstdint>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

// Parent slice or kNone.
uint32_t parent_of(const TraceStore& s, uint32_t event);
// Direct children in time order; at most `limit` (count returns them all).
std::vector<uint32_t> children_of(const TraceStore& s, uint32_t event, size_t limit,
                                  uint64_t* count);
TimeNs self_time(const TraceStore& s, uint32_t event);
// Track index and [first, last) event range of one row.
bool row_bounds(const TraceStore& s, uint32_t track, uint32_t depth, uint32_t* first,
                uint32_t* last);

}  // namespace strata
