#include "core/store/store_digest.h"

#include "core/base/fnv.h"

namespace strata {

uint64_t store_digest(const TraceStore& s) {
  Fnv64 d;
  for (size_t i = 0; i < s.strings.size(); ++i) d.str(s.strings.get(static_cast<StrId>(i)));
  for (const Process& p : s.processes) {
    d.str(p.key);
    d.pod(p.pid), d.pod(p.name), d.pod(p.sort_index), d.pod(p.has_sort_index), d.pod(p.global);
    d.vec(p.labels), d.vec(p.tracks);
  }
  for (const Track& t : s.tracks) {
    d.pod(t.process), d.pod(t.kind), d.str(t.key), d.pod(t.tid), d.pod(t.name);
    d.pod(t.sort_index), d.pod(t.has_sort_index), d.pod(t.first_event), d.pod(t.event_count);
    d.pod(t.max_depth), d.vec(t.rows), d.pod(t.first_series), d.pod(t.series_count);
  }
  const EventColumns& ev = s.events;
  d.vec(ev.start), d.vec(ev.dur), d.vec(ev.name), d.vec(ev.cat), d.vec(ev.track), d.vec(ev.depth);
  d.vec(ev.phase), d.vec(ev.src_offset), d.vec(ev.src_len);
  for (const CounterSeries& c : s.series)
    d.pod(c.track), d.pod(c.name), d.pod(c.first_sample), d.pod(c.sample_count);
  d.vec(s.samples.ts), d.vec(s.samples.value);
  d.vec(s.flows.from), d.vec(s.flows.to), d.vec(s.flows.kind), d.vec(s.flows.by_to);
  for (const auto& k : s.flows.kinds) d.pod(k.name), d.pod(k.cat);
  d.vec(s.frames.key), d.vec(s.frames.name), d.vec(s.frames.parent);
  for (const ClockSync& c : s.clock_syncs)
    d.pod(c.ts), d.pod(c.issue_ts), d.pod(c.has_issue_ts), d.pod(c.sync_id);
  d.vec(s.memory_dumps), d.pod(s.device_count), d.str(s.display_time_unit);
  d.pod(s.phase_counts), d.pod(s.start_ns), d.pod(s.end_ns), d.pod(s.has_time);
  for (const std::string& m : s.errors) d.str(m);
  for (const std::string& m : s.warnings) d.str(m);
  return d.h;
}

}  // namespace strata
