#include "core/analysis/steps.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "core/analysis/intervals.h"
#include "core/formats/xplane/xplane_derived.h"

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

// What each Kineto step launched, as launched_by() finds it (the flows out of the step's slice
// and the slices nested in it, into another process), in one pass over the flows rather than
// one walk of every step's nested slices.
void add_launched_work(
    const TraceStore& s,
    const std::unordered_map<uint32_t, std::pair<size_t, size_t>>& steps_of_track,
    std::vector<Step>* steps) {
  if (steps_of_track.empty()) return;
  std::vector<std::vector<uint32_t>> launched(steps->size());
  // Per track, the latest end among its steps up to each one (steps may nest): walking back
  // from a time, no earlier step can hold it once that bound is passed.
  std::vector<TimeNs> end_bound(steps->size());
  for (const auto& [track, range] : steps_of_track)
    for (size_t k = range.first; k < range.second; ++k)
      end_bound[k] =
          k == range.first ? (*steps)[k].end : std::max(end_bound[k - 1], (*steps)[k].end);
  const FlowColumns& f = s.flows;
  for (size_t edge = 0; edge < f.size(); ++edge) {
    const uint32_t from = f.from[edge], to = f.to[edge];
    const uint32_t track = s.events.track[from];
    auto it = steps_of_track.find(track);
    if (it == steps_of_track.end()) continue;
    if (s.tracks[s.events.track[to]].process == s.tracks[track].process) continue;
    const TimeNs t = s.events.start[from];
    const auto begin = steps->begin() + static_cast<std::ptrdiff_t>(it->second.first);
    const auto end = steps->begin() + static_cast<std::ptrdiff_t>(it->second.second);
    auto k = std::upper_bound(begin, end, t, [](TimeNs v, const Step& st) { return v < st.start; });
    while (k != begin) {
      --k;
      const auto i = static_cast<size_t>(k - steps->begin());
      if (end_bound[i] <= t) break;
      if (t < k->end && (from == k->event || s.events.depth[from] > s.events.depth[k->event]))
        launched[i].push_back(to);
    }
  }
  for (size_t k = 0; k < steps->size(); ++k) {
    std::vector<uint32_t>& l = launched[k];
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
    if (!l.empty()) add_device(s, l, &(*steps)[k]);
  }
}

}  // namespace

std::vector<Step> find_steps(const TraceStore& s, const GpuWorkSet& w) {
  std::vector<Step> out;
  std::unordered_map<uint32_t, std::pair<size_t, size_t>> host_steps_of_track;
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
      }
      out.push_back(st);
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const Step& a, const Step& b) { return a.start < b.start; });
    if (!steps_row && out.size() > first) host_steps_of_track[t] = {first, out.size()};
  }
  add_launched_work(s, host_steps_of_track, &out);
  return out;
}

}  // namespace strata
