#include "core/formats/loss_log/delimited_reader.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/base/text.h"

namespace strata {

namespace {

// A whole field as a number (blanks around it allowed; nan / inf in any case too).
bool field_number(std::string_view s, double* v) {
  s = trim(s);
  if (s.empty() || s.size() > 64) return false;
  char buf[72];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = 0;
  const char c = buf[0] == '-' || buf[0] == '+' ? buf[1] : buf[0];
  if (!((c >= '0' && c <= '9') || c == '.' || c == 'n' || c == 'N' || c == 'i' || c == 'I'))
    return false;
  char* end = nullptr;
  *v = std::strtod(buf, &end);
  return end == buf + s.size();
}

// Delimiters outside quotes on one row of text, per candidate.
char choose_delimiter(std::string_view row) {
  size_t tab = 0, semi = 0, comma = 0;
  bool q = false;
  for (char c : row) {
    if (c == '"') q = !q;
    if (q) continue;
    tab += c == '\t', semi += c == ';', comma += c == ',';
  }
  if (tab && tab >= semi && tab >= comma) return '\t';
  if (semi && semi > comma) return ';';
  return comma ? ',' : 0;
}

// Splits one unquoted-or-quoted row (no embedded newline) for the sniffer.
std::vector<std::string> split_row(std::string_view row, char d) {
  std::vector<std::string> out(1);
  bool q = false;
  for (size_t i = 0; i < row.size(); ++i) {
    const char c = row[i];
    if (c == '"') {
      if (q && i + 1 < row.size() && row[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else {
        q = !q;
      }
    } else if (c == d && !q) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

}  // namespace

bool looks_like_delimited_metrics(const uint8_t* p, size_t n) {
  const std::string_view s(reinterpret_cast<const char*>(p), n);
  size_t at = s.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (at < s.size() && (s[at] == '\n' || s[at] == '\r')) ++at;
  const size_t nl1 = s.find('\n', at);
  if (nl1 == std::string_view::npos) return false;
  const std::string_view head = s.substr(at, nl1 - at);
  const char d = choose_delimiter(head);
  if (!d) return false;
  const std::vector<std::string> names = split_row(head, d);
  bool any_name = false;
  for (const std::string& f : names) {
    const std::string_view t = trim(f);
    double v;
    if (t.empty() || t.size() > 256) return false;
    if (!field_number(t, &v)) any_name = true;
  }
  if (names.size() < 2 || !any_name) return false;
  size_t nl2 = s.find('\n', nl1 + 1);
  if (nl2 == std::string_view::npos) nl2 = s.size();
  const std::vector<std::string> row = split_row(s.substr(nl1 + 1, nl2 - nl1 - 1), d);
  if (row.size() != names.size()) return false;
  for (const std::string& f : row) {
    double v;
    if (field_number(f, &v)) return true;
  }
  return false;
}

void DelimitedReader::header(std::vector<std::string>& names) {
  names_.clear();
  for (size_t c = 0; c < names.size(); ++c) {
    names_.emplace_back(trim(names[c]));
    if (is_step_name(names_.back())) keys_.add(names_.back(), &result_.step_keys);
    if (names_.back() == sel_.series) series_col_ = static_cast<int>(c);
    if (!sel_.step.empty() && names_.back() == sel_.step) step_col_ = static_cast<int>(c);
  }
  listed_.assign(names_.size(), false);
}

void DelimitedReader::end_field() {
  if (fields_.size() < kMaxFields) fields_.push_back(std::move(field_));
  field_.clear();
  quoted_ = after_quote_ = field_started_ = false;
}

void DelimitedReader::end_row() {
  end_field();
  const bool empty = fields_.size() == 1 && trim(fields_[0]).empty();
  if (empty) {
    fields_.clear();
    return;
  }
  if (names_.empty()) {
    header(fields_);
    fields_.clear();
    return;
  }
  ++row_no_;
  ++result_.records;
  if (fields_.size() != names_.size())
    skip("row " + std::to_string(row_no_) + " has " + std::to_string(fields_.size()) +
         " fields, the header " + std::to_string(names_.size()));
  double v = 0, series = 0, step_v = 0;
  bool have_series = false, have_step = sel_.step == kLineStep;
  for (size_t c = 0; c < fields_.size() && c < names_.size(); ++c) {
    if (!field_number(fields_[c], &v)) continue;
    if (!listed_[c]) {
      listed_[c] = true;
      if (result_.series_keys.size() < kMaxKeys) result_.series_keys.push_back(names_[c]);
    }
    if (static_cast<int>(c) == series_col_) have_series = true, series = v;
    if (static_cast<int>(c) == step_col_)
      have_step = std::isfinite(v) && std::fabs(v) < 9e18, step_v = v;
  }
  fields_.clear();
  if (!have_series || !have_step) return;
  result_.points.iteration.push_back(step_col_ >= 0 ? std::llround(step_v)
                                                    : static_cast<int64_t>(row_no_));
  result_.points.loss.push_back(series);
}

void DelimitedReader::feed(const uint8_t* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const char c = static_cast<char>(data[i]);
    if (!delim_) {
      // The header row decides the delimiter: hold it (quotes and all) until its newline.
      if (c == '\n') {
        delim_ = choose_delimiter(head_);
        if (!delim_) delim_ = ',';
        const std::string row = std::move(head_);
        head_.clear();
        feed(reinterpret_cast<const uint8_t*>(row.data()), row.size());
        end_row();
        if (names_.empty()) delim_ = 0;  // a blank line before the header
      } else if (head_.size() < kMaxField) {
        head_ += c;
      }
      continue;
    }
    if (quoted_) {
      if (c == '"') {
        quoted_ = false, after_quote_ = true;
      } else if (field_.size() < kMaxField) {
        field_ += c;
      }
      continue;
    }
    if (c == '"') {
      if (after_quote_) {
        field_ += '"';  // "" inside a quoted field
        quoted_ = true, after_quote_ = false;
      } else if (!field_started_) {
        quoted_ = field_started_ = true;
      } else if (field_.size() < kMaxField) {
        field_ += c;
      }
      continue;
    }
    if (c == delim_) {
      end_field();
    } else if (c == '\n') {
      end_row();
    } else {
      after_quote_ = false;
      if (c != ' ' && c != '\t') field_started_ = true;
      if (field_.size() < kMaxField) field_ += c;
    }
  }
}

void DelimitedReader::finish() {
  if (!delim_ && !head_.empty()) {
    const uint8_t nl = '\n';
    feed(&nl, 1);
  }
  if (!field_.empty() || !fields_.empty()) end_row();
}

}  // namespace strata
