// TraceBuilder::encode_part / decode_part: a slice's partial result as bytes (slice_codec.h).
// What is written is what absorb() (builder_merge.cc) reads of a part, in the same order here
// and there: the part's strings in id order, its processes' and tracks' keys, its staged
// columns and tables, its repair counts and the store's side tables and messages. Nothing of
// finish()'s layout is written: a part is never finished.
#include <string>

#include "core/store/slice_codec.h"
#include "core/store/trace_builder.h"

namespace strata {

namespace {

constexpr uint32_t kMagic = 0x53504254;  // "TBPS": a TraceBuilder part's staging

void put(SliceWriter* w, const CollectiveArgs& c) {
  w->pod(c.src_offset);
  w->str(c.collective), w->str(c.process_group), w->str(c.dtype);
  w->pod(c.in_nelems), w->pod(c.out_nelems), w->pod(c.group_size), w->pod(c.seq);
}
void get(SliceReader* r, CollectiveArgs* c) {
  r->pod(&c->src_offset);
  r->str(&c->collective), r->str(&c->process_group), r->str(&c->dtype);
  r->pod(&c->in_nelems), r->pod(&c->out_nelems), r->pod(&c->group_size), r->pod(&c->seq);
}
void put(SliceWriter* w, const AscendTaskArgs& a) {
  w->pod(a.src_offset);
  w->str(a.task_type), w->str(a.transport), w->str(a.link);
  w->pod(a.size_bytes), w->pod(a.bandwidth_gbps);
}
void get(SliceReader* r, AscendTaskArgs* a) {
  r->pod(&a->src_offset);
  r->str(&a->task_type), r->str(&a->transport), r->str(&a->link);
  r->pod(&a->size_bytes), r->pod(&a->bandwidth_gbps);
}

template <class Row>
void put_rows(SliceWriter* w, const std::vector<Row>& rows) {
  w->pod(static_cast<uint64_t>(rows.size()));
  for (const Row& row : rows) put(w, row);
}
template <class Row>
void get_rows(SliceReader* r, std::vector<Row>* rows) {
  const size_t n = r->count(sizeof(uint64_t) * 4);  // an offset and three lengths at least
  rows->resize(n);
  for (Row& row : *rows) get(r, &row);
}

void put_texts(SliceWriter* w, const std::vector<std::string>& texts) {
  w->pod(static_cast<uint64_t>(texts.size()));
  for (const std::string& t : texts) w->str(t);
}
void get_texts(SliceReader* r, std::vector<std::string>* texts) {
  texts->resize(r->count(sizeof(uint64_t)));
  for (std::string& t : *texts) r->str(&t);
}

}  // namespace

void TraceBuilder::encode_part(SliceWriter* w) const {
  const TraceStore& s = *store_;
  const EventColumns& ev = s.events;
  // The columns are most of it: one allocation for them.
  w->reserve(ev.size() * 40 + marks_.size() * sizeof(Mark) + flow_marks_.size() * sizeof(FlowMark) +
             async_marks_.size() * sizeof(AsyncMark) + s.samples.size() * 20 + (1u << 16));
  w->pod(kMagic);

  w->pod(static_cast<uint64_t>(s.strings.size()));
  for (size_t i = 0; i < s.strings.size(); ++i) w->str(s.strings.get(static_cast<StrId>(i)));
  w->pod(static_cast<uint64_t>(s.processes.size()));
  for (const Process& p : s.processes) w->str(p.key), w->pod(p.pid), w->pod(p.global);
  w->pod(static_cast<uint64_t>(s.tracks.size()));
  for (const Track& t : s.tracks) w->pod(t.process), w->pod(t.kind), w->str(t.key), w->pod(t.tid);

  w->vec(ev.start), w->vec(ev.dur), w->vec(ev.name), w->vec(ev.cat), w->vec(ev.track);
  w->vec(ev.phase), w->vec(ev.src_offset), w->vec(ev.src_len);
  w->pod(static_cast<uint64_t>(sample_frames_.size()));  // pairs: not trivially copyable
  for (const auto& [event, frame] : sample_frames_) w->pod(event), w->pod(frame);
  w->vec(marks_);

  std::vector<const std::string*> group_key(async_group_object_.size(), nullptr);
  for (const auto& [key, id] : async_group_index_)
    if (id < group_key.size()) group_key[id] = &key;
  w->vec(async_group_object_);
  for (const std::string* k : group_key) w->str(k ? std::string_view(*k) : std::string_view());
  w->vec(async_marks_);

  w->vec(s.flows.kinds);
  w->vec(flow_marks_);
  w->vec(frames_);
  w->pod(static_cast<uint64_t>(s.series.size()));
  for (const CounterSeries& c : s.series) w->pod(c.track), w->pod(c.name);
  w->vec(sample_series_);
  w->vec(s.samples.ts), w->vec(s.samples.value);
  w->vec(meta_ops_);

  w->pod(dropped_ends_), w->pod(negative_durs_), w->pod(async_dropped_ends_);
  w->pod(async_misnested_), w->pod(async_unclosed_), w->pod(objects_recreated_);
  w->pod(flow_unbound_), w->pod(flow_orphans_), w->pod(frame_cycles_);
  w->pod(noted_lo_), w->pod(noted_hi_);

  w->vec(s.clock_syncs), w->vec(s.memory_dumps), w->pod(s.device_count);
  w->vec(s.kernel_launches.rows);
  put_rows(w, s.collectives.rows);
  put_rows(w, s.ascend_tasks.rows);
  w->pod(s.phase_counts);
  w->str(s.display_time_unit);
  put_texts(w, s.errors);
  put_texts(w, s.warnings);
  w->pod(kMagic);
}

bool TraceBuilder::decode_part(SliceReader* r) {
  TraceStore& s = *store_;
  if (r->get<uint32_t>() != kMagic) return false;

  const size_t strings = r->count(sizeof(uint64_t));
  std::string text;
  for (size_t i = 0; i < strings && r->ok(); ++i) {
    r->str(&text);
    // Ids must come out as the part's: its table holds each text once, in id order (id 0 is
    // the empty string every table starts with).
    if (s.strings.intern(text) != i) return false;
  }
  s.processes.resize(r->count(sizeof(uint64_t)));
  for (Process& p : s.processes) r->str(&p.key), r->pod(&p.pid), r->pod(&p.global);
  s.tracks.resize(r->count(sizeof(uint64_t)));
  for (Track& t : s.tracks) r->pod(&t.process), r->pod(&t.kind), r->str(&t.key), r->pod(&t.tid);

  EventColumns& ev = s.events;
  r->vec(&ev.start), r->vec(&ev.dur), r->vec(&ev.name), r->vec(&ev.cat), r->vec(&ev.track);
  r->vec(&ev.phase), r->vec(&ev.src_offset), r->vec(&ev.src_len);
  sample_frames_.resize(r->count(sizeof(uint32_t) * 2));
  for (auto& [event, frame] : sample_frames_) r->pod(&event), r->pod(&frame);
  r->vec(&marks_);

  r->vec(&async_group_object_);
  std::string key;
  for (size_t g = 0; g < async_group_object_.size() && r->ok(); ++g) {
    r->str(&key);
    async_group_index_.emplace(key, static_cast<uint32_t>(g));
  }
  r->vec(&async_marks_);

  r->vec(&s.flows.kinds);
  r->vec(&flow_marks_);
  r->vec(&frames_);
  s.series.resize(r->count(sizeof(uint32_t) * 2));
  for (CounterSeries& c : s.series) r->pod(&c.track), r->pod(&c.name);
  r->vec(&sample_series_);
  r->vec(&s.samples.ts), r->vec(&s.samples.value);
  r->vec(&meta_ops_);

  r->pod(&dropped_ends_), r->pod(&negative_durs_), r->pod(&async_dropped_ends_);
  r->pod(&async_misnested_), r->pod(&async_unclosed_), r->pod(&objects_recreated_);
  r->pod(&flow_unbound_), r->pod(&flow_orphans_), r->pod(&frame_cycles_);
  r->pod(&noted_lo_), r->pod(&noted_hi_);

  r->vec(&s.clock_syncs), r->vec(&s.memory_dumps), r->pod(&s.device_count);
  r->vec(&s.kernel_launches.rows);
  get_rows(r, &s.collectives.rows);
  get_rows(r, &s.ascend_tasks.rows);
  r->pod(&s.phase_counts);
  r->str(&s.display_time_unit);
  get_texts(r, &s.errors);
  get_texts(r, &s.warnings);
  if (r->get<uint32_t>() != kMagic || !r->ok()) return false;

  // Ids the staging refers to must be in range: absorb() indexes its remap tables with them.
  const size_t n_str = s.strings.size(), n_track = s.tracks.size();
  const size_t n_proc = s.processes.size(), n_group = async_group_object_.size();
  const size_t n = ev.start.size();
  if (ev.dur.size() != n || ev.name.size() != n || ev.cat.size() != n || ev.track.size() != n ||
      ev.phase.size() != n || ev.src_offset.size() != n || ev.src_len.size() != n ||
      s.samples.value.size() != s.samples.ts.size() || sample_series_.size() != s.samples.ts.size())
    return false;
  for (size_t i = 0; i < n; ++i)
    if (ev.name[i] >= n_str || ev.cat[i] >= n_str || ev.track[i] >= n_track) return false;
  for (const Track& t : s.tracks)
    if (t.process >= n_proc) return false;
  for (const Mark& m : marks_)
    if (m.track >= n_track || m.name >= n_str || m.cat >= n_str) return false;
  for (const AsyncMark& m : async_marks_)
    if (m.group >= n_group || m.process >= n_proc || m.name >= n_str || m.cat >= n_str)
      return false;
  for (const FlowMark& f : flow_marks_)
    if (f.track >= n_track || f.kind() >= s.flows.kinds.size()) return false;
  for (const auto& k : s.flows.kinds)
    if (k.name >= n_str || k.cat >= n_str) return false;
  for (const FrameEntry& f : frames_)
    if (f.key >= n_str || f.name >= n_str || f.parent_key >= n_str) return false;
  for (const auto& [event, frame] : sample_frames_)
    if (event >= n || frame >= n_str) return false;
  for (const CounterSeries& c : s.series)
    if (c.track >= n_track || c.name >= n_str) return false;
  for (uint32_t series : sample_series_)
    if (series >= s.series.size()) return false;
  for (const MetaOp& m : meta_ops_) {
    const bool on_process = m.kind == MetaOp::kProcessName || m.kind == MetaOp::kProcessSort ||
                            m.kind == MetaOp::kProcessLabel;
    const bool names = m.kind == MetaOp::kProcessName || m.kind == MetaOp::kProcessLabel ||
                       m.kind == MetaOp::kThreadName;
    if (m.index >= (on_process ? n_proc : n_track)) return false;
    if (names && (m.value < 0 || static_cast<uint64_t>(m.value) >= n_str)) return false;
  }
  for (const ClockSync& c : s.clock_syncs)
    if (c.sync_id >= n_str) return false;
  return true;
}

}  // namespace strata
