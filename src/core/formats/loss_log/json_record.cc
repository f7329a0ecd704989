#include "core/formats/loss_log/json_record.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace strata {

namespace {

struct Parser {
  std::string_view s;
  size_t i = 0;
  const JsonNumberSink* sink = nullptr;  // null: skip only
  std::string key;                       // the current path
  const char* why = "";

  void blanks() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
  }
  bool fail(const char* w) {
    why = w;
    return false;
  }
  bool literal(std::string_view word) {
    if (s.substr(i, word.size()) != word) return fail("unknown word");
    i += word.size();
    return true;
  }
  static void append_utf8(std::string* out, uint32_t c) {
    if (c < 0x80) {
      out->push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (c >> 6)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (c >> 12)));
      out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (c >> 18)));
      out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  bool hex4(uint32_t* out) {
    if (s.size() - i < 4) return fail("cut \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s[i++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<uint32_t>(c - 'A' + 10);
      else
        return fail("bad \\u escape");
    }
    *out = v;
    return true;
  }
  // A string at s[i] == '"'; its text into `out` when out is not null.
  bool string(std::string* out) {
    ++i;
    while (i < s.size()) {
      const char c = s[i++];
      if (c == '"') return true;
      if (c != '\\') {
        if (out) out->push_back(c);
        continue;
      }
      if (i >= s.size()) break;
      const char e = s[i++];
      char plain = 0;
      switch (e) {
        case '"':
          plain = '"';
          break;
        case '\\':
          plain = '\\';
          break;
        case '/':
          plain = '/';
          break;
        case 'b':
          plain = '\b';
          break;
        case 'f':
          plain = '\f';
          break;
        case 'n':
          plain = '\n';
          break;
        case 'r':
          plain = '\r';
          break;
        case 't':
          plain = '\t';
          break;
        case 'u': {
          uint32_t c1;
          if (!hex4(&c1)) return false;
          if (c1 >= 0xD800 && c1 < 0xDC00 && s.substr(i, 2) == "\\u") {
            i += 2;
            uint32_t c2;
            if (!hex4(&c2)) return false;
            if (c2 >= 0xDC00 && c2 < 0xE000) c1 = 0x10000 + ((c1 - 0xD800) << 10) + (c2 - 0xDC00);
          }
          if (out) append_utf8(out, c1);
          continue;
        }
        default:
          return fail("bad escape");
      }
      if (out) out->push_back(plain);
    }
    return fail("unterminated string");
  }
  bool number(double* v) {
    const size_t start = i;
    if (i < s.size() && s[i] == '-') ++i;
    if (s.substr(i, 8) == "Infinity") {
      i += 8;
      *v = s[start] == '-' ? -INFINITY : INFINITY;
      return true;
    }
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' ||
                            s[i] == 'E' || s[i] == '+' || s[i] == '-'))
      ++i;
    const size_t len = i - start;
    if (len == 0 || len > 64) return fail("bad number");
    char buf[72];
    std::memcpy(buf, s.data() + start, len);
    buf[len] = 0;
    char* end = nullptr;
    *v = std::strtod(buf, &end);
    if (end != buf + len) return fail("bad number");
    return true;
  }
  void emit(double v) {
    if (sink && *sink) (*sink)(key, v);
  }
  bool value(int depth) {
    if (depth > kJsonRecordMaxDepth) return fail("nested too deep");
    blanks();
    if (i >= s.size()) return fail("cut value");
    const char c = s[i];
    if (c == '{') return object(depth + 1);
    if (c == '[') return array(depth + 1);
    if (c == '"') return string(nullptr);
    if (c == 't') return literal("true");
    if (c == 'f') return literal("false");
    if (c == 'n') return literal("null");
    if (c == 'N') {
      if (!literal("NaN")) return false;
      emit(std::nan(""));
      return true;
    }
    double v;
    if (!number(&v)) return false;
    emit(v);
    return true;
  }
  bool array(int depth) {
    ++i;
    const bool keep = sink != nullptr;
    const JsonNumberSink* saved = sink;
    sink = nullptr;  // numbers inside arrays are not series
    blanks();
    bool ok = true;
    if (i < s.size() && s[i] == ']') {
      ++i;
    } else {
      for (;;) {
        if (!value(depth)) {
          ok = false;
          break;
        }
        blanks();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == ']') {
          ++i;
          break;
        }
        ok = fail("expected , or ] in an array");
        break;
      }
    }
    sink = keep ? saved : nullptr;
    return ok;
  }
  bool object(int depth) {
    ++i;
    const size_t base = key.size();
    blanks();
    if (i < s.size() && s[i] == '}') {
      ++i;
      return true;
    }
    for (;;) {
      blanks();
      if (i >= s.size() || s[i] != '"') return fail("expected a key");
      std::string name;
      if (!string(sink ? &name : nullptr)) return false;
      blanks();
      if (i >= s.size() || s[i] != ':') return fail("expected :");
      ++i;
      if (sink) {
        if (base) key += '/';
        key += name;
      }
      if (!value(depth)) return false;
      key.resize(base);
      blanks();
      if (i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (i < s.size() && s[i] == '}') {
        ++i;
        return true;
      }
      return fail("expected , or } in an object");
    }
  }
};

}  // namespace

bool read_json_record_at(std::string_view text, size_t* at, const JsonNumberSink& sink,
                         std::string* why) {
  Parser p{text, *at, &sink, {}, ""};
  p.blanks();
  bool ok = p.i < text.size() && text[p.i] == '{';
  if (!ok) p.why = "not an object";
  ok = ok && p.object(1);
  if (!ok && why) *why = p.why;
  if (ok) *at = p.i;
  return ok;
}

bool read_json_record(std::string_view text, const JsonNumberSink& sink, std::string* why) {
  size_t at = 0;
  if (!read_json_record_at(text, &at, sink, why)) return false;
  Parser p{text, at, nullptr, {}, ""};
  p.blanks();
  if (p.i != text.size()) {
    if (why) *why = "text after the object";
    return false;
  }
  return true;
}

bool skip_json_value(std::string_view text, size_t* at) {
  Parser p{text, *at, nullptr, {}, ""};
  if (!p.value(0)) return false;
  *at = p.i;
  return true;
}

}  // namespace strata
