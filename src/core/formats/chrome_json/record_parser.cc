// One-pass parse of a trace event object. Only the top level of the object is walked member by
// member; values of keys we do not use (and args, whose span is kept for later) are jumped over
// with json::skip_value, which still validates them so a broken record is detected as a whole.
#include "core/formats/chrome_json/record_parser.h"

#include <cstring>

namespace strata::chrome_json {

using json::Scan;

namespace {

enum class Field : uint8_t {
  kOther,
  kPh,
  kName,
  kCat,
  kScope,
  kTs,
  kDur,
  kPid,
  kTid,
  kId,
  kArgs,
  kBp,
  kSf,
  kParent,
  kId2,
};

// Keys are compared by length first: the hot keys are 1-4 bytes long.
Field classify(std::string_view k) {
  switch (k.size()) {
    case 1:
      return k[0] == 's' ? Field::kScope : Field::kOther;
    case 2:
      if (k[0] == 'p' && k[1] == 'h') return Field::kPh;
      if (k[0] == 't' && k[1] == 's') return Field::kTs;
      if (k[0] == 'i' && k[1] == 'd') return Field::kId;
      if (k[0] == 's' && k[1] == 'f') return Field::kSf;
      if (k[0] == 'b' && k[1] == 'p') return Field::kBp;
      return Field::kOther;
    case 3:
      if (std::memcmp(k.data(), "pid", 3) == 0) return Field::kPid;
      if (std::memcmp(k.data(), "tid", 3) == 0) return Field::kTid;
      if (std::memcmp(k.data(), "dur", 3) == 0) return Field::kDur;
      if (std::memcmp(k.data(), "cat", 3) == 0) return Field::kCat;
      if (std::memcmp(k.data(), "id2", 3) == 0) return Field::kId2;
      return Field::kOther;
    case 4:
      if (std::memcmp(k.data(), "name", 4) == 0) return Field::kName;
      if (std::memcmp(k.data(), "args", 4) == 0) return Field::kArgs;
      return Field::kOther;
    case 6:
      return std::memcmp(k.data(), "parent", 6) == 0 ? Field::kParent : Field::kOther;
    default:
      return Field::kOther;
  }
}

// `text` followed by its closing quote, as the little-endian word its bytes load as, and the
// mask of those bytes: a key is recognised with one 8-byte load, an AND and a compare.
constexpr uint64_t key_word(const char* text) {
  uint64_t w = 0;
  int i = 0;
  for (; text[i]; ++i) w |= uint64_t{static_cast<unsigned char>(text[i])} << (8 * i);
  return w | (uint64_t{'"'} << (8 * i));
}
constexpr uint64_t key_mask(int len) {
  return len >= 7 ? ~uint64_t{0} : (uint64_t{1} << (8 * (len + 1))) - 1;
}

// The fields we use, recognised from the key's first 8 bytes (kb is just past the opening
// quote; at least 8 bytes must be readable). Matching the closing quote too means the key is
// exactly that text, without escapes. Returns false for any other key (the caller then scans
// and classifies it the general way), else the field and the key's length.
inline bool match_key(const char* kb, Field* f, size_t* len) {
  uint64_t w;
  std::memcpy(&w, kb, 8);
#define STRATA_KEY(text, field)                             \
  if ((w & key_mask(sizeof(text) - 1)) == key_word(text)) { \
    *f = field;                                             \
    *len = sizeof(text) - 1;                                \
    return true;                                            \
  }
  switch (static_cast<char>(w & 0xFF)) {
    case 'p':
      STRATA_KEY("ph", Field::kPh)
      STRATA_KEY("pid", Field::kPid)
      STRATA_KEY("parent", Field::kParent)
      break;
    case 't':
      STRATA_KEY("ts", Field::kTs)
      STRATA_KEY("tid", Field::kTid)
      break;
    case 'n':
      STRATA_KEY("name", Field::kName)
      break;
    case 'c':
      STRATA_KEY("cat", Field::kCat)
      break;
    case 'd':
      STRATA_KEY("dur", Field::kDur)
      break;
    case 'a':
      STRATA_KEY("args", Field::kArgs)
      break;
    case 'i':
      STRATA_KEY("id", Field::kId)
      STRATA_KEY("id2", Field::kId2)
      break;
    case 's':
      STRATA_KEY("s", Field::kScope)
      STRATA_KEY("sf", Field::kSf)
      break;
    case 'b':
      STRATA_KEY("bp", Field::kBp)
      break;
    default:
      break;
  }
#undef STRATA_KEY
  return false;
}

}  // namespace

Scan RecordParser::parse(const char* b, const char* e, EventRecord* rec, const char** end,
                         const char** reason, const char** err_at) {
  *rec = EventRecord{};
  auto fail = [&](const char* at, const char* why) {
    *err_at = at;
    *reason = why;
    return Scan::kError;
  };
  const char* p = json::skip_ws(b + 1, e);
  if (p >= e) return Scan::kIncomplete;
  if (*p == '}') {
    *end = p + 1;
    return Scan::kOk;
  }
  for (;;) {
    if (*p != '"') return fail(p, "expected a quoted key");
    const char* kb = p + 1;
    const char* close;
    bool esc;
    Field f;
    size_t klen;
    if (e - kb >= 8 && match_key(kb, &f, &klen)) {
      close = kb + klen;
    } else {
      if (json::find_string_end(kb, e, &close, &esc) != Scan::kOk) return Scan::kIncomplete;
      std::string_view key(kb, static_cast<size_t>(close - kb));
      if (esc) {
        key_buf_.clear();
        if (!json::unescape(kb, close, &key_buf_, reason)) return fail(kb, *reason);
        key = key_buf_;
      }
      f = classify(key);
    }
    p = json::skip_ws(close + 1, e);
    if (p >= e) return Scan::kIncomplete;
    if (*p != ':') return fail(p, "expected ':' after a key");
    p = json::skip_ws(p + 1, e);
    if (p >= e) return Scan::kIncomplete;

    const char* vb = p;
    if (f != Field::kOther && f != Field::kArgs && f != Field::kId2 && *p == '"') {
      // A string value for a field we use: locate it, unescape only when needed.
      const char* sb = p + 1;
      if (json::find_string_end(sb, e, &close, &esc) != Scan::kOk) return Scan::kIncomplete;
      p = close + 1;
      std::string_view text(sb, static_cast<size_t>(close - sb));
      if (esc) {
        std::string* buf = f == Field::kName     ? &name_buf_
                           : f == Field::kCat    ? &cat_buf_
                           : f == Field::kPid    ? &pid_buf_
                           : f == Field::kTid    ? &tid_buf_
                           : f == Field::kId     ? &id_buf_
                           : f == Field::kSf     ? &sf_buf_
                           : f == Field::kParent ? &parent_buf_
                                                 : &tmp_buf_;
        buf->clear();
        if (!json::unescape(sb, close, buf, reason)) return fail(sb, *reason);
        text = *buf;
      }
      uint32_t pos = static_cast<uint32_t>(sb - b);
      switch (f) {
        case Field::kPh:
          rec->ph = text.empty() ? 0 : text[0];
          break;
        case Field::kName:
          rec->has_name = true;
          rec->name = text;
          rec->name_pos = pos;
          rec->name_raw = !esc;
          break;
        case Field::kCat:
          rec->cat = text;
          rec->cat_pos = pos;
          rec->cat_raw = !esc;
          break;
        case Field::kScope:
          rec->scope = text.empty() ? 0 : text[0];
          break;
        case Field::kTs:
          rec->ts_state = json::us_text_to_ns(text, &rec->ts_ns) == Scan::kOk
                              ? FieldState::kOk
                              : FieldState::kInvalid;
          break;
        case Field::kDur:
          rec->dur_state = json::us_text_to_ns(text, &rec->dur_ns) == Scan::kOk
                               ? FieldState::kOk
                               : FieldState::kInvalid;
          break;
        case Field::kPid:
          rec->has_pid = true, rec->pid = text;
          break;
        case Field::kTid:
          rec->has_tid = true, rec->tid = text;
          break;
        case Field::kId:
          rec->has_id = true, rec->id = text;
          break;
        case Field::kBp:
          rec->bp = text.empty() ? 0 : text[0];
          break;
        case Field::kSf:
          rec->has_sf = true, rec->sf = text;
          break;
        case Field::kParent:
          rec->has_parent = true, rec->parent = text;
          break;
        default:
          break;
      }
    } else if ((f == Field::kTs || f == Field::kDur || f == Field::kPid || f == Field::kTid ||
                f == Field::kId || f == Field::kSf || f == Field::kParent) &&
               (*p == '-' || (*p >= '0' && *p <= '9'))) {
      const char* q;
      Scan s;
      if (f == Field::kTs || f == Field::kDur) {
        bool valid = false;
        int64_t* dst = f == Field::kTs ? &rec->ts_ns : &rec->dur_ns;
        s = json::scan_us_number(p, e, &q, dst, &valid);
        FieldState st = valid ? FieldState::kOk : FieldState::kInvalid;
        (f == Field::kTs ? rec->ts_state : rec->dur_state) = st;
      } else {
        s = json::scan_number(p, e, &q);
      }
      if (s == Scan::kIncomplete) return s;
      if (s == Scan::kError) return fail(p, "an invalid number");
      std::string_view text(p, static_cast<size_t>(q - p));
      p = q;
      switch (f) {
        case Field::kTs:
        case Field::kDur:
          break;
        case Field::kPid:
          rec->has_pid = true, rec->pid = text;
          break;
        case Field::kTid:
          rec->has_tid = true, rec->tid = text;
          break;
        case Field::kSf:
          rec->has_sf = true, rec->sf = text;
          break;
        case Field::kParent:
          rec->has_parent = true, rec->parent = text;
          break;
        default:
          rec->has_id = true, rec->id = text;
          break;
      }
    } else {
      // Anything else (unknown keys, args, or a used key with an odd value type) is skipped
      // over with validation. A ts/dur that is not a number or string is recorded as invalid.
      const char* q;
      Scan s = json::skip_value(p, e, &q, reason);
      if (s == Scan::kIncomplete) return s;
      if (s == Scan::kError) return fail(q, *reason);
      p = q;
      if (f == Field::kArgs && *vb == '{') {
        rec->args = std::string_view(vb, static_cast<size_t>(p - vb));
      } else if (f == Field::kId2 && *vb == '{') {
        if (!parse_id2(std::string_view(vb, static_cast<size_t>(p - vb)), rec))
          return fail(vb, "an invalid string in \"id2\"");
      } else if (f == Field::kTs && *vb != 'n') {
        rec->ts_state = FieldState::kInvalid;
      } else if (f == Field::kDur && *vb != 'n') {
        rec->dur_state = FieldState::kInvalid;
      }
    }

    p = json::skip_ws(p, e);
    if (p >= e) return Scan::kIncomplete;
    if (*p == '}') {
      *end = p + 1;
      return Scan::kOk;
    }
    if (*p != ',') return fail(p, "expected ',' or '}' after a value");
    p = json::skip_ws(p + 1, e);
    if (p >= e) return Scan::kIncomplete;
  }
}

// {"local": x} / {"global": x}: the first member whose key is one of those wins; x is a string
// or a number, kept as text like "id". The object was validated by skip_value.
bool RecordParser::parse_id2(std::string_view object, EventRecord* rec) {
  const char* p = object.data() + 1;
  const char* e = object.data() + object.size();
  const char* reason;
  for (;;) {
    p = json::skip_ws(p, e);
    if (p < e && *p == ',') p = json::skip_ws(p + 1, e);
    if (p >= e || *p != '"') return true;
    const char* close;
    bool esc;
    if (json::find_string_end(p + 1, e, &close, &esc) != Scan::kOk) return true;
    std::string_view key(p + 1, static_cast<size_t>(close - p - 1));
    p = json::skip_ws(close + 1, e);
    if (p >= e || *p != ':') return true;
    p = json::skip_ws(p + 1, e);
    const char* q;
    if (json::skip_value(p, e, &q, &reason) != Scan::kOk) return true;
    char scope = key == "local" ? 'l' : key == "global" ? 'g' : 0;
    if (scope) {
      std::string_view v(p, static_cast<size_t>(q - p));
      if (!v.empty() && v[0] == '"') {
        v = v.substr(1, v.size() - 2);
        if (v.find('\\') != std::string_view::npos) {
          id2_buf_.clear();
          if (!json::unescape(v.data(), v.data() + v.size(), &id2_buf_, &reason)) return false;
          v = id2_buf_;
        }
      }
      rec->id2_scope = scope;
      rec->id2 = v;
      return true;
    }
    p = q;
  }
}

void ObjectReader::reset(std::string_view object) {
  p_ = object.data();
  e_ = p_ + object.size();
  if (p_ < e_ && *p_ == '{') ++p_;
}

bool ObjectReader::next() {
  const char* reason;
  const char* p = json::skip_ws(p_, e_);
  if (p < e_ && *p == ',') p = json::skip_ws(p + 1, e_);
  if (p >= e_ || *p != '"') {
    p_ = e_;
    return false;
  }
  const char* close;
  bool esc;
  if (json::find_string_end(p + 1, e_, &close, &esc) != Scan::kOk) return (p_ = e_, false);
  key_ = std::string_view(p + 1, static_cast<size_t>(close - p - 1));
  if (esc) {
    key_buf_.clear();
    if (!json::unescape(p + 1, close, &key_buf_, &reason)) return (p_ = e_, false);
    key_ = key_buf_;
  }
  p = json::skip_ws(close + 1, e_);
  if (p >= e_ || *p != ':') return (p_ = e_, false);
  p = json::skip_ws(p + 1, e_);
  if (p >= e_) return (p_ = e_, false);
  const char* q;
  if (*p == '"') {
    if (json::find_string_end(p + 1, e_, &close, &esc) != Scan::kOk) return (p_ = e_, false);
    value_ = std::string_view(p + 1, static_cast<size_t>(close - p - 1));
    if (esc) {
      value_buf_.clear();
      if (!json::unescape(p + 1, close, &value_buf_, &reason)) return (p_ = e_, false);
      value_ = value_buf_;
    }
    kind_ = Kind::kString;
    p_ = close + 1;
    return true;
  }
  if (*p == '-' || (*p >= '0' && *p <= '9') || *p == 'N' || *p == 'I') {
    if (json::scan_number(p, e_, &q) != Scan::kOk) return (p_ = e_, false);
    value_ = std::string_view(p, static_cast<size_t>(q - p));
    kind_ = Kind::kNumber;
    p_ = q;
    return true;
  }
  if (json::skip_value(p, e_, &q, &reason) != Scan::kOk) return (p_ = e_, false);
  value_ = std::string_view(p, static_cast<size_t>(q - p));
  kind_ = Kind::kOther;
  p_ = q;
  return true;
}

}  // namespace strata::chrome_json
