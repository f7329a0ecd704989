// json_flatten: an explicit stack of open containers replaces recursion, so hostile nesting in
// a selected event costs a bounded vector, never the (small, in wasm) native stack.
#include "core/formats/json/json_flat.h"

#include "core/base/string_table.h"
#include "core/formats/chrome_json/json_scan.h"

namespace strata {

namespace {

using json::Scan;

struct Frame {
  bool is_object;
  uint32_t index;  // members / elements seen so far
};

class Flattener {
 public:
  Flattener(std::string_view text, std::vector<JsonLine>* out, std::string* error)
      : b_(text.data()), e_(text.data() + text.size()), p_(b_), out_(out), error_(error) {}

  bool run() {
    out_->clear();
    p_ = json::skip_ws(p_, e_);
    if (p_ >= e_) return fail("empty input");
    if (*p_ == '{' || *p_ == '[') {
      stack_.push_back(Frame{*p_ == '{', 0});
      ++p_;
    } else {
      JsonLine line;
      if (!scalar(&line)) return false;
      out_->push_back(std::move(line));
    }
    while (!stack_.empty()) {
      if (!step()) return false;
    }
    p_ = json::skip_ws(p_, e_);
    if (p_ < e_) return fail("unexpected content after the JSON value");
    return true;
  }

 private:
  bool fail(const char* why) {
    *error_ = std::string(why) + " at byte " + std::to_string(p_ - b_);
    return false;
  }

  // One member/element of the innermost open container, or its closing bracket.
  bool step() {
    Frame& f = stack_.back();
    const char close = f.is_object ? '}' : ']';
    p_ = json::skip_ws(p_, e_);
    if (p_ >= e_) return fail("unexpected end of input");
    if (*p_ == close) {
      ++p_;
      stack_.pop_back();
      return true;
    }
    if (f.index > 0) {
      if (*p_ != ',') return fail(f.is_object ? "expected ',' or '}'" : "expected ',' or ']'");
      p_ = json::skip_ws(p_ + 1, e_);
      if (p_ >= e_) return fail("unexpected end of input");
    }
    JsonLine line;
    line.depth = static_cast<uint16_t>(stack_.size() - 1);
    if (f.is_object) {
      if (*p_ != '"') return fail("expected a quoted key");
      if (!string(&line.key)) return false;
      p_ = json::skip_ws(p_, e_);
      if (p_ >= e_ || *p_ != ':') return fail("expected ':' after a key");
      p_ = json::skip_ws(p_ + 1, e_);
      if (p_ >= e_) return fail("unexpected end of input");
    } else {
      line.key = "[" + std::to_string(f.index) + "]";
    }
    ++f.index;  // before any push_back below invalidates `f`
    if (*p_ == '{' || *p_ == '[') {
      if (stack_.size() >= static_cast<size_t>(json::kMaxDepth))
        return fail("nesting deeper than 256 levels");
      line.kind = *p_ == '{' ? 'o' : 'a';
      out_->push_back(std::move(line));
      stack_.push_back(Frame{*p_ == '{', 0});
      ++p_;
      return true;
    }
    if (!scalar(&line)) return false;
    out_->push_back(std::move(line));
    return true;
  }

  // A string at p_ (its opening quote), unescaped and made valid UTF-8.
  bool string(std::string* dst) {
    const char* close;
    bool esc;
    if (json::find_string_end(p_ + 1, e_, &close, &esc) != Scan::kOk)
      return fail("unterminated string");
    dst->clear();
    if (esc) {
      const char* reason = "";
      if (!json::unescape(p_ + 1, close, dst, &reason)) return fail(reason);
    } else {
      dst->assign(p_ + 1, close);
    }
    if (!is_valid_utf8(*dst)) *dst = sanitize_utf8(*dst);
    p_ = close + 1;
    return true;
  }

  bool scalar(JsonLine* line) {
    const char c = *p_;
    if (c == '"') {
      line->kind = 's';
      return string(&line->value);
    }
    const char* q = nullptr;
    Scan s;
    if (c == 't' || c == 'f' || c == 'n') {
      std::string_view lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
      if (static_cast<size_t>(e_ - p_) < lit.size() || std::string_view(p_, lit.size()) != lit)
        return fail("invalid literal");
      line->kind = c == 'n' ? 'z' : 'b';
      line->value.assign(lit);
      p_ += lit.size();
      return true;
    }
    s = json::scan_number(p_, e_, &q);
    // A number may legitimately end the text (a scalar root): complete if it ends in a digit.
    if (s == Scan::kIncomplete && e_ > p_ && e_[-1] >= '0' && e_[-1] <= '9') {
      s = Scan::kOk;
      q = e_;
    }
    if (s != Scan::kOk) return fail("invalid value");
    line->kind = 'n';
    line->value.assign(p_, q);
    p_ = q;
    return true;
  }

  const char* b_;
  const char* e_;
  const char* p_;
  std::vector<JsonLine>* out_;
  std::string* error_;
  std::vector<Frame> stack_;
};

}  // namespace

bool json_flatten(std::string_view json_object_text, std::vector<JsonLine>* out,
                  std::string* error) {
  std::string ignored;
  return Flattener(json_object_text, out, error ? error : &ignored).run();
}

}  // namespace strata
