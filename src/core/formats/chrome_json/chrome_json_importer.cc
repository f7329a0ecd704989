// Streaming Chrome Trace Event Format importer.
//
// The container (array form, or object form with a traceEvents member) is walked by a small
// resumable state machine, so chunks may split the input at any byte. Each event object is
// parsed in place from the chunk when it is complete there (the common case: no copy); only a
// record that straddles a chunk boundary is copied into `carry_`, which therefore never holds
// more than one record. Top-level members other than traceEvents are skipped by a resumable
// depth-counting skipper that stores nothing, so huge or deeply nested values cost no memory.
#include "core/formats/chrome_json/chrome_json_importer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/formats/chrome_json/json_scan.h"
#include "core/formats/chrome_json/record_parser.h"
#include "core/store/trace_builder.h"

namespace strata {

namespace {

using chrome_json::EventRecord;
using chrome_json::FieldState;
using chrome_json::ObjectReader;
using json::Scan;

// A single event larger than this is dropped (as malformed) instead of being buffered: it
// bounds the importer's memory against hostile input such as a 1 GB name.
constexpr size_t kMaxRecordBytes = 64u << 20;
// Top-level keys longer than this cannot be one we look for; only a prefix is kept.
constexpr size_t kMaxKeyBytes = 64;

std::string hex_bytes(const uint8_t* b, size_t n) {
  std::string s;
  char buf[4];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof(buf), i ? " %02X" : "%02X", b[i]);
    s += buf;
  }
  return s;
}

std::string describe_byte(char c) {
  char buf[16];
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7F)
    std::snprintf(buf, sizeof(buf), "'%c'", c);
  else
    std::snprintf(buf, sizeof(buf), "byte 0x%02X", u);
  return buf;
}

class ChromeJsonImporter final : public Importer {
 public:
  explicit ChromeJsonImporter(TraceStore* store) : store_(store), builder_(store) {
    builder_.reserve_events(1 << 16);
  }
  void feed(const uint8_t* data, size_t n) override;
  void finish() override;
  bool failed() const override { return failed_; }
  const std::string& failure() const override { return failure_; }
  uint64_t records() const override { return records_; }

 private:
  enum class State : uint8_t {
    kHead,         // collecting the first 4 bytes to recognise BOMs and other encodings
    kStart,        // expect '{' or '[' after blanks
    kObjKeyOrEnd,  // top-level object: expect a key (or '}')
    kObjKey,       // inside a top-level key
    kObjColon,     // expect ':'
    kObjValue,     // expect a top-level member's value
    kObjSkip,      // skipping a member's value
    kObjUnit,      // reading displayTimeUnit's string
    kObjNext,      // expect ',' or '}'
    kArrValue,     // event array: expect an element or ']'
    kArrNext,      // event array: expect ',' or ']'
    kArrSkip,      // skipping an element that is not an object
    kRecord,       // inside an event object that started in an earlier chunk
    kDone,         // the container is closed; only blanks may follow
    kStopped,      // failed, or the top level is broken: ignore the rest
  };

  void decide_head();
  void process(const char* b, const char* e, uint64_t base);
  const char* start_record(const char* b, const char* p, const char* e, uint64_t base);
  const char* continue_record(const char* p, const char* e);
  void handle_record(const char* b, const char* e, uint64_t offset);
  void handle_counter(const EventRecord& r, uint64_t offset);
  void handle_metadata(const EventRecord& r, uint64_t offset);
  uint32_t process_of(const EventRecord& r);
  uint32_t thread_of(const EventRecord& r);
  StrId intern(std::string_view s, bool raw, uint64_t pos);
  void malformed(uint64_t at, const char* reason);
  void fail(std::string message);
  void top_level_error(uint64_t at, char c, const char* expected);

  TraceStore* store_;
  TraceBuilder builder_;
  chrome_json::RecordParser parser_;
  EventRecord rec_;
  ObjectReader args_;
  json::ValueSkipper skipper_;

  State state_ = State::kHead;
  bool object_form_ = false;
  bool saw_events_member_ = false;
  bool saw_ph_ = false;
  bool finished_ = false;
  bool failed_ = false;
  std::string failure_;

  uint8_t head_[4];
  size_t head_len_ = 0;
  uint64_t total_ = 0;       // bytes fed so far
  uint64_t records_ = 0;

  std::string key_;          // current top-level key (prefix)
  std::string unit_;         // displayTimeUnit being read
  std::string carry_;        // the one record split across chunks
  bool carry_keep_ = false;  // false: the split record is already known bad, just skip it
  uint64_t record_start_ = 0;

  // Track lookup cache: consecutive events are usually on the same thread.
  std::string cache_pid_, cache_tid_;
  bool cache_valid_ = false;
  uint32_t cache_track_ = 0;
  std::string scratch_;

  // Aggregated problems (one message each at finish()).
  uint64_t malformed_ = 0, malformed_at_ = 0;
  std::string malformed_reason_;
  uint64_t bad_ts_ = 0, bad_ts_at_ = 0;
  uint64_t bad_utf8_ = 0, bad_utf8_at_ = 0;
  uint64_t trailing_at_ = 0;  // where ignored bytes after the JSON start (0 = none)
};

void ChromeJsonImporter::fail(std::string message) {
  if (!failed_) {
    failed_ = true;
    failure_ = std::move(message);
  }
  state_ = State::kStopped;
}

void ChromeJsonImporter::malformed(uint64_t at, const char* reason) {
  if (malformed_++ == 0) {
    malformed_at_ = at;
    malformed_reason_ = reason;
  }
}

// The top level itself is broken (e.g. garbage between members): nothing after this point can
// be trusted, so keep what was loaded and stop.
void ChromeJsonImporter::top_level_error(uint64_t at, char c, const char* expected) {
  builder_.error("the JSON is broken at byte " + std::to_string(at) + ": found " +
                 describe_byte(c) + ", expected " + expected + "; the rest of the file was ignored");
  state_ = State::kStopped;
}

void ChromeJsonImporter::feed(const uint8_t* data, size_t n) {
  if (finished_ || n == 0) return;
  uint64_t base = total_;
  total_ += n;
  if (state_ == State::kStopped) return;
  if (state_ == State::kHead) {
    while (head_len_ < 4 && n > 0) {
      head_[head_len_++] = *data++;
      --n;
      ++base;
    }
    if (head_len_ < 4) return;
    decide_head();
  }
  if (n > 0 && state_ != State::kStopped) {
    auto* b = reinterpret_cast<const char*>(data);
    process(b, b + n, base);
  }
}

// Recognises what the first bytes say about the encoding, then replays them.
void ChromeJsonImporter::decide_head() {
  const uint8_t* h = head_;
  size_t n = head_len_;
  state_ = State::kStart;
  if (n >= 2 && ((h[0] == 0xFF && h[1] == 0xFE) || (h[0] == 0xFE && h[1] == 0xFF))) {
    return fail(
        "the file is UTF-16 (it starts with a UTF-16 byte order mark); Chrome traces must be "
        "UTF-8 JSON");
  }
  if (n >= 2 && ((h[1] == 0 && (h[0] == '{' || h[0] == '[')) ||
                 (h[0] == 0 && (h[1] == '{' || h[1] == '[')))) {
    return fail("the file looks like UTF-16 text (bytes " + hex_bytes(h, n) +
                "); Chrome traces must be UTF-8 JSON");
  }
  if (n >= 2 && h[0] == 0x1F && h[1] == 0x8B) {
    return fail("the file is gzip-compressed (starts with bytes 1F 8B); decompress it first");
  }
  size_t skip = (n >= 3 && h[0] == 0xEF && h[1] == 0xBB && h[2] == 0xBF) ? 3 : 0;
  auto* b = reinterpret_cast<const char*>(h);
  process(b + skip, b + n, skip);
}

void ChromeJsonImporter::process(const char* b, const char* e, uint64_t base) {
  const char* p = b;
  auto off = [&](const char* q) { return base + static_cast<uint64_t>(q - b); };
  while (p < e) {
    switch (state_) {
      case State::kHead:
      case State::kStopped:
        return;

      case State::kStart: {
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == '[') {
          state_ = State::kArrValue;
        } else if (*p == '{') {
          object_form_ = true;
          state_ = State::kObjKeyOrEnd;
        } else {
          uint64_t at = off(p);
          bool bom = head_len_ >= 3 && head_[0] == 0xEF && head_[1] == 0xBB && head_[2] == 0xBF;
          if (at == 0) {
            return fail("not a Chrome trace (JSON): the file starts with bytes " +
                        hex_bytes(head_, head_len_) + ", expected '{' or '['");
          }
          return fail("not a Chrome trace (JSON): byte " + std::to_string(at) +
                      (bom && at == 3 ? " (after the UTF-8 byte order mark)" : "") + " is " +
                      describe_byte(*p) + ", expected '{' or '['");
        }
        ++p;
        break;
      }

      // ---- object form: walk the top-level members --------------------------------------
      case State::kObjKeyOrEnd:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == '}') {
          state_ = State::kDone;
        } else if (*p == '"') {
          key_.clear();
          skipper_.start_in_string();
          state_ = State::kObjKey;
        } else {
          return top_level_error(off(p), *p, "a key or '}'");
        }
        ++p;
        break;

      case State::kObjKey:
      case State::kObjUnit: {
        // Both collect a (short) string's raw bytes; long ones keep only a prefix.
        const char* q = skipper_.feed(p, e);
        const char* stop = q ? q - 1 : e;  // q - 1 is the closing quote
        std::string& dst = state_ == State::kObjKey ? key_ : unit_;
        if (p < stop && dst.size() < kMaxKeyBytes)
          dst.append(p, std::min<size_t>(static_cast<size_t>(stop - p), kMaxKeyBytes - dst.size()));
        if (!q) return;
        p = q;
        if (state_ == State::kObjUnit) store_->display_time_unit = unit_;
        state_ = state_ == State::kObjKey ? State::kObjColon : State::kObjNext;
        break;
      }

      case State::kObjColon:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p != ':') return top_level_error(off(p), *p, "':' after a key");
        ++p;
        state_ = State::kObjValue;
        break;

      case State::kObjValue:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (key_ == "traceEvents" && *p == '[') {
          saw_events_member_ = true;
          state_ = State::kArrValue;
          ++p;
        } else if (key_ == "traceEvents" && records_ == 0) {
          return fail("not a Chrome trace: \"traceEvents\" is not an array (its value starts "
                      "with " + describe_byte(*p) + " at byte " + std::to_string(off(p)) + ")");
        } else if (key_ == "displayTimeUnit" && *p == '"') {
          unit_.clear();
          skipper_.start_in_string();
          state_ = State::kObjUnit;
          ++p;
        } else {
          skipper_.start(*p);
          state_ = State::kObjSkip;
        }
        break;

      case State::kObjSkip:
      case State::kArrSkip: {
        const char* q = skipper_.feed(p, e);
        if (!q) return;
        p = q;
        state_ = state_ == State::kObjSkip ? State::kObjNext : State::kArrNext;
        break;
      }

      case State::kObjNext:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == ',') {
          state_ = State::kObjKeyOrEnd;
        } else if (*p == '}') {
          state_ = State::kDone;
        } else {
          return top_level_error(off(p), *p, "',' or '}' after a top-level value");
        }
        ++p;
        break;

      // ---- the event array --------------------------------------------------------------
      case State::kArrValue:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == '{') {
          p = start_record(b, p, e, base);
        } else if (*p == ']') {
          state_ = object_form_ ? State::kObjNext : State::kDone;
          ++p;
        } else if (*p == ',') {
          ++p;  // a stray comma: tolerated
        } else {
          malformed(off(p), "an element of the event array is not an object");
          skipper_.start(*p);
          state_ = State::kArrSkip;
        }
        break;

      case State::kArrNext:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == ',') {
          state_ = State::kArrValue;
        } else if (*p == ']') {
          state_ = object_form_ ? State::kObjNext : State::kDone;
        } else {
          return top_level_error(off(p), *p, "',' or ']' after an event");
        }
        ++p;
        break;

      case State::kRecord:
        p = continue_record(p, e);
        break;

      case State::kDone:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        trailing_at_ = off(p);
        state_ = State::kStopped;
        return;
    }
  }
}

// An event object starts at p. Parse it in place; if it runs past the chunk, keep its bytes.
const char* ChromeJsonImporter::start_record(const char* b, const char* p, const char* e,
                                             uint64_t base) {
  const char* end = nullptr;
  const char* reason = "";
  const char* err_at = p;
  uint64_t start = base + static_cast<uint64_t>(p - b);
  Scan s = parser_.parse(p, e, &rec_, &end, &reason, &err_at);
  if (s == Scan::kOk) {
    handle_record(p, end, start);
    state_ = State::kArrNext;
    return end;
  }
  // Find where the object ends without trusting its contents (braces and strings only).
  skipper_.start('{', /*braces_only=*/true);
  const char* q = skipper_.feed(p, e);
  if (s == Scan::kError || q) {
    if (s == Scan::kError)
      malformed(base + static_cast<uint64_t>(err_at - b), reason);
    else
      malformed(base + static_cast<uint64_t>(q - 1 - b), "unbalanced brackets in the event");
    if (q) {
      state_ = State::kArrNext;
      return q;
    }
    carry_keep_ = false;  // already counted as malformed: skip the rest without keeping it
  } else {
    carry_keep_ = static_cast<size_t>(e - p) <= kMaxRecordBytes;
    if (carry_keep_)
      carry_.assign(p, e);
    else
      malformed(start, "the event is larger than 64 MiB");
  }
  record_start_ = start;
  state_ = State::kRecord;
  return e;
}

// Continues an event object that started in an earlier chunk.
const char* ChromeJsonImporter::continue_record(const char* p, const char* e) {
  const char* q = skipper_.feed(p, e);
  const char* stop = q ? q : e;
  if (carry_keep_) {
    if (carry_.size() + static_cast<size_t>(stop - p) > kMaxRecordBytes) {
      malformed(record_start_, "the event is larger than 64 MiB");
      carry_keep_ = false;
      std::string().swap(carry_);
    } else {
      carry_.append(p, stop);
    }
  }
  if (!q) return e;
  state_ = State::kArrNext;
  if (carry_keep_) {
    const char* cb = carry_.data();
    const char* ce = cb + carry_.size();
    const char* end = nullptr;
    const char* reason = "";
    const char* err_at = cb;
    Scan s = parser_.parse(cb, ce, &rec_, &end, &reason, &err_at);
    if (s == Scan::kOk)
      handle_record(cb, end, record_start_);
    else if (s == Scan::kError)
      malformed(record_start_ + static_cast<uint64_t>(err_at - cb), reason);
    else
      malformed(record_start_ + carry_.size(), "unbalanced brackets in the event");
    carry_.clear();
    if (carry_.capacity() > (1u << 20)) std::string().swap(carry_);  // after a huge record
    carry_keep_ = false;
  }
  return q;
}

StrId ChromeJsonImporter::intern(std::string_view s, bool raw, uint64_t pos) {
  bool bad = false;
  StrId id = builder_.strings().intern(s, &bad);
  if (bad && bad_utf8_++ == 0) bad_utf8_at_ = raw ? pos + utf8_valid_prefix(s) : pos;
  return id;
}

uint32_t ChromeJsonImporter::process_of(const EventRecord& r) {
  int64_t pid = 0;
  json::parse_int64(r.pid, &pid);
  return builder_.process(r.pid, pid);
}

uint32_t ChromeJsonImporter::thread_of(const EventRecord& r) {
  if (cache_valid_ && r.pid == cache_pid_ && r.tid == cache_tid_) return cache_track_;
  uint32_t proc = process_of(r);
  int64_t tid = 0;
  json::parse_int64(r.tid, &tid);
  cache_track_ = builder_.thread_track(proc, r.tid, tid);
  cache_pid_.assign(r.pid);
  cache_tid_.assign(r.tid);
  cache_valid_ = true;
  return cache_track_;
}

void ChromeJsonImporter::handle_record(const char* b, const char* e, uint64_t offset) {
  const EventRecord& r = rec_;
  ++records_;
  builder_.count_phase(static_cast<uint8_t>(r.ph));
  if (r.ph) saw_ph_ = true;
  switch (r.ph) {
    case 'X': case 'B': case 'E': case 'i': case 'I': case 'C':
      if (r.ts_state != FieldState::kOk) {
        if (bad_ts_++ == 0) bad_ts_at_ = offset;
        return;
      }
      break;
    case 'M':
      return handle_metadata(r, offset);
    default:
      return;  // phases not imported yet are only counted
  }
  auto len = static_cast<uint32_t>(e - b);
  switch (r.ph) {
    case 'X': {
      TimeNs dur = r.dur_state == FieldState::kOk ? r.dur_ns : 0;
      builder_.add_complete(thread_of(r), r.ts_ns, dur, intern(r.name, r.name_raw, offset + r.name_pos),
                            intern(r.cat, r.cat_raw, offset + r.cat_pos), offset, len);
      break;
    }
    case 'B':
      builder_.add_begin(thread_of(r), r.ts_ns, intern(r.name, r.name_raw, offset + r.name_pos),
                         intern(r.cat, r.cat_raw, offset + r.cat_pos), offset, len);
      break;
    case 'E':
      builder_.add_end(thread_of(r), r.ts_ns);
      break;
    case 'i':
    case 'I':
      // TODO(issue: instant scopes): s = "g" / "p" should go on a global / process track.
      builder_.add_instant(thread_of(r), r.ts_ns, intern(r.name, r.name_raw, offset + r.name_pos),
                           intern(r.cat, r.cat_raw, offset + r.cat_pos), offset, len);
      break;
    case 'C':
      handle_counter(r, offset);
      break;
  }
}

// One counter track per (pid, name[, id]); one series per numeric arg.
void ChromeJsonImporter::handle_counter(const EventRecord& r, uint64_t offset) {
  if (r.args.empty()) return;
  uint32_t track = kNone;
  args_.reset(r.args);
  while (args_.next()) {
    double v;
    if (args_.kind() == ObjectReader::Kind::kOther || !json::parse_double(args_.value(), &v))
      continue;
    StrId series = intern(args_.key(), false, offset);
    if (track == kNone) {
      scratch_.assign(r.name);
      if (r.has_id) {
        scratch_ += ' ';
        scratch_.append(r.id);
      }
      intern(scratch_, r.name_raw, offset + r.name_pos);  // reports bad UTF-8 in the name
      track = builder_.counter_track(process_of(r), scratch_);
    }
    builder_.add_counter(track, series, r.ts_ns, v);
  }
}

void ChromeJsonImporter::handle_metadata(const EventRecord& r, uint64_t offset) {
  if (r.args.empty()) return;
  std::string_view n = r.name;
  bool is_name = n == "process_name" || n == "thread_name";
  bool is_sort = n == "process_sort_index" || n == "thread_sort_index";
  bool is_labels = n == "process_labels";
  if (!is_name && !is_sort && !is_labels) return;
  std::string_view want = is_name ? "name" : is_sort ? "sort_index" : "labels";
  bool thread = n[0] == 't';
  args_.reset(r.args);
  while (args_.next()) {
    if (args_.key() != want || args_.kind() == ObjectReader::Kind::kOther) continue;
    std::string_view v = args_.value();
    if (is_name) {
      StrId id = intern(v, false, offset);
      if (thread)
        builder_.set_thread_name(thread_of(r), id);
      else
        builder_.set_process_name(process_of(r), id);
    } else if (is_sort) {
      int64_t index;
      if (!json::parse_int64(v, &index)) continue;
      if (thread)
        builder_.set_thread_sort_index(thread_of(r), index);
      else
        builder_.set_process_sort_index(process_of(r), index);
    } else {
      uint32_t proc = process_of(r);
      while (!v.empty()) {
        size_t comma = v.find(',');
        std::string_view label = v.substr(0, comma);
        v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
        while (!label.empty() && json::is_ws(label.front())) label.remove_prefix(1);
        while (!label.empty() && json::is_ws(label.back())) label.remove_suffix(1);
        if (!label.empty()) builder_.add_process_label(proc, intern(label, false, offset));
      }
    }
  }
}

void ChromeJsonImporter::finish() {
  if (finished_) return;
  finished_ = true;
  if (state_ == State::kHead) {
    if (head_len_ == 0)
      fail("the file is empty (0 bytes)");
    else
      decide_head();
  }
  const std::string events = std::to_string(records_);
  switch (state_) {
    case State::kStart:
      fail("not a Chrome trace (JSON): the file contains only blanks (" + std::to_string(total_) +
           " bytes)");
      break;
    case State::kRecord: {
      std::string msg = "the file is cut off at byte " + std::to_string(total_) +
                        ", inside an event (loaded " + events + " events before it)";
      if (records_ == 0)
        fail(msg);
      else
        builder_.error(msg);
      break;
    }
    case State::kArrValue:
    case State::kArrNext:
    case State::kArrSkip:
      // A missing ']' is legal in the array form (tracing may stop at any event).
      if (object_form_)
        builder_.warning("the file ends inside the traceEvents array (after " + events +
                         " events); the closing ']' and '}' are missing");
      break;
    case State::kObjKeyOrEnd:
    case State::kObjKey:
    case State::kObjColon:
    case State::kObjValue:
    case State::kObjSkip:
    case State::kObjUnit:
    case State::kObjNext:
      if (saw_events_member_)
        builder_.warning("the file ends before the closing '}' of the top-level JSON object");
      break;
    case State::kHead:
    case State::kDone:
    case State::kStopped:
      break;
  }
  if (!failed_) {
    if (object_form_ && !saw_events_member_) {
      fail("not a Chrome trace: the JSON object has no \"traceEvents\" array");
    } else if (records_ > 0 && !saw_ph_) {
      fail("not a Chrome trace: none of the " + events +
           " objects in the event array has a \"ph\" (phase) field");
    } else if (records_ == 0 && (malformed_ > 0 || !store_->errors.empty())) {
      fail("no event could be read: " +
           (malformed_ ? std::to_string(malformed_) + " malformed events (first at byte " +
                             std::to_string(malformed_at_) + ": " + malformed_reason_ + ")"
                       : store_->errors.front()));
    } else if (records_ == 0) {
      builder_.warning("the trace contains no events");
    }
  }
  if (malformed_)
    builder_.error(std::to_string(malformed_) + " malformed events skipped (first at byte " +
                   std::to_string(malformed_at_) + ": " + malformed_reason_ + ")");
  if (bad_ts_)
    builder_.error(std::to_string(bad_ts_) + " events without a valid \"ts\" skipped (first at byte " +
                   std::to_string(bad_ts_at_) + ")");
  if (bad_utf8_)
    builder_.warning("invalid UTF-8 in " + std::to_string(bad_utf8_) +
                     " strings was replaced by U+FFFD (first at byte " +
                     std::to_string(bad_utf8_at_) + ")");
  if (trailing_at_)
    builder_.warning(std::to_string(total_ - trailing_at_) +
                     " bytes after the end of the JSON were ignored (from byte " +
                     std::to_string(trailing_at_) + ")");
  if (store_->files.empty()) store_->files.push_back(SourceFile{});
  SourceFile& f = store_->files.back();
  if (f.bytes == 0) f.bytes = total_;
  if (f.format.empty()) f.format = "chrome-json";
  std::string().swap(carry_);
  builder_.finish();
}

}  // namespace

std::unique_ptr<Importer> make_chrome_json_importer(TraceStore* store) {
  return std::make_unique<ChromeJsonImporter>(store);
}

}  // namespace strata
