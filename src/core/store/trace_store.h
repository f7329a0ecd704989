// The event store: what every importer produces and every query reads.
//
// Layout is columnar (one vector per field) so the hot loops of queries and, later, pyramid
// building touch only the bytes they need. After TraceBuilder::finish():
//   * events are grouped by track, then by depth, then sorted by start time;
//   * within one (track, depth) row slices never overlap, so both start and end are sorted and
//     a visible range is found by binary search (see core/query/viewport.h);
//   * Track::rows[d] is the index of the first event of depth d; the row ends where row d+1
//     begins (rows has max_depth + 2 entries: the last is the track's end).
// Args are not parsed at load: each event keeps the byte span of its record in the source file
// and the details pane re-reads and parses that span on selection (also for `sf`/`stack`, which
// it resolves with TraceStore::frames).
// Async slices and object lifetimes are laid out by TraceBuilder (async_layout.cc) into the same
// rows; flows, stack frames, clock syncs and memory dumps live in their own small tables.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/string_table.h"
#include "core/base/types.h"
#include "core/store/ascend_task_args.h"
#include "core/store/collective_args.h"
#include "core/store/kernel_launches.h"

namespace strata {

enum class TrackKind : uint8_t {
  kThread = 0,   // slices and instants of one (pid, tid)
  kCounter = 1,  // one C-event name (+ id) in one process; values in CounterColumns
  kAsync = 2,    // async slices (b/n/e, S/T/p/F) of one process, one track per root name
  kInstant = 3,  // instants of a whole process (i with s="p") or of the trace (s="g", R marks)
  kObject = 4,   // object lifetimes (N..D) and snapshots (O) of one process: the "Objects" track
  kSample = 5,   // CPU samples (P events, the `samples` container) of one thread
};

// Phases stored as zero-length markers (dur 0) rather than slices: instants (i, I stored as i),
// async instants and steps (n, T, p), object snapshots (O), samples (P) and marks (R).
inline bool is_instant_phase(char ph) {
  return ph == 'i' || ph == 'n' || ph == 'T' || ph == 'p' || ph == 'O' || ph == 'P' || ph == 'R';
}

struct Process {
  std::string key;         // pid as written in the file: `123` or the string's text
  int64_t pid = 0;         // numeric pid (0 when the pid was a non-numeric string)
  StrId name = 0;          // from M process_name; 0 = unnamed
  int64_t sort_index = 0;  // from M process_sort_index; 0 when absent
  bool has_sort_index = false;
  std::vector<StrId> labels;     // from M process_labels
  bool global = false;           // the synthetic "Global" process of s="g" instants and R marks
  std::vector<uint32_t> tracks;  // indices into TraceStore::tracks, in display order
  // Index into TraceStore::files of the file it was read from (a rank's Kineto trace, a host's
  // xplane, when several open as one load); 0 for a single file and for the Global process.
  uint32_t file = 0;
};

struct Track {
  uint32_t process = 0;  // index into TraceStore::processes
  TrackKind kind = TrackKind::kThread;
  // tid as written (threads, samples), counter name (counters), root slice name (async),
  // "" (instant and object tracks)
  std::string key;
  int64_t tid = 0;         // numeric tid (threads; 0 when non-numeric)
  StrId name = 0;          // display name (M thread_name, or counter name)
  int64_t sort_index = 0;  // from M thread_sort_index
  bool has_sort_index = false;
  uint32_t first_event = 0;  // [first_event, first_event + event_count) in EventColumns
  uint32_t event_count = 0;
  uint32_t max_depth = 0;      // deepest row used (0 when the track has one row)
  std::vector<uint32_t> rows;  // see file comment; empty for counter tracks
  // Counter tracks: [first_series, first_series + series_count) in TraceStore::series.
  uint32_t first_series = 0;
  uint32_t series_count = 0;
};

// Slices (B/E pairs, X) and instants (i/I), one entry per event.
struct EventColumns {
  std::vector<TimeNs> start;
  std::vector<TimeNs> dur;  // 0 for instants
  std::vector<StrId> name;
  std::vector<StrId> cat;
  std::vector<uint32_t> track;
  std::vector<uint32_t> depth;
  // 'X', 'B' (closed by E), 'i' (also for 'I'); async 'b' (closed by e), 'S' (closed by F),
  // 'n', 'T', 'p'; objects 'N' (closed by D), 'O'; samples 'P'; marks 'R'.
  std::vector<char> phase;
  std::vector<uint64_t> src_offset;  // byte offset of the event's JSON object in the file
  std::vector<uint32_t> src_len;     // its length in bytes (0 = not available)
  size_t size() const { return start.size(); }
};

// A counter series: one arg key of one counter track.
struct CounterSeries {
  uint32_t track = 0;
  StrId name = 0;             // arg key ("value", "Total Allocated", ...)
  uint32_t first_sample = 0;  // [first_sample, first_sample + sample_count) in samples
  uint32_t sample_count = 0;
  // Set when the series name (or else its track's name) gives a byte unit, "Allocated (MB)"
  // (core/store/counter_units.h): the samples are stored in bytes, the written values times
  // `scale`.
  bool in_bytes = false;
  double scale = 1;
};

// Counter samples, grouped by series and sorted by time within a series.
struct CounterSamples {
  std::vector<TimeNs> ts;
  std::vector<double> value;
  size_t size() const { return ts.size(); }
};

// Flow arrows (s/t/f), one entry per edge between two consecutive bound steps of a flow, after
// TraceBuilder::finish(): from/to are event indices in the final layout; edges are sorted by
// `from`, and `by_to` lists edge indices sorted by `to`, so both directions are binary searches
// (see core/query/flows.h). 16 bytes per edge: the flows' (name, cat) pairs are few ("ac2g",
// "fwdbwd", ...), so each edge keeps an index into `kinds`.
struct FlowColumns {
  struct Kind {
    StrId name = 0, cat = 0;
  };
  std::vector<uint32_t> from, to;
  std::vector<uint32_t> kind;  // index into kinds
  std::vector<uint32_t> by_to;
  std::vector<Kind> kinds;
  size_t size() const { return from.size(); }
};

// The stackFrames container: frame id text → (name, parent). Sorted by `key` (the id's StrId)
// so a lookup is strings.find(id) + a binary search; parent is an index here (kNone = root).
struct StackFrames {
  std::vector<StrId> key;
  std::vector<StrId> name;
  std::vector<uint32_t> parent;
  size_t size() const { return key.size(); }
  // Index of the frame whose id is `id_text`, or kNone.
  uint32_t find(const StringTable& strings, std::string_view id_text) const;
};

// One c (clock sync) record: args.sync_id and args.issue_ts (when present).
struct ClockSync {
  TimeNs ts = 0;
  TimeNs issue_ts = 0;
  bool has_issue_ts = false;
  StrId sync_id = 0;
};

// xplane inputs: a plane of the file and its lines, with the XEvents read from each line
// (summary().planes).
struct SourcePlane {
  struct Line {
    std::string name;
    uint64_t events = 0;
  };
  std::string name;
  std::vector<Line> lines;
};

struct XSpaceTables;    // core/formats/xplane/xplane_tables.h
struct PerfettoTables;  // core/formats/perfetto/perfetto_tables.h

struct SourceFile {
  std::string name;
  uint64_t bytes = 0;
  std::string format;                // "chrome-json", "xplane" (detected from the content)
  std::string compression = "none";  // "gzip", "zstd": detected by magic bytes
  // Several files in one load: record locators (src_offset) count the (decompressed) bytes of
  // the files one after the other; this file's first byte is at stream_base.
  uint64_t stream_base = 0;
  // While it loads: the bytes of the file read so far, compressed ones when it is compressed
  // (the builder sizes the store's columns by them against `bytes`).
  uint64_t loaded = 0;
  // Kineto's top-level distributedInfo.rank (-1 when the file has none) and, when several
  // files load together, the name of this file's section group ("rank 0", or the file's name).
  int64_t rank = -1;
  std::string group;
};

struct TraceStore {
  StringTable strings;
  std::vector<SourceFile> files;
  std::vector<Process> processes;  // in display order (sort index, then pid)
  std::vector<Track> tracks;
  EventColumns events;
  std::vector<CounterSeries> series;
  CounterSamples samples;

  FlowColumns flows;
  StackFrames frames;
  std::vector<ClockSync> clock_syncs;
  std::vector<TimeNs> memory_dumps;  // ts of V (global) and v (process) memory dumps, sorted
  uint32_t device_count = 0;         // entries of Kineto's top-level deviceProperties
  KernelLaunches kernel_launches;    // Kineto kernels' launch parameters (from their args)
  CollectiveArgsTable collectives;   // Kineto NCCL kernels' communication metadata (their args)
  AscendTaskArgsTable ascend_tasks;  // Ascend device tasks' types and communication sizes

  // xplane inputs (empty / null otherwise): the file's planes and lines, and the per-plane
  // metadata the details pane decodes an XEvent with (formats/xplane/xplane_details.h).
  std::vector<SourcePlane> planes;
  std::shared_ptr<const XSpaceTables> xspace;
  // Perfetto inputs: the interned names the details pane decodes a TrackEvent with.
  std::shared_ptr<const PerfettoTables> perfetto;

  // Chrome JSON "displayTimeUnit" ("ms" or "ns") as written; empty when the file has none.
  std::string display_time_unit;

  // Every record seen, counted by its "ph" byte (records without ph are counted under 0).
  std::array<uint64_t, 256> phase_counts{};
  // [start_ns, end_ns] spans every timed record (events, counters, instants, metadata excluded).
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  bool has_time = false;

  // Problems found while importing. Errors mean data was lost or the file is unusable;
  // warnings mean the data was repaired (e.g. an E without its B was dropped).
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  // What the load chose, not a problem: e.g. a profiler folder's db read and the text export
  // beside it set aside (summary().notes).
  std::vector<std::string> notes;

  // Bytes held by the store (columns, strings, tracks): the engine's resident cost of a trace.
  size_t memory_bytes() const;
};

}  // namespace strata
