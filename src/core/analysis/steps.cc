#include "core/analysis/steps.h"

#include <algorithm>
#include <limits>

#include "core/analysis/intervals.h"
#include "core/formats/xplane/xplane_derived.h"
#include "core/query/launches.h"

namespace strata {

namespace {

bool is_profiler_step(std::string_view n) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  if (n.substr(0, kPrefix.size()) != kPrefix || n.size() == kPrefix.size()) return false;
  for (char c : n.substr(kPrefix.size()))
    if (c < '0' || c > '9') return false;
  return true;
}

void add_device(const TraceStore& s, const std::vector<uint32_t>& events, Step* st) {
  std::vector<Interval> busy;
  for (uint32_t e : events) {
    const TimeNs a = s.events.start[e], z = a + std::max<TimeNs>(0, s.events.dur[e]);
    st->device_first = st->device_events ? std::min(st->device_first, a) : a;
    st->device_last = st->device_events ? std::max(st->device_last, z) : z;
    ++st->device_events;
    busy.push_back({a, z});
  }
  merge_intervals(&busy);
  st->device_busy = total_length(busy);
}

}  // namespace

std::vector<Step> find_steps(const TraceStore& s, const GpuWorkSet& w) {
  std::vector<Step> out;
  // Names are checked once each, not per event.
  std::vector<uint8_t> step_name(s.strings.size(), 0);
  for (StrId id = 0; id < s.strings.size(); ++id)
    step_name[id] = is_profiler_step(s.strings.get(id));
  std::vector<uint8_t> gpu_process(s.processes.size(), 0);
  for (const GpuDevice& d : w.devices) gpu_process[d.process] = 1;
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    if (tr.kind != TrackKind::kThread) continue;
    const bool steps_row = s.xspace && tr.tid == kLineSteps;
    // Kineto repeats each ProfilerStep on the GPU as a gpu_user_annotation: the host's is the
    // step, the copy is the GPU work's span, already counted.
    if (!steps_row && gpu_process[tr.process]) continue;
    const size_t first = out.size();
    for (uint32_t e = tr.first_event; e < tr.first_event + tr.event_count; ++e) {
      if (s.events.dur[e] <= 0) continue;
      if (!steps_row && !step_name[s.events.name[e]]) continue;
      Step st;
      st.event = e;
      st.start = s.events.start[e];
      st.end = st.start + s.events.dur[e];
      st.on_device = steps_row;
      if (steps_row) {
        // The device's GPU work inside the step's window, on this process's streams.
        std::vector<uint32_t> inside;
        for (const GpuDevice& d : w.devices) {
          if (d.process != tr.process) continue;
          for (const GpuStream& gs : d.streams) {
            // By start time; work on one stream does not overlap, so only the event before
            // the first starting in the step can reach into it.
            auto it = std::lower_bound(gs.events.begin(), gs.events.end(), st.start,
                                       [&](uint32_t g, TimeNs v) { return s.events.start[g] < v; });
            if (it != gs.events.begin()) --it;
            for (; it != gs.events.end() && s.events.start[*it] < st.end; ++it)
              if (s.events.start[*it] + s.events.dur[*it] > st.start) inside.push_back(*it);
          }
        }
        add_device(s, inside, &st);
      } else {
        const Launched l = launched_by(s, e, std::numeric_limits<size_t>::max());
        add_device(s, l.events, &st);
      }
      out.push_back(st);
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const Step& a, const Step& b) { return a.start < b.start; });
  }
  return out;
}

}  // namespace strata
