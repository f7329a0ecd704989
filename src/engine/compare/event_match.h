// Which event of the other trace is "the same" as a selected one, for the Compare tab's linked
// selection (a click in A's timeline selects its counterpart in B, and back). The counterpart
// has the same name on a track of the same kind and is the k-th occurrence of that name counted
// from the point the two timelines line up on (timeline_align.h): aligned on a step, the same op
// in the same step. Counted forward for events at or after the alignment point, backward for
// those before it. When the two sides have different counts of the name in that direction, the
// k-th would drift, so the counterpart is the occurrence nearest in aligned time instead. A
// name the other side does not have on such a track has no counterpart, and says so.
#pragma once
#include <cstdint>
#include <vector>

#include "core/base/types.h"

namespace strata {

struct TraceStore;

enum class MatchKind : uint8_t {
  kOccurrence,  // the same k-th occurrence from the alignment point (counts agree)
  kNearest,     // counts differ: the occurrence nearest in aligned time
  kUnmatched,   // no event of that name on a track of that kind on the other side
};
const char* match_kind_name(MatchKind k);  // "occurrence", "nearest", "none"

struct EventMatch {
  uint32_t event = 0;        // in `from`
  int64_t counterpart = -1;  // in `to`; -1 with kUnmatched
  MatchKind kind = MatchKind::kUnmatched;
  // k: 0 is the first occurrence at or after the alignment point, -1 the last before it.
  int64_t ordinal = 0;
};

// Counterparts in `to` of `events` of `from` (indices out of range are left out), in their
// order. `from_align` / `to_align`: the absolute ns the two line up on (Alignment::a_align /
// b_align, swapped when `from` is B). One pass over each store for all the events together.
std::vector<EventMatch> match_events(const TraceStore& from, const TraceStore& to,
                                     TimeNs from_align, TimeNs to_align,
                                     const std::vector<uint32_t>& events);

}  // namespace strata
