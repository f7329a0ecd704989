#include "core/analysis/queue_length.h"

#include <algorithm>
#include <string>

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

uint32_t add_queue_length_tracks(TraceStore* s, std::optional<GpuWorkSet>* gpu) {
  // HTA defines the queue on Kineto's runtime → kernel flows; an XSpace's device lines keep the
  // layout XProf gives them (the queue_length table still answers for them).
  if (s->xspace) return 0;
  GpuWorkSet w = find_gpu_work(*s);
  uint32_t added = 0;
  for (const GpuDevice& dev : w.devices)
    for (const GpuStream& st : dev.streams) {
      uint64_t launches = 0;
      const std::vector<QueueSample> q = stream_queue_length(*s, st, &launches);
      if (launches == 0 || q.empty()) continue;
      const Track& stream = s->tracks[st.track];
      const std::string_view stream_name =
          stream.name ? s->strings.get(stream.name) : std::string_view(stream.key);
      Track t;
      t.process = stream.process;
      t.kind = TrackKind::kCounter;
      t.key = std::string(1, '\0') + "queue length " + stream.key;
      t.name = s->strings.intern("Queue length (" + std::string(stream_name) + ")");
      t.first_event = static_cast<uint32_t>(s->events.size());
      t.first_series = static_cast<uint32_t>(s->series.size());
      t.series_count = 1;
      const auto id = static_cast<uint32_t>(s->tracks.size());
      CounterSeries series;
      series.track = id;
      series.name = s->strings.intern("length");
      series.first_sample = static_cast<uint32_t>(s->samples.size());
      series.sample_count = static_cast<uint32_t>(q.size());
      for (const QueueSample& x : q) {
        s->samples.ts.push_back(x.t);
        s->samples.value.push_back(static_cast<double>(x.length));
      }
      s->series.push_back(series);
      std::vector<uint32_t>& order = s->processes[t.process].tracks;
      auto at = std::find(order.begin(), order.end(), st.track);
      order.insert(at == order.end() ? at : at + 1, id);
      s->tracks.push_back(std::move(t));
      ++added;
    }
  if (gpu) *gpu = std::move(w);
  return added;
}

bool is_derived_track(const Track& t) { return !t.key.empty() && t.key[0] == '\0'; }

size_t derived_counter_samples(const TraceStore& s) {
  size_t n = 0;
  for (const CounterSeries& series : s.series)
    if (is_derived_track(s.tracks[series.track])) n += series.sample_count;
  return n;
}

}  // namespace strata
