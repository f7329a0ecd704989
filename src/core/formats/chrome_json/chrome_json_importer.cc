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

#include "core/formats/chrome_json/chrome_json_importer_impl.h"

namespace strata::chrome_json {

namespace {

using json::Scan;

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

}  // namespace

void ChromeJsonImporter::fail(std::string message) {
  if (file_ > 0) {
    // A later file of a multi-file load: the files before it stay loaded; the message names it.
    builder_.error(std::move(message) + "; the file was skipped from there");
    state_ = State::kStopped;
    return;
  }
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
  builder_.error("the JSON is broken at byte " + std::to_string(file_offset(at)) + ": found " +
                 describe_byte(c) + ", expected " + expected +
                 "; the rest of the file was ignored");
  state_ = State::kStopped;
}

void ChromeJsonImporter::feed(const uint8_t* data, size_t n) {
  if (finished_ || n == 0) return;
  uint64_t base = total_;
  total_ += n;
  builder_.set_input_progress(total_);  // sizes the store's columns (TraceBuilder::next_capacity)
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
  process(b + skip, b + n, file_base_ + skip);
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
          uint64_t at = file_offset(off(p));
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
          section_ = Section::kEvents;
          state_ = State::kArrValue;
          ++p;
        } else if ((key_ == "samples" || key_ == "deviceProperties") && *p == '[') {
          // Sample entries become P-like samples; device entries are only counted.
          section_ = key_ == "samples" ? Section::kSamples : Section::kDevices;
          state_ = State::kArrValue;
          ++p;
        } else if (key_ == "stackFrames" && *p == '{') {
          section_ = Section::kFrames;
          state_ = State::kFrameKeyOrEnd;
          ++p;
        } else if (key_ == "traceEvents" && records_ == 0) {
          return fail(
              "not a Chrome trace: \"traceEvents\" is not an array (its value starts "
              "with " +
              describe_byte(*p) + " at byte " + std::to_string(off(p)) + ")");
        } else if (key_ == "displayTimeUnit" && *p == '"') {
          unit_.clear();
          skipper_.start_in_string();
          state_ = State::kObjUnit;
          ++p;
        } else {
          // Kineto's rank and clock base: read whole (they are small) as they are skipped.
          capturing_ = key_ == "distributedInfo" || key_ == "baseTimeNanoseconds";
          if (capturing_) capture_.clear();
          skipper_.start(*p);
          state_ = State::kObjSkip;
        }
        break;

      case State::kObjSkip:
      case State::kArrSkip: {
        const char* q = skipper_.feed(p, e);
        if (capturing_ && state_ == State::kObjSkip) {
          capture_.append(p, q ? q : e);
          if (capture_.size() > kMaxCaptureBytes) capturing_ = false;
        }
        if (!q) return;
        if (capturing_ && state_ == State::kObjSkip) top_level_value_done();
        capturing_ = false;
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
          section_ = Section::kEvents;
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
          section_ = Section::kEvents;
        } else {
          return top_level_error(off(p), *p, "',' or ']' after an event");
        }
        ++p;
        break;

      case State::kRecord:
        p = continue_record(p, e);
        break;

      // ---- stackFrames: {"id": {"name": ..., "parent": ...}, ...} --------------------------
      case State::kFrameKeyOrEnd:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == '}') {
          section_ = Section::kEvents;
          state_ = State::kObjNext;
        } else if (*p == '"') {
          frame_key_.clear();
          skipper_.start_in_string();
          state_ = State::kFrameKey;
        } else if (*p == ',') {
          // a stray comma: tolerated
        } else {
          return top_level_error(off(p), *p, "a frame id or '}' in stackFrames");
        }
        ++p;
        break;

      case State::kFrameKey: {
        const char* q = skipper_.feed(p, e);
        const char* stop = q ? q - 1 : e;
        if (p < stop && frame_key_.size() < kMaxFrameKeyBytes)
          frame_key_.append(p, std::min<size_t>(static_cast<size_t>(stop - p),
                                                kMaxFrameKeyBytes - frame_key_.size()));
        if (!q) return;
        p = q;
        state_ = State::kFrameColon;
        break;
      }

      case State::kFrameColon:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p != ':') return top_level_error(off(p), *p, "':' after a frame id");
        ++p;
        state_ = State::kFrameValue;
        break;

      case State::kFrameValue:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == '{') {
          p = start_record(b, p, e, base);
        } else {
          malformed(off(p), "a stackFrames entry is not an object");
          skipper_.start(*p);
          state_ = State::kFrameSkip;
        }
        break;

      case State::kFrameSkip: {
        const char* q = skipper_.feed(p, e);
        if (!q) return;
        p = q;
        state_ = State::kFrameNext;
        break;
      }

      case State::kFrameNext:
        p = json::skip_ws(p, e);
        if (p >= e) return;
        if (*p == ',') {
          state_ = State::kFrameKeyOrEnd;
        } else if (*p == '}') {
          section_ = Section::kEvents;
          state_ = State::kObjNext;
        } else {
          return top_level_error(off(p), *p, "',' or '}' after a stackFrames entry");
        }
        ++p;
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
    state_ = after_record();
    record_done(p, end, start);
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
      state_ = after_record();
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

// A complete object of the current section was parsed into rec_.
void ChromeJsonImporter::record_done(const char* b, const char* e, uint64_t offset) {
  switch (section_) {
    case Section::kEvents:
      return handle_record(b, e, offset);
    case Section::kSamples:
      return handle_sample_entry(rec_, offset, static_cast<uint32_t>(e - b));
    case Section::kFrames:
      return handle_frame(rec_, offset);
    case Section::kDevices:
      return builder_.add_device();
  }
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
  state_ = after_record();
  if (carry_keep_) {
    const char* cb = carry_.data();
    const char* ce = cb + carry_.size();
    const char* end = nullptr;
    const char* reason = "";
    const char* err_at = cb;
    Scan s = parser_.parse(cb, ce, &rec_, &end, &reason, &err_at);
    if (s == Scan::kOk)
      record_done(cb, end, record_start_);
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

// The current file's end: what its framing state says is missing.
void ChromeJsonImporter::end_of_input() {
  if (state_ == State::kHead) {
    if (head_len_ == 0)
      fail("the file is empty (0 bytes)");
    else
      decide_head();
  }
  const uint64_t size = total_ - file_base_;
  const std::string events = std::to_string(records_);
  switch (state_) {
    case State::kStart:
      fail("not a Chrome trace (JSON): the file contains only blanks (" + std::to_string(size) +
           " bytes)");
      break;
    case State::kRecord: {
      std::string msg = "the file is cut off at byte " + std::to_string(size) +
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
      if (object_form_ && section_ == Section::kEvents)
        builder_.warning("the file ends inside the traceEvents array (after " + events +
                         " events); the closing ']' and '}' are missing");
      else if (object_form_)
        builder_.warning(std::string("the file ends inside the ") +
                         (section_ == Section::kSamples ? "samples" : "deviceProperties") +
                         " array; the closing ']' and '}' are missing");
      break;
    case State::kFrameKeyOrEnd:
    case State::kFrameKey:
    case State::kFrameColon:
    case State::kFrameValue:
    case State::kFrameSkip:
    case State::kFrameNext:
      builder_.warning(
          "the file ends inside the stackFrames object; the closing braces are missing");
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
  if (file_ > 0 && object_form_ && !saw_events_member_ && state_ != State::kStopped)
    builder_.error("not a Chrome trace: the JSON object has no \"traceEvents\" array");
}

// The current file's aggregated problems, one message each; the counts start over.
void ChromeJsonImporter::report_problems() {
  if (malformed_)
    builder_.error(std::to_string(malformed_) + " malformed events skipped (first at byte " +
                   std::to_string(file_offset(malformed_at_)) + ": " + malformed_reason_ + ")");
  if (bad_ts_)
    builder_.error(std::to_string(bad_ts_) +
                   " events without a valid \"ts\" skipped (first at byte " +
                   std::to_string(file_offset(bad_ts_at_)) + ")");
  // An error, not a warning: the names shown are not what the file says (issue 2: invalid
  // UTF-8 gets a clear message in summary().errors).
  if (bad_dur_)
    builder_.warning(std::to_string(bad_dur_) +
                     " X events without a valid \"dur\" were given duration 0 (first at byte " +
                     std::to_string(file_offset(bad_dur_at_)) + ")");
  if (unknown_phase_)
    builder_.warning(std::to_string(unknown_phase_) + " records of unknown phases (" +
                     unknown_phases_ + ") were ignored (first at byte " +
                     std::to_string(file_offset(unknown_phase_at_)) + ")");
  if (bad_utf8_)
    builder_.error("invalid UTF-8 in " + std::to_string(bad_utf8_) +
                   " strings was replaced by U+FFFD (first at byte " +
                   std::to_string(file_offset(bad_utf8_at_)) + ")");
  if (trailing_at_)
    builder_.warning(std::to_string(total_ - trailing_at_) +
                     " bytes after the end of the JSON were ignored (from byte " +
                     std::to_string(file_offset(trailing_at_)) + ")");
  malformed_ = bad_ts_ = bad_dur_ = bad_utf8_ = unknown_phase_ = 0;
  unknown_phases_.clear();
  trailing_at_ = 0;
}

void ChromeJsonImporter::finish() {
  if (finished_) return;
  finished_ = true;
  end_of_input();
  const std::string events = std::to_string(records_);
  if (!failed_) {
    if (object_form_ && !saw_events_member_ && file_ == 0) {
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
  report_problems();
  if (store_->files.empty()) store_->files.push_back(SourceFile{});
  SourceFile& f = store_->files.back();
  if (f.bytes == 0) f.bytes = total_ - file_base_;
  if (f.format.empty()) f.format = "chrome-json";
  prefix_file_messages();
  if (file_ > 0) name_file_groups();
  std::string().swap(carry_);
  builder_.finish();
}

}  // namespace strata::chrome_json

namespace strata {

std::unique_ptr<Importer> make_chrome_json_importer(TraceStore* store) {
  return std::make_unique<chrome_json::ChromeJsonImporter>(store);
}

}  // namespace strata
