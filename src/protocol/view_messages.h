// The worker/UI protocol: binary messages the engine (Web Worker) sends to the UI (main thread)
// and back. JavaScript only moves these bytes (as transferable ArrayBuffers); both ends are C++
// and read them with the structs below. Little-endian, every struct 8-byte aligned.
//
// JSON is used only for the script API (summary, find, details), where shape matters more than
// speed; everything the frame loop needs is here.
#pragma once
#include <cstdint>

namespace strata::proto {

enum class MsgType : uint32_t {
  kTrackList = 1,    // engine → UI: processes, tracks, counter series of the current trace
  kViewRequest = 2,  // UI → engine: what is visible
  kViewReply = 3,    // engine → UI: slices, folded runs and counter buckets for a request
};

struct Header {
  MsgType type;
  uint32_t size;        // bytes of the whole message, header included
  uint32_t generation;  // trace generation: bumps when a new trace replaces the old one
  uint32_t request_id;  // echo of a request's id (0 for unsolicited messages)
};

// ---- kTrackList: Header, TrackListHead, ProcessEntry[], TrackEntry[], SeriesEntry[], chars --
struct TrackListHead {
  int64_t origin_ns;  // absolute ns of relative 0 (the trace start)
  double extent_ns;   // trace length: relative times run over [0, extent_ns]
  uint32_t process_count;
  uint32_t track_count;
  uint32_t series_count;
  uint32_t string_count;  // size of the trace's string table (names arrive in view replies)
  uint32_t chars_bytes;   // bytes of the trailing character blob
  uint32_t pad;
};

struct ProcessEntry {
  int64_t pid;
  uint32_t name_off, name_len;  // in the character blob
  uint32_t first_track;         // tracks of a process are contiguous in display order
  uint32_t track_count;
  uint32_t labels_off, labels_len;  // M process_labels, joined with ", " ("CPU", "GPU 0")
  uint32_t key_off, key_len;        // the pid as written in the file ("123", "Spans")
};

struct TrackEntry {
  int64_t tid;
  uint32_t process;
  uint32_t kind;  // strata::TrackKind
  uint32_t name_off, name_len;
  uint32_t rows;  // depth rows (1 + max depth); counter tracks: 1
  uint32_t event_count;
  uint32_t first_series, series_count;  // counter tracks
};

struct SeriesEntry {
  double min, max;  // over the whole series (the track's vertical scale)
  uint32_t track;
  uint32_t name_off, name_len;
  uint32_t flags;  // kSeriesInBytes: the values are byte sizes (the name carried a unit)
};
constexpr uint32_t kSeriesInBytes = 1;

// ---- kViewRequest: Header, ViewRequestBody ----------------------------------------------------
struct ViewRequestBody {
  double start, end;  // relative ns
  uint32_t width_px;
  uint32_t flags;  // kWantFlows: include flow arrows touching the range
};
constexpr uint32_t kWantFlows = 1;

// ---- kViewReply: Header, ViewReplyHead, SliceEntry[], BucketEntry[], FlowEntry[], NewString[],
// chars ---------------------------------------------------------------------------------------
struct ViewReplyHead {
  double start, end;  // the request's range, echoed
  uint32_t width_px;
  uint32_t slice_count;
  uint32_t bucket_count;
  uint32_t new_string_count;  // names used by these slices that this UI has not been sent yet
  uint32_t chars_bytes;
  uint32_t flow_count;
};

struct SliceEntry {
  double start, end;  // relative ns
  uint32_t track, depth;
  uint32_t name;           // string id
  uint32_t event;          // event index, or 0xffffffff for a folded run
  uint32_t count;          // events represented; 0 (with kNone): data that could not be read
                           // (a bundle's tile), over its time range, named by the message
  uint32_t busy_permille;  // folded runs: share of the run's span covered by its events
};

struct BucketEntry {
  double start;  // relative ns
  double min, max, last;
  uint32_t series;
  uint32_t pad;
};

// A flow arrow between two slices, drawn from the end of `from` to the start of `to`.
struct FlowEntry {
  double from_end, to_start;                            // relative ns
  uint32_t from_track, from_depth, to_track, to_depth;  // display track indices
  uint32_t from_event, to_event;
};

struct NewString {
  uint32_t id;
  uint32_t off, len;  // in the character blob that ends the message
  uint32_t pad;
};

static_assert(
    sizeof(Header) == 16 && sizeof(TrackListHead) == 40 && sizeof(ProcessEntry) == 40 &&
        sizeof(TrackEntry) == 40 && sizeof(SeriesEntry) == 32 && sizeof(ViewRequestBody) == 24 &&
        sizeof(ViewReplyHead) == 40 && sizeof(SliceEntry) == 40 && sizeof(BucketEntry) == 40 &&
        sizeof(FlowEntry) == 40 && sizeof(NewString) == 16,
    "protocol structs are shared by two wasm modules and must not change size by accident");

}  // namespace strata::proto
