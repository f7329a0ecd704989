#include "core/formats/loss_log/jsonl_reader.h"

#include <cmath>
#include <cstring>

#include "core/base/text.h"
#include "core/formats/loss_log/json_record.h"

namespace strata {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t skip_blanks(std::string_view s, size_t i) {
  if (s.substr(i, 3) == "\xEF\xBB\xBF") i += 3;
  while (i < s.size() && blank(s[i])) ++i;
  return i;
}

// A step value as an iteration: rounded (a float step written as 9.999999 is 10).
bool as_step(double v, int64_t* out) {
  if (!std::isfinite(v) || std::fabs(v) > 9e18) return false;
  *out = std::llround(v);
  return true;
}

}  // namespace

bool looks_like_json_lines(const uint8_t* p, size_t n) {
  const std::string_view s(reinterpret_cast<const char*>(p), n);
  const size_t start = skip_blanks(s, 0);
  if (start >= s.size() || s[start] != '{') return false;
  const size_t nl = s.find('\n', start);
  if (nl == std::string_view::npos) return false;  // one line, or longer than the head
  const std::string_view first = s.substr(start, nl - start);
  bool trace_keys = false;
  const JsonNumberSink none;
  size_t at = 0;
  if (!read_json_record_at(first, &at, none, nullptr)) return false;
  if (skip_blanks(first, at) != first.size()) return false;
  // A Chrome trace is one object (its first line would not close) or events with "ph".
  trace_keys = first.find("\"traceEvents\"") != std::string_view::npos ||
               first.find("\"ph\"") != std::string_view::npos;
  if (trace_keys) return false;
  const size_t next = skip_blanks(s, nl);
  return next >= s.size() || s[next] == '{';
}

bool looks_like_json_records(const uint8_t* p, size_t n) {
  const std::string_view s(reinterpret_cast<const char*>(p), n);
  const size_t start = skip_blanks(s, 0);
  if (start >= s.size()) return false;
  if (s[start] == '{')
    return s.find("\"log_history\"") != std::string_view::npos &&
           s.find("\"traceEvents\"") == std::string_view::npos;
  if (s[start] != '[') return false;
  const size_t obj = skip_blanks(s, start + 1);
  if (obj >= s.size() || s[obj] != '{') return false;
  size_t at = obj;
  const JsonNumberSink none;
  if (!read_json_record_at(s, &at, none, nullptr)) return false;  // a first record in the head
  // Other tools' JSON tables are arrays of objects too: a record of metrics names a step or a
  // loss among its numbers.
  bool metrics = false;
  const JsonNumberSink look = [&](std::string_view key, double) {
    metrics = metrics || is_step_name(key) || ascii_lower(key).find("loss") != std::string::npos;
  };
  size_t again = obj;
  read_json_record_at(s, &again, look, nullptr);
  return metrics;
}

void JsonRecordTaker::take(std::string_view object, uint64_t number, MetricsResult* out) {
  bool have_value = false, have_step = sel_.step == kLineStep;
  double value = 0;
  int64_t step = static_cast<int64_t>(number);
  const JsonNumberSink sink = [&](std::string_view key, double v) {
    series_.add(key, &out->series_keys);
    if (is_step_name(key)) steps_.add(key, &out->step_keys);
    if (key == sel_.series) have_value = true, value = v;
    if (!sel_.step.empty() && key == sel_.step) have_step = as_step(v, &step);
  };
  std::string why;
  ++out->records;
  if (!read_json_record(object, sink, &why)) {
    if (out->skipped++ == 0)
      out->first_skip = "record " + std::to_string(number) + " is not a JSON object (" + why + ")";
    return;
  }
  if (have_value && have_step) {
    out->points.iteration.push_back(step);
    out->points.loss.push_back(value);
  }
}

void JsonLinesReader::line(std::string_view text) {
  ++line_no_;
  if (skip_blanks(text, 0) == text.size()) return;
  taker_.take(text, line_no_, &result_);
}

void JsonLinesReader::feed(const uint8_t* data, size_t n) {
  const char* p = reinterpret_cast<const char*>(data);
  const char* end = p + n;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = nl ? nl : end;
    const size_t k = static_cast<size_t>(stop - p);
    if (!nl && carry_.empty() && !carry_too_long_) {
      carry_.assign(p, std::min(k, kMaxLine));
      carry_too_long_ = k > kMaxLine;
      return;
    }
    if (!nl) {
      if (carry_.size() + k > kMaxLine) carry_too_long_ = true;
      if (!carry_too_long_) carry_.append(p, k);
      return;
    }
    if (carry_.empty() && !carry_too_long_) {
      line(std::string_view(p, k));
    } else {
      if (carry_.size() + k > kMaxLine) carry_too_long_ = true;
      if (carry_too_long_) {
        ++line_no_;
        ++result_.records;
        skip("line " + std::to_string(line_no_) + " is longer than 1 MB");
      } else {
        carry_.append(p, k);
        line(carry_);
      }
      carry_.clear();
      carry_too_long_ = false;
    }
    p = nl + 1;
  }
}

void JsonLinesReader::finish() {
  if (carry_too_long_) {
    ++line_no_;
    ++result_.records;
    skip("line " + std::to_string(line_no_) + " is longer than 1 MB");
  } else if (!carry_.empty()) {
    line(carry_);
  }
  carry_.clear();
  carry_too_long_ = false;
}

void JsonRecordsReader::feed(const uint8_t* data, size_t n) {
  if (too_big_ || text_.size() + n > kMaxBytes) {
    too_big_ = true;
    return;
  }
  text_.append(reinterpret_cast<const char*>(data), n);
}

void JsonRecordsReader::finish() {
  if (too_big_) {
    result_.error = "the JSON document is larger than 256 MB: write it as JSON lines";
    return;
  }
  const std::string_view s(text_);
  size_t at = skip_blanks(s, 0);
  if (at < s.size() && s[at] == '{') {
    // trainer_state.json: the records are the "log_history" array.
    const size_t key = s.find("\"log_history\"");
    if (key == std::string_view::npos) {
      result_.error = "no \"log_history\" array in the JSON document";
      return;
    }
    at = skip_blanks(s, key + 13);
    if (at < s.size() && s[at] == ':') at = skip_blanks(s, at + 1);
  }
  if (at >= s.size() || s[at] != '[') {
    result_.error = "the records are not a JSON array";
    return;
  }
  at = skip_blanks(s, at + 1);
  uint64_t number = 0;
  while (at < s.size() && s[at] != ']') {
    const size_t begin = at;
    ++number;
    if (s[at] == '{') {
      const JsonNumberSink none;
      if (!read_json_record_at(s, &at, none, nullptr)) {
        result_.error = "record " + std::to_string(number) + " at byte " + std::to_string(begin) +
                        " is not well-formed JSON";
        return;
      }
      taker_.take(s.substr(begin, at - begin), number, &result_);
    } else if (!skip_json_value(s, &at)) {
      result_.error = "the value at byte " + std::to_string(begin) + " is not well-formed JSON";
      return;
    } else {
      ++result_.records;
      skip("record " + std::to_string(number) + " is not an object");
    }
    at = skip_blanks(s, at);
    if (at < s.size() && s[at] == ',') at = skip_blanks(s, at + 1);
  }
  if (at >= s.size()) result_.error = "the JSON document ends inside its records";
  std::string().swap(text_);
}

}  // namespace strata
