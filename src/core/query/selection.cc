#include "core/query/selection.h"

#include <algorithm>
#include <unordered_map>

#include "core/query/hierarchy.h"
#include "core/query/viewport.h"

namespace strata {

uint64_t select_region(const TraceStore& s, TimeNs t0, TimeNs t1, const std::vector<RowSpan>& rows,
                       size_t limit, std::vector<uint32_t>* out) {
  uint64_t count = 0;
  const TimeNs* st = s.events.start.data();
  for (const RowSpan& r : rows) {
    for (uint32_t d = r.depth_lo; d <= r.depth_hi; ++d) {
      uint32_t first, last;
      if (!row_bounds(s, r.track, d, &first, &last)) continue;
      for (uint32_t i = first_visible_in_row(s, first, last, t0); i < last && st[i] <= t1; ++i) {
        ++count;
        if (out->size() < limit) out->push_back(i);
      }
    }
  }
  return count;
}

uint64_t select_named(const TraceStore& s, StrId name, const std::vector<uint32_t>& tracks,
                      size_t limit, std::vector<uint32_t>* out) {
  uint64_t count = 0;
  auto scan = [&](uint32_t first, uint32_t end) {
    const StrId* names = s.events.name.data();
    for (uint32_t i = first; i < end; ++i) {
      if (names[i] != name) continue;
      ++count;
      if (out->size() < limit) out->push_back(i);
    }
  };
  if (tracks.empty()) {
    scan(0, static_cast<uint32_t>(s.events.size()));
    return count;
  }
  for (uint32_t t : tracks)
    if (t < s.tracks.size())
      scan(s.tracks[t].first_event, s.tracks[t].first_event + s.tracks[t].event_count);
  return count;
}

std::vector<SummaryRow> summarize(const TraceStore& s, const std::vector<uint32_t>& events) {
  std::unordered_map<StrId, size_t> index;
  std::vector<SummaryRow> rows;
  for (uint32_t e : events) {
    if (e >= s.events.size()) continue;
    StrId n = s.events.name[e];
    TimeNs d = s.events.dur[e];
    auto [it, fresh] = index.try_emplace(n, rows.size());
    if (fresh) rows.push_back({n, 0, 0, d, d, 0});
    SummaryRow& r = rows[it->second];
    ++r.count;
    r.total += d;
    r.self += self_time(s, e);
    r.min = std::min(r.min, d);
    r.max = std::max(r.max, d);
  }
  std::sort(rows.begin(), rows.end(), [](const SummaryRow& a, const SummaryRow& b) {
    return a.total != b.total ? a.total > b.total : a.count > b.count;
  });
  return rows;
}

}  // namespace strata
