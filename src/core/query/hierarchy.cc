#include "core/query/hierarchy.h"

#include <algorithm>

#include "core/query/viewport.h"

namespace strata {

bool row_bounds(const TraceStore& s, uint32_t track, uint32_t depth, uint32_t* first,
                uint32_t* last) {
  if (track >= s.tracks.size()) return false;
  const Track& t = s.tracks[track];
  if (t.rows.size() < 2 || depth + 1 >= t.rows.size()) return false;
  *first = t.rows[depth];
  *last = t.rows[depth + 1];
  return *first < *last;
}

uint32_t parent_of(const TraceStore& s, uint32_t event) {
  if (event >= s.events.size() || s.events.depth[event] == 0) return kNone;
  uint32_t first, last;
  if (!row_bounds(s, s.events.track[event], s.events.depth[event] - 1, &first, &last)) return kNone;
  const TimeNs t = s.events.start[event];
  // The last slice of the row above starting at or before t covers it, if any does.
  const TimeNs* st = s.events.start.data();
  uint32_t k = static_cast<uint32_t>(std::upper_bound(st + first, st + last, t) - st);
  if (k == first) return kNone;
  --k;
  return st[k] + s.events.dur[k] >= t ? k : kNone;
}

std::vector<uint32_t> children_of(const TraceStore& s, uint32_t event, size_t limit,
                                  uint64_t* count) {
  std::vector<uint32_t> out;
  if (count) *count = 0;
  if (event >= s.events.size()) return out;
  uint32_t first, last;
  if (!row_bounds(s, s.events.track[event], s.events.depth[event] + 1, &first, &last)) return out;
  const TimeNs a = s.events.start[event], b = a + s.events.dur[event];
  const TimeNs* st = s.events.start.data();
  uint32_t i = static_cast<uint32_t>(std::lower_bound(st + first, st + last, a) - st);
  for (; i < last && st[i] <= b; ++i) {
    // A child starting exactly at the parent's end belongs to the next parent, unless both
    // are instants at that point.
    if (st[i] == b && s.events.dur[event] > 0) break;
    if (count) ++*count;
    if (out.size() < limit) out.push_back(i);
  }
  return out;
}

TimeNs self_time(const TraceStore& s, uint32_t event) {
  if (event >= s.events.size()) return 0;
  const TimeNs a = s.events.start[event], d = s.events.dur[event], b = a + d;
  uint64_t n = 0;
  TimeNs covered = 0;
  for (uint32_t c : children_of(s, event, SIZE_MAX, &n)) {
    TimeNs cs = std::max(a, s.events.start[c]);
    TimeNs ce = std::min(b, s.events.start[c] + s.events.dur[c]);
    if (ce > cs) covered += ce - cs;
  }
  return std::max<TimeNs>(0, d - covered);
}

}  // namespace strata
