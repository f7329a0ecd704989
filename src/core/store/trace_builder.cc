// TraceBuilder: staging while importing, and the one-time layout pass in finish().
#include "core/store/trace_builder.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace strata {

namespace {

// start + dur without signed overflow (a garbage dur must not wrap the end to the past).
TimeNs end_of(TimeNs start, TimeNs dur) {
  TimeNs end;
  if (__builtin_add_overflow(start, dur, &end)) return INT64_MAX;
  return end;
}

// Reorders a column so that out[k] = col[order[k]]. One column at a time keeps the extra
// memory of finish() to a single column.
template <class T>
void permute(std::vector<T>* col, const std::vector<uint32_t>& order) {
  std::vector<T> out;
  out.reserve(order.size());
  for (uint32_t i : order) out.push_back((*col)[i]);
  col->swap(out);
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Display groups of a process's tracks; threads and their sample tracks share the last one.
int group_rank(TrackKind k) {
  switch (k) {
    case TrackKind::kInstant:
      return 0;
    case TrackKind::kCounter:
      return 1;
    case TrackKind::kAsync:
      return 2;
    case TrackKind::kObject:
      return 3;
    case TrackKind::kThread:
    case TrackKind::kSample:
      return 4;
  }
  return 5;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Natural order: digit runs compare as numbers, so GPU streams sort "stream 2" < "stream 10".
bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      size_t i0 = i, j0 = j;
      while (i0 < a.size() && a[i0] == '0') ++i0;
      while (j0 < b.size() && b[j0] == '0') ++j0;
      size_t i1 = i0, j1 = j0;
      while (i1 < a.size() && is_digit(a[i1])) ++i1;
      while (j1 < b.size() && is_digit(b[j1])) ++j1;
      if (i1 - i0 != j1 - j0) return i1 - i0 < j1 - j0;
      int c = a.substr(i0, i1 - i0).compare(b.substr(j0, j1 - j0));
      if (c != 0) return c < 0;
      i = i1, j = j1;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
      ++i, ++j;
    }
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;  // equal up to leading zeros: any strict, consistent order
}

}  // namespace

TraceBuilder::TraceBuilder(TraceStore* store) : store_(store) {}

uint32_t TraceBuilder::process(std::string_view key, int64_t pid) {
  auto it = process_index_.find(key);
  if (it != process_index_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(store_->processes.size());
  Process p;
  p.key = std::string(key);
  p.pid = pid;
  store_->processes.push_back(std::move(p));
  process_index_.emplace(std::string(key), id);
  return id;
}

uint32_t TraceBuilder::thread_track(uint32_t process, std::string_view tid_key, int64_t tid) {
  key_tmp_.assign(reinterpret_cast<const char*>(&process), sizeof(process));
  key_tmp_.push_back('t');
  key_tmp_.append(tid_key);
  auto it = track_index_.find(std::string_view(key_tmp_));
  if (it != track_index_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(store_->tracks.size());
  Track t;
  t.process = process;
  t.kind = TrackKind::kThread;
  t.key = std::string(tid_key);
  t.tid = tid;
  store_->tracks.push_back(std::move(t));
  track_index_.emplace(key_tmp_, id);
  return id;
}

uint32_t TraceBuilder::counter_track(uint32_t process, std::string_view key) {
  key_tmp_.assign(reinterpret_cast<const char*>(&process), sizeof(process));
  key_tmp_.push_back('c');
  key_tmp_.append(key);
  auto it = track_index_.find(std::string_view(key_tmp_));
  if (it != track_index_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(store_->tracks.size());
  Track t;
  t.process = process;
  t.kind = TrackKind::kCounter;
  t.key = std::string(key);
  t.name = store_->strings.intern(key);
  store_->tracks.push_back(std::move(t));
  track_index_.emplace(key_tmp_, id);
  return id;
}

uint32_t TraceBuilder::make_track(uint32_t process, TrackKind kind, char tag,
                                  std::string_view key) {
  key_tmp_.assign(reinterpret_cast<const char*>(&process), sizeof(process));
  key_tmp_.push_back(tag);
  key_tmp_.append(key);
  auto it = track_index_.find(std::string_view(key_tmp_));
  if (it != track_index_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(store_->tracks.size());
  Track t;
  t.process = process;
  t.kind = kind;
  t.key = std::string(key);
  store_->tracks.push_back(std::move(t));
  track_index_.emplace(key_tmp_, id);
  return id;
}

uint32_t TraceBuilder::global_track() {
  if (global_process_ == kNone) {
    // Not in process_index_: no pid text of the file can name (or collide with) it.
    global_process_ = static_cast<uint32_t>(store_->processes.size());
    Process p;
    p.global = true;
    p.name = store_->strings.intern("Global");
    store_->processes.push_back(std::move(p));
  }
  return make_track(global_process_, TrackKind::kInstant, 'g', "");
}

uint32_t TraceBuilder::process_instant_track(uint32_t process) {
  return make_track(process, TrackKind::kInstant, 'g', "");
}

uint32_t TraceBuilder::sample_track(uint32_t process, std::string_view tid_key, int64_t tid) {
  uint32_t t = make_track(process, TrackKind::kSample, 's', tid_key);
  store_->tracks[t].tid = tid;
  return t;
}

uint32_t TraceBuilder::async_track(uint32_t process, StrId name, bool object) {
  if (object) {
    uint32_t t = make_track(process, TrackKind::kObject, 'o', "");
    store_->tracks[t].name = store_->strings.intern("Objects");
    return t;
  }
  std::string_view text = store_->strings.get(name);
  uint32_t t = make_track(process, TrackKind::kAsync, 'a', text);
  store_->tracks[t].name = name;
  return t;
}

void TraceBuilder::add_complete(uint32_t track, TimeNs ts, TimeNs dur, StrId name, StrId cat,
                                uint64_t src_offset, uint32_t src_len) {
  if (dur < 0) {
    dur = 0;
    ++negative_durs_;
  }
  EventColumns& ev = store_->events;
  ev.start.push_back(ts);
  ev.dur.push_back(dur);
  ev.name.push_back(name);
  ev.cat.push_back(cat);
  ev.track.push_back(track);
  ev.phase.push_back('X');
  ev.src_offset.push_back(src_offset);
  ev.src_len.push_back(src_len);
}

void TraceBuilder::add_begin(uint32_t track, TimeNs ts, StrId name, StrId cat, uint64_t src_offset,
                             uint32_t src_len) {
  marks_.push_back(Mark{ts, src_offset, name, cat, track, src_len, true});
}

void TraceBuilder::add_end(uint32_t track, TimeNs ts) {
  marks_.push_back(Mark{ts, 0, 0, 0, track, 0, false});
}

void TraceBuilder::add_instant(uint32_t track, TimeNs ts, StrId name, StrId cat,
                               uint64_t src_offset, uint32_t src_len) {
  add_complete(track, ts, 0, name, cat, src_offset, src_len);
  store_->events.phase.back() = 'i';
}

uint32_t TraceBuilder::add_marker(uint32_t track, char phase, TimeNs ts, StrId name, StrId cat,
                                  uint64_t src_offset, uint32_t src_len) {
  auto at = static_cast<uint32_t>(store_->events.size());
  add_complete(track, ts, 0, name, cat, src_offset, src_len);
  store_->events.phase.back() = phase;
  return at;
}

uint32_t TraceBuilder::async_group(std::string_view key, bool object) {
  auto it = async_group_index_.find(key);
  if (it != async_group_index_.end()) return it->second;
  auto id = static_cast<uint32_t>(async_group_object_.size());
  async_group_object_.push_back(object ? 1 : 0);
  async_group_index_.emplace(std::string(key), id);
  return id;
}

void TraceBuilder::add_async(uint32_t group, uint32_t process, char ph, TimeNs ts, StrId name,
                             StrId cat, uint64_t src_offset, uint32_t src_len) {
  async_marks_.push_back(AsyncMark{ts, src_offset, name, cat, group, process, src_len, ph});
}

uint64_t TraceBuilder::flow_key(std::string_view key) {
  // 64-bit multiply-xorshift over 8-byte words (std::hash is 32-bit on wasm32: too many
  // collisions for a million flows).
  uint64_t h = 0x9E3779B97F4A7C15ull ^ key.size();
  size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, key.data() + i, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  uint64_t w = 0;
  std::memcpy(&w, key.data() + i, key.size() - i);
  h = (h ^ w ^ (uint64_t{key.size() - i} << 56)) * 0x94D049BB133111EBull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

void TraceBuilder::add_flow(uint64_t key, uint32_t thread_track, char ph, bool next_slice,
                            TimeNs ts, StrId name, StrId cat) {
  // Flow kinds are a handful and come in runs: the last one used nearly always matches.
  std::vector<FlowColumns::Kind>& kinds = store_->flows.kinds;
  uint32_t kind = last_flow_kind_;
  if (kind >= kinds.size() || kinds[kind].name != name || kinds[kind].cat != cat) {
    uint64_t nc = (uint64_t{name} << 32) | cat;
    auto it = flow_kind_index_.find(nc);
    if (it != flow_kind_index_.end()) {
      kind = it->second;
    } else {
      kind = static_cast<uint32_t>(kinds.size());
      kinds.push_back(FlowColumns::Kind{name, cat});
      flow_kind_index_.emplace(nc, kind);
    }
    last_flow_kind_ = kind;
  }
  flow_marks_.push_back(FlowMark{ts, key, thread_track, kind, ph, next_slice});
}

void TraceBuilder::add_frame(StrId key, StrId name, StrId parent_key) {
  frames_.push_back(FrameEntry{key, name, parent_key});
}

void TraceBuilder::set_sample_frame(uint32_t event, StrId frame_key) {
  sample_frames_.emplace_back(event, frame_key);
}

void TraceBuilder::add_counter(uint32_t counter_track, StrId series_name, TimeNs ts, double value) {
  uint64_t key = (uint64_t{counter_track} << 32) | series_name;
  auto it = series_index_.find(key);
  uint32_t series;
  if (it != series_index_.end()) {
    series = it->second;
  } else {
    series = static_cast<uint32_t>(store_->series.size());
    CounterSeries cs;
    cs.track = counter_track;
    cs.name = series_name;
    store_->series.push_back(cs);
    series_index_.emplace(key, series);
  }
  sample_series_.push_back(series);
  store_->samples.ts.push_back(ts);
  store_->samples.value.push_back(value);
}

void TraceBuilder::set_process_name(uint32_t process, StrId name) {
  store_->processes[process].name = name;
}

void TraceBuilder::set_process_sort_index(uint32_t process, int64_t index) {
  store_->processes[process].sort_index = index;
  store_->processes[process].has_sort_index = true;
}

void TraceBuilder::add_process_label(uint32_t process, StrId label) {
  auto& labels = store_->processes[process].labels;
  if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
}

void TraceBuilder::set_thread_name(uint32_t track, StrId name) {
  store_->tracks[track].name = name;
}

void TraceBuilder::set_thread_sort_index(uint32_t track, int64_t index) {
  store_->tracks[track].sort_index = index;
  store_->tracks[track].has_sort_index = true;
}

void TraceBuilder::reserve_events(size_t n) {
  EventColumns& ev = store_->events;
  ev.start.reserve(n);
  ev.dur.reserve(n);
  ev.name.reserve(n);
  ev.cat.reserve(n);
  ev.track.reserve(n);
  ev.phase.reserve(n);
  ev.src_offset.reserve(n);
  ev.src_len.reserve(n);
}

uint64_t TraceBuilder::items() const {
  return store_->events.size() + marks_.size() + store_->samples.size() + async_marks_.size() +
         flow_marks_.size();
}

void TraceBuilder::finish() {
  if (finished_) return;
  finished_ = true;
  match_begin_end();
  resolve_frames();  // before anything moves events: sample indices are add_marker's
  compute_time_range();
  close_open_begins();
  build_async();  // needs the time range: slices left open end where the trace ends
  assign_default_names();
  std::vector<uint32_t> new_track = order_tracks();
  layout_events(new_track);
  layout_counters(new_track);
  bind_flows(new_track);  // needs the final rows
  std::sort(store_->memory_dumps.begin(), store_->memory_dumps.end());
  std::stable_sort(store_->clock_syncs.begin(), store_->clock_syncs.end(),
                   [](const ClockSync& a, const ClockSync& b) { return a.ts < b.ts; });
  report_repairs();
}

// Pairs B and E per track: stable by timestamp (file order for ties), then a stack.
void TraceBuilder::match_begin_end() {
  if (marks_.empty()) return;
  std::vector<uint32_t> idx(marks_.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    const Mark& x = marks_[a];
    const Mark& y = marks_[b];
    if (x.track != y.track) return x.track < y.track;
    if (x.ts != y.ts) return x.ts < y.ts;
    return a < b;
  });
  std::vector<uint32_t> stack;
  for (size_t k = 0; k < idx.size();) {
    uint32_t track = marks_[idx[k]].track;
    stack.clear();
    for (; k < idx.size() && marks_[idx[k]].track == track; ++k) {
      const Mark& m = marks_[idx[k]];
      if (m.begin) {
        stack.push_back(idx[k]);
      } else if (stack.empty()) {
        ++dropped_ends_;
      } else {
        const Mark& b = marks_[stack.back()];
        stack.pop_back();
        add_complete(b.track, b.ts, m.ts - b.ts, b.name, b.cat, b.src_offset, b.src_len);
        store_->events.phase.back() = 'B';
      }
    }
    for (uint32_t i : stack) open_begins_.push_back(marks_[i]);
  }
  std::vector<Mark>().swap(marks_);
}

// Builds TraceStore::frames (sorted by key, first definition of a key wins, parents as
// indices, cycles cut so every parent walk ends) and names samples after their leaf frame.
void TraceBuilder::resolve_frames() {
  StackFrames& fr = store_->frames;
  if (!frames_.empty()) {
    std::stable_sort(frames_.begin(), frames_.end(),
                     [](const FrameEntry& a, const FrameEntry& b) { return a.key < b.key; });
    frames_.erase(
        std::unique(frames_.begin(), frames_.end(),
                    [](const FrameEntry& a, const FrameEntry& b) { return a.key == b.key; }),
        frames_.end());
    const size_t n = frames_.size();
    fr.key.resize(n);
    fr.name.resize(n);
    fr.parent.assign(n, kNone);
    for (size_t i = 0; i < n; ++i) {
      fr.key[i] = frames_[i].key;
      fr.name[i] = frames_[i].name;
    }
    for (size_t i = 0; i < n; ++i) {
      StrId pk = frames_[i].parent_key;
      if (pk == 0) continue;
      auto it = std::lower_bound(fr.key.begin(), fr.key.end(), pk);
      if (it != fr.key.end() && *it == pk)
        fr.parent[i] = static_cast<uint32_t>(it - fr.key.begin());
    }
    std::vector<FrameEntry>().swap(frames_);
    // Iterative colouring: 1 = on the current walk, 2 = known to reach a root.
    std::vector<uint8_t> state(n, 0);
    std::vector<uint32_t> path;
    for (uint32_t i = 0; i < n; ++i) {
      path.clear();
      uint32_t j = i;
      while (j != kNone && state[j] == 0) {
        state[j] = 1;
        path.push_back(j);
        j = fr.parent[j];
      }
      if (j != kNone && state[j] == 1) {
        fr.parent[path.back()] = kNone;
        ++frame_cycles_;
      }
      for (uint32_t k : path) state[k] = 2;
    }
  }
  for (const auto& [event, key] : sample_frames_) {
    auto it = std::lower_bound(fr.key.begin(), fr.key.end(), key);
    if (it == fr.key.end() || *it != key) continue;
    StrId name = fr.name[static_cast<size_t>(it - fr.key.begin())];
    if (name != 0) store_->events.name[event] = name;
  }
  std::vector<std::pair<uint32_t, StrId>>().swap(sample_frames_);
}

void TraceBuilder::compute_time_range() {
  TraceStore& s = *store_;
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  const EventColumns& ev = s.events;
  for (size_t i = 0; i < ev.size(); ++i) {
    lo = std::min(lo, ev.start[i]);
    hi = std::max(hi, end_of(ev.start[i], ev.dur[i]));
  }
  for (TimeNs t : s.samples.ts) {
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  for (const Mark& m : open_begins_) {
    lo = std::min(lo, m.ts);
    hi = std::max(hi, m.ts);
  }
  lo = std::min(lo, noted_lo_);
  hi = std::max(hi, noted_hi_);
  s.has_time = lo <= hi;
  s.start_ns = s.has_time ? lo : 0;
  s.end_ns = s.has_time ? hi : 0;
}

// A B never closed ends where the trace ends, so it stays visible and contains its children.
void TraceBuilder::close_open_begins() {
  for (const Mark& b : open_begins_) {
    add_complete(b.track, b.ts, store_->end_ns - b.ts, b.name, b.cat, b.src_offset, b.src_len);
    store_->events.phase.back() = 'B';
  }
}

void TraceBuilder::assign_default_names() {
  TraceStore& s = *store_;
  for (Process& p : s.processes) {
    if (p.name == 0)
      p.name =
          s.strings.intern(p.key.empty() ? std::string("Process (no pid)") : "Process " + p.key);
  }
  for (Track& t : s.tracks) {
    if (t.name == 0 && t.kind == TrackKind::kThread)
      t.name = s.strings.intern(t.key.empty() ? std::string("Thread (no tid)") : "Thread " + t.key);
  }
  for (Track& t : s.tracks) {
    if (t.kind == TrackKind::kInstant && t.name == 0) {
      t.name = s.strings.intern(s.processes[t.process].global ? "Global" : "Process instants");
    } else if (t.kind == TrackKind::kSample) {
      // Named after its thread and sorted with it (it shows right below the thread).
      key_tmp_.assign(reinterpret_cast<const char*>(&t.process), sizeof(t.process));
      key_tmp_.push_back('t');
      key_tmp_.append(t.key);
      auto it = track_index_.find(std::string_view(key_tmp_));
      std::string thread = t.key.empty() ? std::string("Thread (no tid)") : "Thread " + t.key;
      if (it != track_index_.end()) {
        const Track& th = s.tracks[it->second];
        thread = std::string(s.strings.get(th.name));
        t.sort_index = th.sort_index;
        t.has_sort_index = th.has_sort_index;
      }
      t.name = s.strings.intern(thread + " samples");
    }
  }
}

// Puts processes and tracks in display order; returns old track index → new track index.
std::vector<uint32_t> TraceBuilder::order_tracks() {
  TraceStore& s = *store_;
  std::vector<uint32_t> porder(s.processes.size());
  std::iota(porder.begin(), porder.end(), 0u);
  std::sort(porder.begin(), porder.end(), [&](uint32_t a, uint32_t b) {
    const Process& x = s.processes[a];
    const Process& y = s.processes[b];
    if (x.global != y.global) return x.global;
    if (x.has_sort_index != y.has_sort_index) return x.has_sort_index;
    if (x.sort_index != y.sort_index) return x.sort_index < y.sort_index;
    if (x.pid != y.pid) return x.pid < y.pid;
    return x.key < y.key;
  });
  std::vector<std::vector<uint32_t>> per_process(s.processes.size());
  for (uint32_t t = 0; t < s.tracks.size(); ++t) per_process[s.tracks[t].process].push_back(t);

  std::vector<uint32_t> new_track(s.tracks.size());
  std::vector<Track> tracks;
  std::vector<Process> processes;
  tracks.reserve(s.tracks.size());
  processes.reserve(s.processes.size());
  for (uint32_t p : porder) {
    std::vector<uint32_t>& list = per_process[p];
    // Process-wide tracks first: instants, counters (by name), async (by name), objects; then
    // threads by (sort index, numeric tid, then key in natural order: "stream 7" before
    // "stream 10"; non-numeric tids count as 0),
    // each thread's sample track right after it.
    std::sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
      const Track& x = s.tracks[a];
      const Track& y = s.tracks[b];
      int gx = group_rank(x.kind), gy = group_rank(y.kind);
      if (gx != gy) return gx < gy;
      if (x.kind != TrackKind::kThread && x.kind != TrackKind::kSample)
        return natural_less(x.key, y.key);
      if (x.sort_index != y.sort_index) return x.sort_index < y.sort_index;
      if (x.tid != y.tid) return x.tid < y.tid;
      if (x.key != y.key) return natural_less(x.key, y.key);
      return x.kind == TrackKind::kThread && y.kind == TrackKind::kSample;
    });
    uint32_t new_p = static_cast<uint32_t>(processes.size());
    processes.push_back(std::move(s.processes[p]));
    processes.back().tracks.clear();
    for (uint32_t t : list) {
      new_track[t] = static_cast<uint32_t>(tracks.size());
      processes.back().tracks.push_back(new_track[t]);
      tracks.push_back(std::move(s.tracks[t]));
      tracks.back().process = new_p;
    }
  }
  s.processes.swap(processes);
  s.tracks.swap(tracks);
  return new_track;
}

// Groups events by track, assigns depths with the stack rule and orders each track's events
// by (depth, start). Sorting is skipped for tracks already in order (the common case).
void TraceBuilder::layout_events(const std::vector<uint32_t>& new_track) {
  TraceStore& s = *store_;
  EventColumns& ev = s.events;
  const size_t n = ev.size();
  const size_t nt = s.tracks.size();

  std::vector<uint32_t> first(nt + 1, 0);
  for (size_t i = 0; i < n; ++i) ++first[new_track[ev.track[i]] + 1];
  for (size_t t = 0; t < nt; ++t) first[t + 1] += first[t];
  std::vector<uint32_t> idx(n);
  {
    std::vector<uint32_t> pos(first.begin(), first.end() - 1);
    for (size_t i = 0; i < n; ++i) idx[pos[new_track[ev.track[i]]]++] = static_cast<uint32_t>(i);
  }

  auto before = [&](uint32_t a, uint32_t b) {
    if (ev.start[a] != ev.start[b]) return ev.start[a] < ev.start[b];
    if (ev.dur[a] != ev.dur[b]) return ev.dur[a] > ev.dur[b];  // parents before children
    if (ev.src_offset[a] != ev.src_offset[b]) return ev.src_offset[a] < ev.src_offset[b];
    return a < b;
  };
  std::vector<uint32_t> order(n), depth(n), tdepth;
  std::vector<TimeNs> stack;
  std::vector<uint32_t> per_depth;
  for (size_t t = 0; t < nt; ++t) {
    Track& tr = s.tracks[t];
    const uint32_t a = first[t], b = first[t + 1];
    tr.first_event = a;
    tr.event_count = b - a;
    tr.max_depth = 0;
    tr.rows.clear();
    if (tr.kind == TrackKind::kCounter && a == b) continue;
    if (!std::is_sorted(idx.begin() + a, idx.begin() + b, before))
      std::sort(idx.begin() + a, idx.begin() + b, before);
    tdepth.resize(b - a);
    uint32_t max_depth = 0;
    if (tr.kind == TrackKind::kAsync || tr.kind == TrackKind::kObject) {
      // build_async chose these depths (slice trees packed into lanes).
      for (uint32_t k = a; k < b; ++k) {
        auto it =
            std::lower_bound(given_depth_.begin(), given_depth_.end(), std::make_pair(idx[k], 0u));
        uint32_t d = it != given_depth_.end() && it->first == idx[k] ? it->second : 0;
        tdepth[k - a] = d;
        max_depth = std::max(max_depth, d);
      }
    } else {
      // Stack rule: pop slices that ended by this start; depth = what is still open.
      stack.clear();
      for (uint32_t k = a; k < b; ++k) {
        uint32_t i = idx[k];
        TimeNs start = ev.start[i];
        while (!stack.empty() && stack.back() <= start) stack.pop_back();
        uint32_t d = static_cast<uint32_t>(stack.size());
        tdepth[k - a] = d;
        max_depth = std::max(max_depth, d);
        if (!is_instant_phase(ev.phase[i])) stack.push_back(end_of(start, ev.dur[i]));
      }
    }
    // Stable counting sort by depth keeps each row in start order.
    per_depth.assign(max_depth + 2, 0);
    for (uint32_t k = a; k < b; ++k) ++per_depth[tdepth[k - a] + 1];
    for (uint32_t d = 0; d <= max_depth; ++d) per_depth[d + 1] += per_depth[d];
    tr.max_depth = max_depth;
    tr.rows.resize(max_depth + 2);
    for (uint32_t d = 0; d <= max_depth + 1; ++d) tr.rows[d] = a + per_depth[d];
    for (uint32_t k = a; k < b; ++k) {
      uint32_t d = tdepth[k - a];
      uint32_t at = a + per_depth[d]++;
      order[at] = idx[k];
      depth[at] = d;
    }
  }
  std::vector<uint32_t>().swap(idx);
  std::vector<std::pair<uint32_t, uint32_t>>().swap(given_depth_);

  permute(&ev.start, order);
  permute(&ev.dur, order);
  permute(&ev.name, order);
  permute(&ev.cat, order);
  permute(&ev.phase, order);
  permute(&ev.src_offset, order);
  permute(&ev.src_len, order);
  ev.depth.swap(depth);
  std::vector<uint32_t> track_col(n);
  for (size_t t = 0; t < nt; ++t)
    std::fill(track_col.begin() + first[t], track_col.begin() + first[t + 1],
              static_cast<uint32_t>(t));
  ev.track.swap(track_col);
}

// Orders series by (track, first appearance) and their samples by time.
void TraceBuilder::layout_counters(const std::vector<uint32_t>& new_track) {
  TraceStore& s = *store_;
  const size_t ns = s.series.size();
  for (CounterSeries& cs : s.series) cs.track = new_track[cs.track];
  std::vector<uint32_t> sorder(ns);
  std::iota(sorder.begin(), sorder.end(), 0u);
  std::stable_sort(sorder.begin(), sorder.end(),
                   [&](uint32_t a, uint32_t b) { return s.series[a].track < s.series[b].track; });
  std::vector<uint32_t> new_series(ns);
  std::vector<CounterSeries> series(ns);
  for (uint32_t k = 0; k < ns; ++k) {
    new_series[sorder[k]] = k;
    series[k] = s.series[sorder[k]];
  }
  s.series.swap(series);

  const size_t n = s.samples.size();
  std::vector<uint32_t> first(ns + 1, 0);
  for (size_t i = 0; i < n; ++i) ++first[new_series[sample_series_[i]] + 1];
  for (size_t k = 0; k < ns; ++k) first[k + 1] += first[k];
  std::vector<uint32_t> order(n);
  {
    std::vector<uint32_t> pos(first.begin(), first.end() - 1);
    for (size_t i = 0; i < n; ++i)
      order[pos[new_series[sample_series_[i]]]++] = static_cast<uint32_t>(i);
  }
  std::vector<uint32_t>().swap(sample_series_);
  const std::vector<TimeNs>& ts = s.samples.ts;
  auto before = [&](uint32_t a, uint32_t b) { return ts[a] != ts[b] ? ts[a] < ts[b] : a < b; };
  for (size_t k = 0; k < ns; ++k) {
    auto b = order.begin() + first[k], e = order.begin() + first[k + 1];
    if (!std::is_sorted(b, e, before)) std::sort(b, e, before);
    s.series[k].first_sample = first[k];
    s.series[k].sample_count = first[k + 1] - first[k];
  }
  permute(&s.samples.ts, order);
  permute(&s.samples.value, order);

  for (Track& t : s.tracks) t.first_series = t.series_count = 0;
  for (uint32_t k = ns; k-- > 0;) {
    Track& t = s.tracks[s.series[k].track];
    t.first_series = k;
    ++t.series_count;
  }
}

void TraceBuilder::report_repairs() {
  if (dropped_ends_)
    warning(plural(dropped_ends_, "E (end) event without a matching B was dropped",
                   "E (end) events without a matching B were dropped"));
  if (!open_begins_.empty())
    warning(plural(open_begins_.size(), "B (begin) event was never closed; it ends",
                   "B (begin) events were never closed; they end") +
            " at the end of the trace");
  if (negative_durs_)
    warning(plural(negative_durs_, "event had a negative dur, set to 0",
                   "events had a negative dur, set to 0"));
  std::vector<Mark>().swap(open_begins_);
  if (async_dropped_ends_)
    warning(plural(async_dropped_ends_, "async or object end (e/F/D) without an open begin was",
                   "async or object ends (e/F/D) without an open begin were") +
            " dropped");
  if (async_misnested_)
    warning(plural(async_misnested_, "async slice was not closed before its parent; it ends",
                   "async slices were not closed before their parent; they end") +
            " with the parent");
  if (async_unclosed_)
    warning(plural(async_unclosed_, "async slice or object (b/S/N) was never closed; it ends",
                   "async slices or objects (b/S/N) were never closed; they end") +
            " at the end of the trace");
  if (objects_recreated_)
    warning(plural(objects_recreated_, "object was created again (N) while alive; it ends",
                   "objects were created again (N) while alive; they end") +
            " at the new N");
  if (flow_orphans_)
    warning(plural(flow_orphans_, "flow step (t/f) without a start (s) was ignored",
                   "flow steps (t/f) without a start (s) were ignored"));
  if (flow_unbound_)
    warning(plural(flow_unbound_, "flow event found no slice to bind to on its thread",
                   "flow events found no slice to bind to on their thread"));
  if (frame_cycles_)
    warning(plural(frame_cycles_, "cycle in stackFrames parents was cut",
                   "cycles in stackFrames parents were cut"));
}

}  // namespace strata
