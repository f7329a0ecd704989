// TraceBuilder: what importers call to fill a TraceStore. Importers report events in file
// order, as they read them; finish() then produces the indexed layout trace_store.h describes
// (B/E matched, tracks ordered for display, events grouped by track and depth, counter samples
// grouped by series and time-sorted, default names, time range, aggregated warnings).
//
// Everything an importer adds goes straight into the store's columns (file order) or into small
// staging vectors, so memory while loading is close to the final store's; finish() reorders
// one column at a time to keep the peak low. When the input's size is known (store.files[0])
// and its progress is (set_input_progress; for a compressed file, the compressed bytes read:
// SourceFile::loaded), those vectors grow to what the rest of the input will need at the rate
// seen so far, instead of doubling: a doubled column is up to half empty, and the heap of a
// wasm worker never shrinks.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

class SliceWriter;
class SliceReader;

class TraceBuilder {
 public:
  // `store` should be freshly constructed (store.files may be pre-filled); it must outlive the
  // builder.
  explicit TraceBuilder(TraceStore* store);

  TraceStore& store() { return *store_; }
  StringTable& strings() { return store_->strings; }

  // ---- processes and tracks: get-or-create by key (the pid / tid text of the file) ----------
  // `pid` / `tid` are the numeric values (0 when the key is not a number).
  uint32_t process(std::string_view key, int64_t pid);
  uint32_t thread_track(uint32_t process, std::string_view tid_key, int64_t tid);
  // A counter track of `process`; `key` is the C event's name, plus " " + id when it has one.
  uint32_t counter_track(uint32_t process, std::string_view key);
  // The instant track of the synthetic "Global" process (shown first): s="g" instants, R marks.
  uint32_t global_track();
  // The instant track of `process` (s="p" instants).
  uint32_t process_instant_track(uint32_t process);
  // The sample track (P events) of thread `tid_key` of `process`; shown right after the thread.
  uint32_t sample_track(uint32_t process, std::string_view tid_key, int64_t tid);

  // ---- events (any order; timestamps in ns) --------------------------------------------------
  // src_offset/src_len: where the event's JSON object is in the file (len 0 = unknown).
  // A negative dur is stored as 0 and counted for a warning.
  void add_complete(uint32_t track, TimeNs ts, TimeNs dur, StrId name, StrId cat,
                    uint64_t src_offset, uint32_t src_len);
  // B/E are matched per track at finish(), in timestamp order (file order breaks ties): an E
  // closes the most recent open B. The slice keeps the B's name, category and source span.
  void add_begin(uint32_t track, TimeNs ts, StrId name, StrId cat, uint64_t src_offset,
                 uint32_t src_len);
  void add_end(uint32_t track, TimeNs ts);
  void add_instant(uint32_t track, TimeNs ts, StrId name, StrId cat, uint64_t src_offset,
                   uint32_t src_len);
  // A zero-length marker of any instant phase (see is_instant_phase): R marks, P samples, ...
  // Returns its event index (stable until finish()).
  uint32_t add_marker(uint32_t track, char phase, TimeNs ts, StrId name, StrId cat,
                      uint64_t src_offset, uint32_t src_len);
  // One sample of series `series_name` (an arg key) of a counter track.
  void add_counter(uint32_t counter_track, StrId series_name, TimeNs ts, double value);
  // A timed record that is not stored as an event (a flow step, an unpaired E, a phase not
  // imported yet): it still belongs to the trace's time range.
  void note_time(TimeNs ts) {
    noted_lo_ = std::min(noted_lo_, ts);
    noted_hi_ = std::max(noted_hi_, ts);
  }

  // ---- async slices and objects (paired and laid out at finish(), see async_layout.cc) ------
  // A group is what pairs begins with ends: (cat, id[, scope]) for async, (pid, id, name) for
  // objects. `key` is the importer's composite key; `object` groups draw on the Objects track.
  // A key that absorb() may see starts with the 4-byte index of the process it is scoped to (or
  // kNone for a global scope), which absorb() remaps.
  uint32_t async_group(std::string_view key, bool object);
  // ph: begin 'b' / 'S' / 'N', end 'e' / 'F' / 'D', instant 'n' / 'T' / 'p' / 'O'. `process`
  // is the record's; a slice tree is drawn in its root's process.
  void add_async(uint32_t group, uint32_t process, char ph, TimeNs ts, StrId name, StrId cat,
                 uint64_t src_offset, uint32_t src_len);

  // ---- flows (bound to slices at finish(), see flow_binding.cc) --------------------------------
  // A flow's identity is a 64-bit hash of the importer's key (cat + name + id): flows are
  // numerous (Kineto writes one per kernel launch) and almost all ids are distinct, so a map
  // of keys would cost more than the rest of the flow; a collision merely merges two chains.
  static uint64_t flow_key(std::string_view key);
  // ph 's' / 't' / 'f' on a thread track. `next_slice`: an f without bp="e" binds to the next
  // slice that starts at or after ts; every other step binds to the slice enclosing ts.
  void add_flow(uint64_t key, uint32_t thread_track, char ph, bool next_slice, TimeNs ts,
                StrId name, StrId cat);

  // ---- stack frames and samples --------------------------------------------------------------
  // One stackFrames entry; parent_key 0 = a root frame. Keys are the id texts, interned.
  void add_frame(StrId key, StrId name, StrId parent_key);
  // Sample `event` (from add_marker) refers to frame `frame_key` (its sf): finish() names the
  // sample after that frame.
  void set_sample_frame(uint32_t event, StrId frame_key);

  // ---- other tables --------------------------------------------------------------------------
  void add_clock_sync(const ClockSync& c) { store_->clock_syncs.push_back(c); }
  void add_memory_dump(TimeNs ts) { store_->memory_dumps.push_back(ts); }
  void add_device() { ++store_->device_count; }

  // ---- metadata -----------------------------------------------------------------------------
  void set_process_name(uint32_t process, StrId name);
  void set_process_sort_index(uint32_t process, int64_t index);
  void add_process_label(uint32_t process, StrId label);
  void set_thread_name(uint32_t track, StrId name);
  void set_thread_sort_index(uint32_t track, int64_t index);

  // ---- bookkeeping --------------------------------------------------------------------------
  void count_phase(uint8_t ph) { ++store_->phase_counts[ph]; }
  void error(std::string message) { store_->errors.push_back(std::move(message)); }
  void warning(std::string message) { store_->warnings.push_back(std::move(message)); }
  // Capacity hint for slices + instants (e.g. from the file size), to avoid regrowth copies.
  void reserve_events(size_t n);
  // Bytes of the input read so far (the size of the whole input is store.files[0].bytes).
  void set_input_progress(uint64_t bytes_read) { bytes_read_ = bytes_read; }
  // Slices + instants + B/E marks + counter samples added so far.
  uint64_t items() const;

  // Appends what `part` staged (it read the next bytes of the same file: a slice of a big trace
  // parsed on its own, see formats/chrome_json/sliced_import.h) as if this builder had been
  // given those adds itself: part's strings, processes, tracks, async groups, flow kinds and
  // counter series are looked up or created here in part's order, so every id comes out as a
  // one-pass load would have made it, and its staged events, marks, flows, frames, samples and
  // metadata are appended in file order with the ids remapped. Call before finish(), with `part`
  // not finished; part is left empty of staged items.
  void absorb(TraceBuilder& part);
  // A part's staging as bytes and back (builder_codec.cc, store/slice_codec.h): exactly what
  // absorb() reads of a part and of its store, so a part parsed in another worker is absorbed
  // as if it had been parsed here. decode_part() fills a builder made on a fresh store; false
  // when the bytes are not a whole encoded part.
  void encode_part(SliceWriter* out) const;
  bool decode_part(SliceReader* in);

  // Builds the final layout. Call once, after the last add.
  void finish();

 private:
  // A B or E waiting to be paired.
  struct Mark {
    TimeNs ts;
    uint64_t src_offset;
    StrId name, cat;
    uint32_t track;
    uint32_t src_len;
    bool begin;
  };
  // Heterogeneous lookup so the hot path can probe with a string_view key without allocating.
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  struct KeyEq {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a == b; }
  };
  using KeyMap = std::unordered_map<std::string, uint32_t, KeyHash, KeyEq>;

  // A b/e/n, S/F/T/p or N/D/O record waiting to be paired.
  struct AsyncMark {
    TimeNs ts;
    uint64_t src_offset;
    StrId name, cat;
    uint32_t group, process, src_len;
    char ph;
  };
  // 24 bytes (flows are as numerous as kernel launches): kind, step and next_slice share a word.
  struct FlowMark {
    TimeNs ts;
    uint64_t key;  // flow_key(); once bind_flows has ordered the chains, see there
    uint32_t track;
    uint32_t bits;  // kind << 3 | step << 1 | next_slice; step 0, 1, 2 = 's', 't', 'f'
    uint32_t kind() const { return bits >> 3; }  // index into store.flows.kinds
    char ph() const { return "stff"[(bits >> 1) & 3]; }
    bool next_slice() const { return bits & 1; }
  };
  struct FrameEntry {
    StrId key, name, parent_key;
  };
  // One metadata setter call, replayed by absorb(): last-wins names and sort indices, and
  // labels in order, must apply in file order across parts.
  struct MetaOp {
    enum Kind : uint8_t { kProcessName, kProcessSort, kProcessLabel, kThreadName, kThreadSort };
    Kind kind;
    uint32_t index;  // process or track
    int64_t value;   // StrId or sort index
  };

  // Capacity for a full staging vector of n items (see the file comment).
  size_t next_capacity(size_t n) const;
  template <class T>
  void make_room(std::vector<T>* v) {
    if (v->size() == v->capacity()) v->reserve(next_capacity(v->size()));
  }
  // Makes room for `cap` events in every column (no-op when there is).
  void grow_events(size_t cap);
  void match_begin_end();
  void build_async();                                       // async_layout.cc
  void bind_flows(const std::vector<uint32_t>& new_track);  // flow_binding.cc
  void resolve_frames();
  uint32_t async_track(uint32_t process, StrId name, bool object);
  void compute_time_range();
  void close_open_begins();
  void assign_default_names();
  std::vector<uint32_t> order_tracks();
  void layout_events(const std::vector<uint32_t>& new_track);
  void layout_counters(const std::vector<uint32_t>& new_track);
  void report_repairs();
  uint32_t make_track(uint32_t process, TrackKind kind, char tag, std::string_view key);
  uint32_t global_process();
  uint32_t series_of(uint32_t counter_track, StrId series_name);

  TraceStore* store_;
  KeyMap process_index_;
  KeyMap track_index_;   // process index (4 bytes) + kind byte + key
  std::string key_tmp_;  // reused composite-key buffer
  std::unordered_map<uint64_t, uint32_t> series_index_;  // (track << 32 | name) → series
  std::vector<uint32_t> sample_series_;                  // series of each staged sample
  std::vector<Mark> marks_;
  std::vector<Mark> open_begins_;  // left open after matching; closed at the trace's end
  uint64_t dropped_ends_ = 0, negative_durs_ = 0;

  KeyMap async_group_index_;
  std::vector<uint8_t> async_group_object_;  // per async group: 1 = object group
  std::vector<AsyncMark> async_marks_;
  std::vector<FlowMark> flow_marks_;
  std::vector<FrameEntry> frames_;
  std::vector<std::pair<uint32_t, StrId>> sample_frames_;  // (event, frame key)
  std::vector<MetaOp> meta_ops_;                           // for absorb(); metadata is rare
  // Depths chosen by build_async for async/object events: (event index, depth), by event.
  std::vector<std::pair<uint32_t, uint32_t>> given_depth_;
  uint32_t global_process_ = kNone;
  uint32_t last_flow_kind_ = 0;
  std::unordered_map<uint64_t, uint32_t> flow_kind_index_;  // (name << 32 | cat) → kind
  uint64_t async_dropped_ends_ = 0, async_misnested_ = 0, async_unclosed_ = 0;
  uint64_t objects_recreated_ = 0, flow_unbound_ = 0, flow_orphans_ = 0;
  uint64_t frame_cycles_ = 0;
  TimeNs noted_lo_ = INT64_MAX, noted_hi_ = INT64_MIN;
  uint64_t bytes_read_ = 0;
  bool finished_ = false;
};

}  // namespace strata
