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

void TraceBuilder::add_begin(uint32_t track, TimeNs ts, StrId name, StrId cat,
                             uint64_t src_offset, uint32_t src_len) {
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

void TraceBuilder::add_counter(uint32_t counter_track, StrId series_name, TimeNs ts,
                               double value) {
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

void TraceBuilder::set_thread_name(uint32_t track, StrId name) { store_->tracks[track].name = name; }

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
  return store_->events.size() + marks_.size() + store_->samples.size();
}

void TraceBuilder::finish() {
  if (finished_) return;
  finished_ = true;
  match_begin_end();
  compute_time_range();
  close_open_begins();
  assign_default_names();
  std::vector<uint32_t> new_track = order_tracks();
  layout_events(new_track);
  layout_counters(new_track);
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
      p.name = s.strings.intern(p.key.empty() ? std::string("Process (no pid)") : "Process " + p.key);
  }
  for (Track& t : s.tracks) {
    if (t.name == 0 && t.kind == TrackKind::kThread)
      t.name = s.strings.intern(t.key.empty() ? std::string("Thread (no tid)") : "Thread " + t.key);
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
    // Counter tracks first (by name), then threads by (sort index, tid, key).
    std::sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
      const Track& x = s.tracks[a];
      const Track& y = s.tracks[b];
      if (x.kind != y.kind) return x.kind == TrackKind::kCounter;
      if (x.kind == TrackKind::kCounter) return x.key < y.key;
      if (x.sort_index != y.sort_index) return x.sort_index < y.sort_index;
      if (x.tid != y.tid) return x.tid < y.tid;
      return x.key < y.key;
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
    // Stack rule: pop slices that ended by this start; depth = what is still open.
    stack.clear();
    tdepth.resize(b - a);
    uint32_t max_depth = 0;
    for (uint32_t k = a; k < b; ++k) {
      uint32_t i = idx[k];
      TimeNs start = ev.start[i];
      while (!stack.empty() && stack.back() <= start) stack.pop_back();
      uint32_t d = static_cast<uint32_t>(stack.size());
      tdepth[k - a] = d;
      max_depth = std::max(max_depth, d);
      if (ev.phase[i] != 'i') stack.push_back(end_of(start, ev.dur[i]));
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
}

}  // namespace strata
