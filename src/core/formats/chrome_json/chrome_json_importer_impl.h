// The Chrome JSON importer's class, shared by its source files (private to chrome_json/):
//   chrome_json_importer.cc  the container: top-level object/array walk, record framing across
//                            chunks, end-of-input checks;
//   chrome_json_events.cc    per-record dispatch and the common phases (X B E i I C M);
//   chrome_json_phases.cc    async, objects, flows, samples, marks, clock syncs, memory dumps
//                            and the stackFrames / samples / deviceProperties containers.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/chrome_json/json_scan.h"
#include "core/formats/chrome_json/record_parser.h"
#include "core/formats/importer.h"
#include "core/store/trace_builder.h"

namespace strata {
class SliceWriter;
class SliceReader;
}  // namespace strata

namespace strata::chrome_json {

// A single event larger than this is dropped (as malformed) instead of being buffered: it
// bounds the importer's memory against hostile input such as a 1 GB name.
constexpr size_t kMaxRecordBytes = 64u << 20;
// Top-level keys longer than this cannot be one we look for; only a prefix is kept.
constexpr size_t kMaxKeyBytes = 64;
// stackFrames ids longer than this are truncated (they are numbers or short strings).
constexpr size_t kMaxFrameKeyBytes = 256;
// Top-level values read whole (distributedInfo, baseTimeNanoseconds) are small; a larger one is
// skipped unread.
constexpr size_t kMaxCaptureBytes = 64u << 10;

class ChromeJsonImporter final : public Importer {
 public:
  explicit ChromeJsonImporter(TraceStore* store) : store_(store), builder_(store) {}
  void feed(const uint8_t* data, size_t n) override;
  void finish() override;
  bool failed() const override { return failed_; }
  const std::string& failure() const override { return failure_; }
  uint64_t records() const override { return records_; }
  // The next rank's trace of the same run: framing starts over, the store and builder go on;
  // pids, tids, flow ids and frame ids of each file stay apart (chrome_json_files.cc).
  bool next_file() override;

  // ---- sliced loads (sliced_import.cc): one file's bytes cut at event boundaries ----------
  // Makes this importer read a slice that starts at byte `base` of the file, at an element of
  // its traceEvents array (`object_form`: the file is {"traceEvents": [...]}, else [...]).
  void begin_slice(uint64_t base, bool object_form);
  // True when the bytes fed so far end between two elements of the traceEvents array (after
  // the ','): where a slice that begin_slice() started may take over.
  bool at_event_boundary() const;
  // Takes over `later`, which read the bytes right after this one's: its staging is appended
  // (TraceBuilder::absorb), its counts and first problem positions merged, and its framing state
  // becomes this one's, so finish() (or further feeding) goes on as after one pass.
  void absorb(ChromeJsonImporter& later);
  TraceStore* store() const { return store_; }
  // A later slice's whole state as bytes and back (slice_codec.cc): what absorb() reads of it,
  // its builder's staging included. decode() fills an importer that begin_slice() started on a
  // fresh store; false when the bytes are not a whole encoded slice.
  void encode(SliceWriter* out) const;
  bool decode(SliceReader* in);

 private:
  enum class State : uint8_t {
    kHead,           // collecting the first 4 bytes to recognise BOMs and other encodings
    kStart,          // expect '{' or '[' after blanks
    kObjKeyOrEnd,    // top-level object: expect a key (or '}')
    kObjKey,         // inside a top-level key
    kObjColon,       // expect ':'
    kObjValue,       // expect a top-level member's value
    kObjSkip,        // skipping a member's value
    kObjUnit,        // reading displayTimeUnit's string
    kObjNext,        // expect ',' or '}'
    kArrValue,       // event array: expect an element or ']'
    kArrNext,        // event array: expect ',' or ']'
    kArrSkip,        // skipping an element that is not an object
    kRecord,         // inside an event object that started in an earlier chunk
    kFrameKeyOrEnd,  // stackFrames: expect a frame id (or '}')
    kFrameKey,       // inside a frame id
    kFrameColon,     // expect ':'
    kFrameValue,     // expect the frame's object
    kFrameSkip,      // skipping a frame value that is not an object
    kFrameNext,      // expect ',' or '}'
    kDone,           // the container is closed; only blanks may follow
    kStopped,        // failed, or the top level is broken: ignore the rest
  };
  // What the objects being read are: traceEvents entries, `samples` entries, `stackFrames`
  // values or `deviceProperties` entries.
  enum class Section : uint8_t { kEvents, kSamples, kFrames, kDevices };

  // chrome_json_importer.cc
  void decide_head();
  void process(const char* b, const char* e, uint64_t base);
  const char* start_record(const char* b, const char* p, const char* e, uint64_t base);
  const char* continue_record(const char* p, const char* e);
  void record_done(const char* b, const char* e, uint64_t offset);
  void malformed(uint64_t at, const char* reason);
  void fail(std::string message);
  void top_level_error(uint64_t at, char c, const char* expected);
  void end_of_input();     // the current file's end: what its framing state says is missing
  void report_problems();  // the current file's aggregated problems, then reset
  // chrome_json_files.cc
  void prefix_file_messages();  // names the file in the messages about it (several files)
  void top_level_value_done();  // a captured top-level value (distributedInfo, ...) is complete
  void name_file_groups();      // several files: every process in its file's section group
  uint64_t file_offset(uint64_t stream_offset) const {
    return stream_offset >= file_base_ ? stream_offset - file_base_ : stream_offset;
  }
  State after_record() const {
    return section_ == Section::kFrames ? State::kFrameNext : State::kArrNext;
  }

  // chrome_json_events.cc
  void handle_record(const char* b, const char* e, uint64_t offset);
  void handle_counter(const EventRecord& r, uint64_t offset);
  void handle_metadata(const EventRecord& r, uint64_t offset);
  uint32_t process_of(const EventRecord& r);
  uint32_t thread_of(const EventRecord& r);
  StrId intern(std::string_view s, bool raw, uint64_t pos);
  StrId name_of(const EventRecord& r, uint64_t offset) {
    return intern(r.name, r.name_raw, offset + r.name_pos);
  }
  StrId cat_of(const EventRecord& r, uint64_t offset) {
    return intern(r.cat, r.cat_raw, offset + r.cat_pos);
  }

  // chrome_json_phases.cc
  void handle_other_phase(const EventRecord& r, uint64_t offset, uint32_t len);
  void handle_async(const EventRecord& r, uint64_t offset, uint32_t len);
  void handle_object(const EventRecord& r, uint64_t offset, uint32_t len);
  void handle_flow(const EventRecord& r, uint64_t offset);
  void handle_sample(const EventRecord& r, uint64_t offset, uint32_t len);
  void handle_clock_sync(const EventRecord& r);
  void handle_sample_entry(const EventRecord& r, uint64_t offset, uint32_t len);
  void handle_frame(const EventRecord& r, uint64_t offset);

  // chrome_json_kernels.cc
  void note_kernel_launch(const EventRecord& r, uint64_t offset);
  void note_collective(const EventRecord& r, uint64_t offset);
  void note_ascend_task(const EventRecord& r, uint64_t offset);

  TraceStore* store_;
  TraceBuilder builder_;
  RecordParser parser_;
  EventRecord rec_;
  ObjectReader args_;
  json::ValueSkipper skipper_;

  State state_ = State::kHead;
  Section section_ = Section::kEvents;
  bool object_form_ = false;
  bool saw_events_member_ = false;
  bool saw_ph_ = false;
  bool finished_ = false;
  bool failed_ = false;
  std::string failure_;

  uint8_t head_[4];
  size_t head_len_ = 0;
  uint64_t total_ = 0;  // bytes fed so far (all files)
  // Several files in one load: the current file's index, its first byte in the stream, and the
  // messages so far that already name their file.
  uint32_t file_ = 0;
  uint64_t file_base_ = 0;
  size_t errors_mark_ = 0, warnings_mark_ = 0;
  // Top-level values read whole (distributedInfo, baseTimeNanoseconds: small), while skipped.
  std::string capture_;
  bool capturing_ = false;
  std::vector<int64_t> base_time_ns_;  // per file: Kineto's baseTimeNanoseconds, -1 if none
  std::string pid_key_;                // a later file's process key: file index + pid text
  uint64_t records_ = 0;

  std::string key_;          // current top-level key (prefix)
  std::string unit_;         // displayTimeUnit being read
  std::string frame_key_;    // current stackFrames id (prefix)
  std::string carry_;        // the one record split across chunks
  bool carry_keep_ = false;  // false: the split record is already known bad, just skip it
  uint64_t record_start_ = 0;

  // Track lookup cache: events come in runs on a few threads (e.g. a CPU thread and the GPU
  // stream its kernels go to), so a handful of recent (pid, tid) keys catch almost all.
  struct TrackSlot {
    std::string pid, tid;
    uint32_t track = kNone;
  };
  static constexpr size_t kTrackSlots = 4;
  TrackSlot track_cache_[kTrackSlots];
  size_t track_cache_next_ = 0;
  std::string scratch_;
  struct InternSlot {
    StrId id = kNone;
    std::string_view text;  // strings().get(id), kept here to save a lookup per hit
  };
  static constexpr size_t kInternSlots = 1024;
  InternSlot intern_cache_[kInternSlots];

  // Aggregated problems (one message each at finish()).
  uint64_t malformed_ = 0, malformed_at_ = 0;
  std::string malformed_reason_;
  uint64_t bad_ts_ = 0, bad_ts_at_ = 0;
  uint64_t bad_dur_ = 0, bad_dur_at_ = 0;
  uint64_t bad_utf8_ = 0, bad_utf8_at_ = 0;
  uint64_t unknown_phase_ = 0, unknown_phase_at_ = 0;
  std::string unknown_phases_;  // distinct unknown ph bytes, in order of appearance
  uint64_t trailing_at_ = 0;    // where ignored bytes after the JSON start (0 = none)
};

}  // namespace strata::chrome_json
