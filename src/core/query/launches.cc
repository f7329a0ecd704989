#include "core/query/launches.h"

#include <algorithm>

#include "core/query/flows.h"
#include "core/query/hierarchy.h"

namespace strata {

namespace {

// Calls fn(e) for `event` and every slice nested under it on its track (deeper rows, starting
// within its span), at most `max` of them; false when it stopped there.
template <typename Fn>
bool for_event_and_nested(const TraceStore& s, uint32_t event, size_t max, Fn fn) {
  fn(event);
  size_t visited = 0;
  const uint32_t track = s.events.track[event];
  const TimeNs a = s.events.start[event], b = end_of(a, s.events.dur[event]);
  const TimeNs* st = s.events.start.data();
  for (uint32_t depth = s.events.depth[event] + 1;; ++depth) {
    uint32_t first, last;
    if (!row_bounds(s, track, depth, &first, &last)) break;
    auto i = static_cast<uint32_t>(std::lower_bound(st + first, st + last, a) - st);
    // A slice starting exactly at the end belongs to the next one (as in children_of).
    for (; i < last && (st[i] < b || (st[i] == b && s.events.dur[event] == 0)); ++i) {
      if (++visited > max) return false;
      fn(i);
    }
  }
  return true;
}

}  // namespace

Launched launched_by(const TraceStore& s, uint32_t event, size_t limit, size_t max_nested) {
  Launched out;
  if (event >= s.events.size()) return out;
  const uint32_t process = s.tracks[s.events.track[event]].process;
  std::vector<uint32_t> far;
  out.complete = for_event_and_nested(s, event, max_nested, [&](uint32_t e) {
    for (const FlowNeighbour& f : flows_of(s, e)) {
      if (f.incoming || s.tracks[s.events.track[f.event]].process == process) continue;
      far.push_back(f.event);
    }
  });
  std::sort(far.begin(), far.end());
  far.erase(std::unique(far.begin(), far.end()), far.end());
  out.count = far.size();
  for (size_t k = 0; k < far.size(); ++k) {
    const TimeNs a = s.events.start[far[k]], d = s.events.dur[far[k]];
    out.first_start = k == 0 ? a : std::min(out.first_start, a);
    out.last_end = k == 0 ? end_of(a, d) : std::max(out.last_end, end_of(a, d));
    out.total_ns += d;
  }
  far.resize(std::min(far.size(), limit));
  out.events = std::move(far);
  return out;
}

}  // namespace strata
