// TraceStore::memory_bytes: the resident cost of a loaded trace, counted by capacity (what is
// actually allocated), so the engine can report and budget memory per trace.
#include "core/store/trace_store.h"

#include <algorithm>

namespace strata {

namespace {

template <class T>
size_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

size_t TraceStore::memory_bytes() const {
  size_t n = sizeof(TraceStore) + strings.memory_bytes();
  n += bytes_of(events.start) + bytes_of(events.dur) + bytes_of(events.name) +
       bytes_of(events.cat) + bytes_of(events.track) + bytes_of(events.depth) +
       bytes_of(events.phase) + bytes_of(events.src_offset) + bytes_of(events.src_len);
  n += bytes_of(series) + bytes_of(samples.ts) + bytes_of(samples.value);
  n += bytes_of(flows.from) + bytes_of(flows.to) + bytes_of(flows.kind) + bytes_of(flows.by_to) +
       bytes_of(flows.kinds);
  n += bytes_of(frames.key) + bytes_of(frames.name) + bytes_of(frames.parent);
  n += bytes_of(clock_syncs) + bytes_of(memory_dumps) + bytes_of(kernel_launches.rows) +
       bytes_of(collectives.rows) + bytes_of(ascend_tasks.rows);
  n += bytes_of(processes) + bytes_of(tracks) + bytes_of(files);
  for (const Process& p : processes)
    n += p.key.capacity() + bytes_of(p.labels) + bytes_of(p.tracks);
  for (const Track& t : tracks) n += t.key.capacity() + bytes_of(t.rows);
  for (const SourceFile& f : files) n += f.name.capacity() + f.format.capacity();
  for (const std::string& s : errors) n += s.capacity();
  for (const std::string& s : warnings) n += s.capacity();
  return n;
}

uint32_t StackFrames::find(const StringTable& strings, std::string_view id_text) const {
  StrId id = strings.find(id_text);
  if (id == kNone) return kNone;
  auto it = std::lower_bound(key.begin(), key.end(), id);
  return it != key.end() && *it == id ? static_cast<uint32_t>(it - key.begin()) : kNone;
}

}  // namespace strata
