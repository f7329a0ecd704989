// TraceBuilder::absorb: a later slice's staging appended to this builder's, for a trace parsed
// in slices (formats/chrome_json/sliced_import.h).
//
// A one-pass load creates every string, process, track, async group, flow kind and counter
// series when it first meets it, so ids are in order of first appearance. A part saw its slice
// in file order, so its own tables are in that order too: walking them in id order and looking
// each up (or creating it) here reproduces the one-pass ids exactly. Staged items (events, B/E
// marks, async marks, flow steps, frames, samples) are kept in file order by finish()'s stable
// passes, so appending them with remapped ids leaves finish() the same input as one pass.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/store/trace_builder.h"

namespace strata {

namespace {

template <class T>
void append(std::vector<T>* dst, const std::vector<T>& src) {
  dst->insert(dst->end(), src.begin(), src.end());
}

// Rows keyed by src_offset, kept sorted (a later slice's offsets are larger; the sort only
// runs for an input that breaks that).
template <class Rows>
void append_by_offset(Rows* dst, Rows* src) {
  const size_t n = dst->size();
  for (auto& r : *src) dst->push_back(std::move(r));
  auto less = [](const auto& a, const auto& b) { return a.src_offset < b.src_offset; };
  if (!std::is_sorted(dst->begin(), dst->end(), less))
    std::inplace_merge(dst->begin(), dst->begin() + static_cast<std::ptrdiff_t>(n), dst->end(),
                       less);
}

}  // namespace

void TraceBuilder::absorb(TraceBuilder& part) {
  TraceStore& src = *part.store_;
  TraceStore& dst = *store_;

  std::vector<StrId> str(src.strings.size());
  for (size_t i = 0; i < str.size(); ++i)
    str[i] = dst.strings.intern(src.strings.get(static_cast<StrId>(i)));

  std::vector<uint32_t> proc(src.processes.size());
  for (size_t i = 0; i < proc.size(); ++i) {
    const Process& p = src.processes[i];
    proc[i] = p.global ? global_process() : process(p.key, p.pid);
  }

  std::vector<uint32_t> track(src.tracks.size());
  for (size_t i = 0; i < track.size(); ++i) {
    const Track& t = src.tracks[i];
    const uint32_t p = proc[t.process];
    switch (t.kind) {
      case TrackKind::kThread:
        track[i] = thread_track(p, t.key, t.tid);
        break;
      case TrackKind::kCounter:
        track[i] = counter_track(p, t.key);
        break;
      case TrackKind::kSample:
        track[i] = sample_track(p, t.key, t.tid);
        break;
      case TrackKind::kInstant:
        track[i] = make_track(p, TrackKind::kInstant, 'g', "");
        break;
      case TrackKind::kAsync:  // made by finish() only; kept for completeness
        track[i] = make_track(p, TrackKind::kAsync, 'a', t.key);
        break;
      case TrackKind::kObject:
        track[i] = make_track(p, TrackKind::kObject, 'o', "");
        break;
    }
  }

  // Events: slices and markers, in file order after this builder's.
  const auto first_event = static_cast<uint32_t>(dst.events.size());
  EventColumns& de = dst.events;
  const EventColumns& se = src.events;
  grow_events(de.size() + se.size());
  for (size_t i = 0; i < se.size(); ++i) {
    de.start.push_back(se.start[i]);
    de.dur.push_back(se.dur[i]);
    de.name.push_back(str[se.name[i]]);
    de.cat.push_back(str[se.cat[i]]);
    de.track.push_back(track[se.track[i]]);
    de.phase.push_back(se.phase[i]);
    de.src_offset.push_back(se.src_offset[i]);
    de.src_len.push_back(se.src_len[i]);
  }
  for (const auto& [event, frame] : part.sample_frames_)
    sample_frames_.emplace_back(first_event + event, str[frame]);

  marks_.reserve(marks_.size() + part.marks_.size());
  for (Mark m : part.marks_) {
    m.track = track[m.track];
    m.name = str[m.name];
    m.cat = str[m.cat];
    marks_.push_back(m);
  }

  std::vector<uint32_t> group(part.async_group_object_.size());
  std::vector<const std::string*> group_key(group.size());
  for (const auto& [key, id] : part.async_group_index_) group_key[id] = &key;
  std::string key;
  for (size_t g = 0; g < group.size(); ++g) {
    // The key's first 4 bytes are the process index it is scoped to (or kNone): part's index.
    key = *group_key[g];
    uint32_t p = kNone;
    if (key.size() >= sizeof(p)) std::memcpy(&p, key.data(), sizeof(p));
    if (p != kNone && p < proc.size()) {
      p = proc[p];
      std::memcpy(key.data(), &p, sizeof(p));
    }
    group[g] = async_group(key, part.async_group_object_[g] != 0);
  }
  async_marks_.reserve(async_marks_.size() + part.async_marks_.size());
  for (AsyncMark m : part.async_marks_) {
    m.group = group[m.group];
    m.process = proc[m.process];
    m.name = str[m.name];
    m.cat = str[m.cat];
    async_marks_.push_back(m);
  }

  std::vector<uint32_t> kind(src.flows.kinds.size());
  for (size_t k = 0; k < kind.size(); ++k) {
    const StrId name = str[src.flows.kinds[k].name], cat = str[src.flows.kinds[k].cat];
    const uint64_t nc = (uint64_t{name} << 32) | cat;
    auto it = flow_kind_index_.find(nc);
    if (it != flow_kind_index_.end()) {
      kind[k] = it->second;
    } else {
      kind[k] = static_cast<uint32_t>(dst.flows.kinds.size());
      dst.flows.kinds.push_back(FlowColumns::Kind{name, cat});
      flow_kind_index_.emplace(nc, kind[k]);
    }
  }
  flow_marks_.reserve(flow_marks_.size() + part.flow_marks_.size());
  for (FlowMark f : part.flow_marks_) {
    f.track = track[f.track];
    f.bits = kind[f.kind()] << 3 | (f.bits & 7);
    flow_marks_.push_back(f);
  }

  for (const FrameEntry& f : part.frames_)
    frames_.push_back(FrameEntry{str[f.key], str[f.name], str[f.parent_key]});

  std::vector<uint32_t> series(src.series.size());
  for (size_t s = 0; s < series.size(); ++s)
    series[s] = series_of(track[src.series[s].track], str[src.series[s].name]);
  for (uint32_t s : part.sample_series_) sample_series_.push_back(series[s]);
  append(&dst.samples.ts, src.samples.ts);  // already scaled: the unit is the series name's
  append(&dst.samples.value, src.samples.value);

  for (const MetaOp& m : part.meta_ops_) {
    const auto id = static_cast<StrId>(m.value);
    switch (m.kind) {
      case MetaOp::kProcessName:
        set_process_name(proc[m.index], str[id]);
        break;
      case MetaOp::kProcessSort:
        set_process_sort_index(proc[m.index], m.value);
        break;
      case MetaOp::kProcessLabel:
        add_process_label(proc[m.index], str[id]);
        break;
      case MetaOp::kThreadName:
        set_thread_name(track[m.index], str[id]);
        break;
      case MetaOp::kThreadSort:
        set_thread_sort_index(track[m.index], m.value);
        break;
    }
  }

  dropped_ends_ += part.dropped_ends_;
  negative_durs_ += part.negative_durs_;
  async_dropped_ends_ += part.async_dropped_ends_;
  async_misnested_ += part.async_misnested_;
  async_unclosed_ += part.async_unclosed_;
  objects_recreated_ += part.objects_recreated_;
  flow_unbound_ += part.flow_unbound_;
  flow_orphans_ += part.flow_orphans_;
  frame_cycles_ += part.frame_cycles_;
  noted_lo_ = std::min(noted_lo_, part.noted_lo_);
  noted_hi_ = std::max(noted_hi_, part.noted_hi_);

  // The store's own tables.
  for (ClockSync c : src.clock_syncs) {
    c.sync_id = str[c.sync_id];
    dst.clock_syncs.push_back(c);
  }
  append(&dst.memory_dumps, src.memory_dumps);
  dst.device_count += src.device_count;
  append_by_offset(&dst.kernel_launches.rows, &src.kernel_launches.rows);
  append_by_offset(&dst.collectives.rows, &src.collectives.rows);
  append_by_offset(&dst.ascend_tasks.rows, &src.ascend_tasks.rows);
  for (size_t i = 0; i < dst.phase_counts.size(); ++i) dst.phase_counts[i] += src.phase_counts[i];
  if (!src.display_time_unit.empty()) dst.display_time_unit = src.display_time_unit;
  append(&dst.errors, src.errors);
  append(&dst.warnings, src.warnings);

  // What is left in part is read by nobody: free it now (a slice's staging is large).
  std::vector<Mark>().swap(part.marks_);
  std::vector<AsyncMark>().swap(part.async_marks_);
  std::vector<FlowMark>().swap(part.flow_marks_);
  std::vector<FrameEntry>().swap(part.frames_);
  std::vector<uint32_t>().swap(part.sample_series_);
  src.events = EventColumns{};
  src.samples = CounterSamples{};
}

}  // namespace strata
