// Parses one trace event object ({"ph":..., "name":..., ...}) held complete or partly in memory
// into the fields the importer uses. No allocation in steady state: string fields point into
// the input when they have no escapes, otherwise into scratch buffers owned by the parser.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/formats/chrome_json/json_scan.h"

namespace strata::chrome_json {

// How a numeric field was written.
enum class FieldState : uint8_t { kMissing, kOk, kInvalid };

struct EventRecord {
  char ph = 0;  // first byte of "ph" (0 when absent or empty)
  bool has_name = false;
  std::string_view name, cat;
  // Offset of the string's first byte inside the record, for UTF-8 warnings; *_raw is false
  // when the value had escapes (then name/cat point into a scratch buffer, not the input).
  uint32_t name_pos = 0, cat_pos = 0;
  bool name_raw = true, cat_raw = true;
  FieldState ts_state = FieldState::kMissing, dur_state = FieldState::kMissing;
  int64_t ts_ns = 0, dur_ns = 0;
  // pid / tid / id as text: a number's own text, or a string's contents.
  bool has_pid = false, has_tid = false, has_id = false;
  std::string_view pid, tid, id;
  char scope = 0;         // "s" of instants: g / p / t
  char bp = 0;            // "bp" of flow events: 'e' = bind to the enclosing slice
  std::string_view args;  // the raw "args" value, `{...}` (empty when absent)
  // "id2": {"local": x} or {"global": x}; id2_scope is 'l' / 'g' (0 when absent) and id2 is x.
  char id2_scope = 0;
  std::string_view id2;
  // "sf" (stack frame id of samples and other events) and "parent" (of stackFrames entries),
  // as text like pid/tid.
  bool has_sf = false, has_parent = false;
  std::string_view sf, parent;
};

class RecordParser {
 public:
  // Parses the object starting at `b` (its '{'), reading no further than `e`.
  //  kOk: *end is just past the closing '}', *rec is filled.
  //  kIncomplete: the object runs past `e` (no error seen before that).
  //  kError: the object is not valid JSON; *reason says why and *err_at points at it.
  json::Scan parse(const char* b, const char* e, EventRecord* rec, const char** end,
                   const char** reason, const char** err_at);

 private:
  bool parse_id2(std::string_view object, EventRecord* rec);
  std::string name_buf_, cat_buf_, pid_buf_, tid_buf_, id_buf_, key_buf_, tmp_buf_, sf_buf_,
      parent_buf_, id2_buf_;
};

// Iterates the members of a complete, already validated JSON object such as an event's args.
// Values are returned raw; strings are unescaped into an internal buffer.
class ObjectReader {
 public:
  enum class Kind : uint8_t { kString, kNumber, kOther };
  // Starts reading `object` (its text from '{' to '}'); reusable so buffers are kept.
  void reset(std::string_view object);
  // Advances to the next member; false at the end (or on malformed input).
  bool next();
  std::string_view key() const { return key_; }
  Kind kind() const { return kind_; }
  // The string's contents (kString) or the number's text (kNumber).
  std::string_view value() const { return value_; }

 private:
  const char* p_ = nullptr;
  const char* e_ = nullptr;
  std::string key_buf_, value_buf_;
  std::string_view key_, value_;
  Kind kind_ = Kind::kOther;
};

}  // namespace strata::chrome_json
