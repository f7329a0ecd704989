// One JSON object (a line of a JSON-lines metrics file, an entry of a list of records) read
// into its numeric leaves: nested objects are flattened with '/' ({"train": {"loss": 2}} →
// "train/loss"), numbers and Python's bare NaN / Infinity / -Infinity are values; strings,
// booleans, nulls and arrays are read past. Nesting deeper than kMaxDepth is refused (a hostile
// line must not exhaust the stack).
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace strata {

inline constexpr int kJsonRecordMaxDepth = 32;

using JsonNumberSink = std::function<void(std::string_view key, double value)>;

// Parses the object at the start of `text` (leading blanks allowed); trailing blanks only after
// it. False with `why` set when it is not one well-formed object.
bool read_json_record(std::string_view text, const JsonNumberSink& sink, std::string* why);

// The same, for an object that starts at text[*at] inside a larger document: *at moves past it.
bool read_json_record_at(std::string_view text, size_t* at, const JsonNumberSink& sink,
                         std::string* why);

// Past the JSON value starting at text[*at] (any kind), without reading it. False when malformed.
bool skip_json_value(std::string_view text, size_t* at);

}  // namespace strata
