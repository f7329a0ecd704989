#include "core/runs/trace_head.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>

#include "core/formats/compression/stream_decoder.h"

namespace strata {

namespace {

struct Cursor {
  std::string_view s;
  size_t i = 0;
  bool done() const { return i >= s.size(); }
  void skip_space() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  // A JSON string at i ('"' there): its raw text (escapes kept), i past it. False when cut off.
  bool string(std::string_view* out) {
    const size_t start = ++i;
    while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
    if (i >= s.size()) return false;
    *out = s.substr(start, i - start);
    ++i;
    return true;
  }
  // Any JSON value at i, skipped (nested objects and arrays by depth, strings whole).
  bool skip_value() {
    skip_space();
    if (done()) return false;
    if (s[i] == '"') {
      std::string_view ignored;
      return string(&ignored);
    }
    if (s[i] != '{' && s[i] != '[') {
      while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']') ++i;
      return !done();
    }
    int depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        std::string_view ignored;
        if (!string(&ignored)) return false;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      ++i;
      if (depth == 0) return true;
    }
    return false;
  }
  // An integer at i, or -1 when the value is not one.
  int64_t integer() {
    skip_space();
    int64_t v = 0;
    bool any = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      v = v * 10 + (s[i] - '0');
      any = true;
      ++i;
      if (v > (int64_t{1} << 40)) return -1;
    }
    return any ? v : -1;
  }
};

}  // namespace

TraceRank trace_head_rank(std::string_view text) {
  TraceRank r;
  Cursor c{text};
  c.skip_space();
  if (c.done() || text[c.i] != '{') return r;
  ++c.i;
  // The top-level members, in order, until distributedInfo (or traceEvents, after which a
  // head rarely reaches it).
  for (;;) {
    c.skip_space();
    if (c.done() || text[c.i] != '"') return r;
    std::string_view key;
    if (!c.string(&key)) return r;
    c.skip_space();
    if (c.done() || text[c.i] != ':') return r;
    ++c.i;
    if (key == "traceEvents") return r;
    c.skip_space();
    if (key == "distributedInfo" && !c.done() && text[c.i] == '{') {
      ++c.i;
      for (;;) {
        c.skip_space();
        if (c.done() || text[c.i] != '"') return r;
        std::string_view member;
        if (!c.string(&member)) return r;
        c.skip_space();
        if (c.done() || text[c.i] != ':') return r;
        ++c.i;
        c.skip_space();
        if (member == "rank") {
          r.rank = c.integer();
        } else if (member == "world_size") {
          r.world_size = c.integer();
        } else if (!c.skip_value()) {
          return r;
        }
        c.skip_space();
        if (c.done() || text[c.i] != ',') return r;
        ++c.i;
      }
    }
    if (!c.skip_value()) return r;
    c.skip_space();
    if (c.done() || text[c.i] != ',') return r;
    ++c.i;
  }
}

TraceRank trace_head_rank_of_file(const uint8_t* head, size_t n) {
  const Compression c = sniff_compression(head, n);
  if (c == Compression::kNone)
    return trace_head_rank(
        std::string_view(reinterpret_cast<const char*>(head), std::min(n, kTraceHeadText)));
  std::string text;
  std::unique_ptr<StreamDecoder> d = make_stream_decoder(c);
  constexpr size_t kStep = 16 << 10;
  for (size_t at = 0; at < n && text.size() < kTraceHeadText; at += kStep) {
    const bool ok = d->feed(head + at, std::min(kStep, n - at), [&](const uint8_t* p, size_t k) {
      text.append(reinterpret_cast<const char*>(p), std::min(k, kTraceHeadText - text.size()));
    });
    if (!ok) break;
  }
  return trace_head_rank(text);
}

}  // namespace strata
