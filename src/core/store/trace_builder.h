// TraceBuilder: what importers call to fill a TraceStore. Importers report events in file
// order, as they read them; finish() then produces the indexed layout trace_store.h describes
// (B/E matched, tracks ordered for display, events grouped by track and depth, counter samples
// grouped by series and time-sorted, default names, time range, aggregated warnings).
//
// Everything an importer adds goes straight into the store's columns (file order) or into small
// staging vectors, so memory while loading is close to the final store's; finish() reorders
// one column at a time to keep the peak low.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

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
  // One sample of series `series_name` (an arg key) of a counter track.
  void add_counter(uint32_t counter_track, StrId series_name, TimeNs ts, double value);

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
  // Slices + instants + B/E marks + counter samples added so far.
  uint64_t items() const;

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

  void match_begin_end();
  void compute_time_range();
  void close_open_begins();
  void assign_default_names();
  std::vector<uint32_t> order_tracks();
  void layout_events(const std::vector<uint32_t>& new_track);
  void layout_counters(const std::vector<uint32_t>& new_track);
  void report_repairs();

  TraceStore* store_;
  KeyMap process_index_;
  KeyMap track_index_;    // process index (4 bytes) + kind byte + key
  std::string key_tmp_;   // reused composite-key buffer
  std::unordered_map<uint64_t, uint32_t> series_index_;  // (track << 32 | name) → series
  std::vector<uint32_t> sample_series_;                  // series of each staged sample
  std::vector<Mark> marks_;
  std::vector<Mark> open_begins_;  // left open after matching; closed at the trace's end
  uint64_t dropped_ends_ = 0, negative_durs_ = 0;
  bool finished_ = false;
};

}  // namespace strata
