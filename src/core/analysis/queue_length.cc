#include "core/analysis/queue_length.h"

#include <algorithm>

namespace strata {

std::vector<QueueSample> stream_queue_length(const TraceStore& s, const GpuStream& st,
                                             uint64_t* launches) {
  struct Change {
    TimeNs t;
    int delta;
  };
  std::vector<Change> changes;
  changes.reserve(st.events.size() * 2);
  for (uint32_t e : st.events) {
    const uint32_t from = launching_event(s, e);
    if (from == kNone) continue;
    const TimeNs end = s.events.start[e] + std::max<TimeNs>(0, s.events.dur[e]);
    changes.push_back({std::min(s.events.start[from], end), +1});
    changes.push_back({end, -1});
  }
  if (launches) *launches = changes.size() / 2;
  // At one instant, what finishes leaves before what is launched joins.
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    return a.t != b.t ? a.t < b.t : a.delta < b.delta;
  });
  std::vector<QueueSample> out;
  int64_t length = 0;
  for (size_t i = 0; i < changes.size();) {
    const TimeNs t = changes[i].t;
    for (; i < changes.size() && changes[i].t == t; ++i) length += changes[i].delta;
    if (!out.empty() && out.back().length == length) continue;
    out.push_back({t, length});
  }
  return out;
}

QueueSummary summarize_queue(const std::vector<QueueSample>& q, uint64_t launches) {
  QueueSummary r;
  r.launches = launches;
  if (q.empty()) return r;
  r.first = q.front().t;
  r.last = q.back().t;
  double area = 0;
  for (size_t i = 0; i < q.size(); ++i) {
    if (q[i].length > r.max) {
      r.max = q[i].length;
      r.max_at = q[i].t;
    }
    if (i + 1 < q.size()) {
      const TimeNs d = q[i + 1].t - q[i].t;
      area += static_cast<double>(q[i].length) * static_cast<double>(d);
      if (q[i].length >= kQueueStallLength) r.at_stall += d;
    }
  }
  if (r.last > r.first) r.mean = area / static_cast<double>(r.last - r.first);
  return r;
}

}  // namespace strata
