// TraceBuilder: staging while importing, and the one-time passes of finish() (the column
// layout itself is in event_layout.cc, flows in flow_binding.cc, async in async_layout.cc).
#include "core/store/trace_builder.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/base/text.h"
#include "core/store/blocks.h"
#include "core/store/counter_units.h"

namespace strata {

namespace {

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

uint32_t TraceBuilder::global_process() {
  if (global_process_ == kNone) {
    // Not in process_index_: no pid text of the file can name (or collide with) it.
    global_process_ = static_cast<uint32_t>(store_->processes.size());
    Process p;
    p.global = true;
    p.name = store_->strings.intern("Global");
    store_->processes.push_back(std::move(p));
  }
  return global_process_;
}

uint32_t TraceBuilder::global_track() {
  return make_track(global_process(), TrackKind::kInstant, 'g', "");
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
  if (ev.start.size() == ev.start.capacity()) grow_events(next_capacity(ev.start.size()));
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
  make_room(&marks_);
  marks_.push_back(Mark{ts, src_offset, name, cat, track, src_len, true});
}

void TraceBuilder::add_end(uint32_t track, TimeNs ts) {
  make_room(&marks_);
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
  make_room(&async_marks_);
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
  uint32_t step = ph == 's' ? 0 : ph == 't' ? 1 : 2;
  make_room(&flow_marks_);
  flow_marks_.push_back(FlowMark{ts, key, thread_track, kind << 3 | step << 1 | next_slice});
}

void TraceBuilder::add_frame(StrId key, StrId name, StrId parent_key) {
  frames_.push_back(FrameEntry{key, name, parent_key});
}

void TraceBuilder::set_sample_frame(uint32_t event, StrId frame_key) {
  sample_frames_.emplace_back(event, frame_key);
}

uint32_t TraceBuilder::series_of(uint32_t counter_track, StrId series_name) {
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
    CounterUnit unit = counter_unit_of_name(store_->strings.get(series_name));
    if (!unit.bytes && counter_track < store_->tracks.size())
      unit = counter_unit_of_name(store_->tracks[counter_track].key);
    cs.in_bytes = unit.bytes;
    cs.scale = unit.scale;
    store_->series.push_back(cs);
    series_index_.emplace(key, series);
  }
  return series;
}

void TraceBuilder::add_counter(uint32_t counter_track, StrId series_name, TimeNs ts, double value) {
  const uint32_t series = series_of(counter_track, series_name);
  value *= store_->series[series].scale;
  if (sample_series_.size() == sample_series_.capacity()) {
    size_t cap = next_capacity(sample_series_.size());
    sample_series_.reserve(cap);
    store_->samples.ts.reserve(cap);
    store_->samples.value.reserve(cap);
  }
  sample_series_.push_back(series);
  store_->samples.ts.push_back(ts);
  store_->samples.value.push_back(value);
}

void TraceBuilder::set_process_name(uint32_t process, StrId name) {
  meta_ops_.push_back(MetaOp{MetaOp::kProcessName, process, static_cast<int64_t>(name)});
  store_->processes[process].name = name;
}

void TraceBuilder::set_process_sort_index(uint32_t process, int64_t index) {
  meta_ops_.push_back(MetaOp{MetaOp::kProcessSort, process, static_cast<int64_t>(index)});
  store_->processes[process].sort_index = index;
  store_->processes[process].has_sort_index = true;
}

void TraceBuilder::add_process_label(uint32_t process, StrId label) {
  meta_ops_.push_back(MetaOp{MetaOp::kProcessLabel, process, static_cast<int64_t>(label)});
  auto& labels = store_->processes[process].labels;
  if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
}

void TraceBuilder::set_thread_name(uint32_t track, StrId name) {
  meta_ops_.push_back(MetaOp{MetaOp::kThreadName, track, static_cast<int64_t>(name)});
  store_->tracks[track].name = name;
}

void TraceBuilder::set_thread_sort_index(uint32_t track, int64_t index) {
  meta_ops_.push_back(MetaOp{MetaOp::kThreadSort, track, static_cast<int64_t>(index)});
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

size_t TraceBuilder::next_capacity(size_t n) const {
  const size_t doubled = std::max<size_t>(2 * n, 1024);
  const SourceFile* f = store_->files.empty() ? nullptr : &store_->files[0];
  if (!f) return doubled;
  // How far the load is through the file as given: compressed bytes when it is compressed
  // (SourceFile::loaded, kept by the decompressing importer), else what the importer reported.
  const uint64_t read = f->compression == "none" ? bytes_read_ : f->loaded;
  if (read < f->bytes / 16 || read >= f->bytes) return doubled;
  // Past the first 1/16 of the input, the rate so far (items per byte) predicts the total well:
  // reserve that plus 5%, so a column is reallocated about once more instead of doubling to
  // the end (each reallocation leaves a hole the next, larger one cannot reuse). At least +1/8,
  // so a rate that rises late still costs few regrowths.
  double expected =
      static_cast<double>(n) * static_cast<double>(f->bytes) / static_cast<double>(read);
  return std::max(static_cast<size_t>(expected * 1.05) + 1024, n + n / 8 + 1024);
}

void TraceBuilder::grow_events(size_t cap) {
  if (cap > store_->events.start.capacity()) reserve_events(cap);
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
  // Order by (track, ts, file order): grouped by track (stable), then each track by time,
  // where a thread's marks nearly always are already.
  const auto n = static_cast<uint32_t>(marks_.size());
  std::vector<uint32_t> bounds;
  std::vector<uint32_t> idx = counting_order(
      n, store_->tracks.size(), [&](size_t i) { return marks_[i].track; }, &bounds);
  auto ts_less = [&](uint32_t a, uint32_t b) { return marks_[a].ts < marks_[b].ts; };
  size_t begins = 0;
  for (size_t t = 0, k = 0; t < bounds.size(); k = bounds[t++]) {
    auto first = idx.begin() + static_cast<std::ptrdiff_t>(k);
    auto last = idx.begin() + static_cast<std::ptrdiff_t>(bounds[t]);
    if (!std::is_sorted(first, last, ts_less)) std::stable_sort(first, last, ts_less);
  }
  for_blocks(0, n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) begins += marks_[i].begin;
  });
  grow_events(store_->events.size() + begins);  // exactly: the input is read, no estimate
  std::vector<uint32_t> stack;
  for (size_t t = 0, k = 0; t < bounds.size(); k = bounds[t++]) {
    stack.clear();
    for_blocks(k, bounds[t], [&](size_t lo, size_t hi) {
      for (size_t q = lo; q < hi; ++q) {
        const Mark& m = marks_[idx[q]];
        if (m.begin) {
          stack.push_back(idx[q]);
        } else if (stack.empty()) {
          ++dropped_ends_;
        } else {
          const Mark& b = marks_[stack.back()];
          stack.pop_back();
          add_complete(b.track, b.ts, m.ts - b.ts, b.name, b.cat, b.src_offset, b.src_len);
          store_->events.phase.back() = 'B';
        }
      }
    });
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
  for_blocks(0, ev.size(), [&](size_t a, size_t b) {
    TimeNs l = lo, h = hi;
    for (size_t i = a; i < b; ++i) {
      l = std::min(l, ev.start[i]);
      h = std::max(h, end_of(ev.start[i], ev.dur[i]));
    }
    lo = l, hi = h;
  });
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
  grow_events(store_->events.size() + open_begins_.size());
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
