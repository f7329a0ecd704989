#include "engine/pod/host_merge.h"

#include <algorithm>
#include <string>
#include <vector>

namespace strata {

namespace {

// Where the next host's record locators start: past every byte the pod's locators count.
uint64_t stream_end(const TraceStore& s) {
  uint64_t end = 0;
  for (const SourceFile& f : s.files) end = std::max(end, f.stream_base + f.bytes);
  for (size_t i = 0; i < s.events.size(); ++i)
    if (s.events.src_len[i]) end = std::max(end, s.events.src_offset[i] + s.events.src_len[i]);
  return end;
}

template <typename T>
void append(std::vector<T>* to, const std::vector<T>& from) {
  to->insert(to->end(), from.begin(), from.end());
}

}  // namespace

void append_host(TraceStore* pod, const TraceStore& host, std::string_view name) {
  const std::string prefix(name);
  std::vector<StrId> id(host.strings.size(), 0);
  for (size_t i = 1; i < host.strings.size(); ++i)
    id[i] = pod->strings.intern(host.strings.get(static_cast<StrId>(i)));
  auto map = [&id](StrId v) { return v < id.size() ? id[v] : 0; };

  const auto file_base = static_cast<uint32_t>(pod->files.size());
  const auto process_base = static_cast<uint32_t>(pod->processes.size());
  const auto track_base = static_cast<uint32_t>(pod->tracks.size());
  const auto event_base = static_cast<uint32_t>(pod->events.size());
  const auto series_base = static_cast<uint32_t>(pod->series.size());
  const auto sample_base = static_cast<uint32_t>(pod->samples.size());
  const uint64_t stream_base = stream_end(*pod);

  for (SourceFile f : host.files) {
    f.stream_base += stream_base;
    f.group = prefix;
    pod->files.push_back(std::move(f));
  }
  for (const Process& p : host.processes) {
    Process q = p;
    const std::string own =
        p.name ? std::string(host.strings.get(p.name))
               : (p.key.empty() ? std::string("Process (no pid)") : "Process " + p.key);
    q.name = pod->strings.intern(prefix + " " + own);
    // Display order is the pod's process order: hosts one after the other.
    q.sort_index = static_cast<int64_t>(pod->processes.size());
    q.has_sort_index = true;
    q.file = p.file + file_base;
    for (StrId& l : q.labels) l = map(l);
    for (uint32_t& t : q.tracks) t += track_base;
    pod->processes.push_back(std::move(q));
  }
  for (const Track& t : host.tracks) {
    Track u = t;
    u.process += process_base;
    u.name = map(t.name);
    u.first_event += event_base;
    for (uint32_t& r : u.rows) r += event_base;
    u.first_series += series_base;
    pod->tracks.push_back(std::move(u));
  }
  const EventColumns& e = host.events;
  EventColumns& to = pod->events;
  append(&to.start, e.start), append(&to.dur, e.dur), append(&to.phase, e.phase);
  append(&to.depth, e.depth), append(&to.src_len, e.src_len);
  to.name.reserve(to.name.size() + e.size()), to.cat.reserve(to.cat.size() + e.size());
  to.track.reserve(to.track.size() + e.size());
  to.src_offset.reserve(to.src_offset.size() + e.size());
  for (size_t i = 0; i < e.size(); ++i) {
    to.name.push_back(map(e.name[i]));
    to.cat.push_back(map(e.cat[i]));
    to.track.push_back(e.track[i] + track_base);
    to.src_offset.push_back(e.src_offset[i] + stream_base);
  }
  for (CounterSeries c : host.series) {
    c.track += track_base;
    c.name = map(c.name);
    c.first_sample += sample_base;
    pod->series.push_back(c);
  }
  append(&pod->samples.ts, host.samples.ts);
  append(&pod->samples.value, host.samples.value);

  if (host.has_time) {
    pod->start_ns = pod->has_time ? std::min(pod->start_ns, host.start_ns) : host.start_ns;
    pod->end_ns = pod->has_time ? std::max(pod->end_ns, host.end_ns) : host.end_ns;
    pod->has_time = true;
  }
  for (size_t c = 0; c < pod->phase_counts.size(); ++c)
    pod->phase_counts[c] += host.phase_counts[c];
  if (pod->display_time_unit.empty()) pod->display_time_unit = host.display_time_unit;
  for (const std::string& m : host.errors) pod->errors.push_back(prefix + ": " + m);
  for (const std::string& m : host.warnings) pod->warnings.push_back(prefix + ": " + m);
  for (const std::string& m : host.notes) pod->notes.push_back(prefix + ": " + m);
}

}  // namespace strata
