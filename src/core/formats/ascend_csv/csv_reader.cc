#include "core/formats/ascend_csv/csv_reader.h"

#include <cctype>
#include <cstdlib>

#include "core/base/text.h"

namespace strata {

namespace {

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

}  // namespace

int CsvTable::column(std::string_view name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (iequal(trim(header[i]), trim(name))) return static_cast<int>(i);
  return -1;
}

const std::string& CsvTable::cell(size_t row, int col) const {
  static const std::string kEmpty;
  if (col < 0 || row >= rows.size() || static_cast<size_t>(col) >= rows[row].size()) return kEmpty;
  return rows[row][static_cast<size_t>(col)];
}

bool csv_parse(std::string_view text, CsvTable* out, std::string* error) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, field_was_quoted = false;
  size_t line = 1;
  auto end_field = [&] {
    row.push_back(field_was_quoted ? field : std::string(trim(field)));
    field.clear();
    field_was_quoted = false;
  };
  auto end_row = [&] {
    end_field();
    const bool blank = row.size() == 1 && row[0].empty();
    if (!blank) {
      if (out->header.empty())
        out->header = std::move(row);
      else
        out->rows.push_back(std::move(row));
    }
    row.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
    } else if (c == '"' && trim(field).empty()) {
      field.clear();
      quoted = field_was_quoted = true;
    } else if (c == ',') {
      end_field();
    } else if (c == '\n') {
      end_row();
      ++line;
    } else if (!(field_was_quoted && (c == ' ' || c == '\t' || c == '\r'))) {
      field += c;
    }
  }
  if (quoted) {
    *error = "a quoted field opened on line " + std::to_string(line) + " never closes";
    return false;
  }
  if (!field.empty() || !row.empty()) end_row();
  if (out->header.empty()) {
    *error = "no header line";
    return false;
  }
  return true;
}

bool csv_parse_us_to_ns(std::string_view s, int64_t* ns) {
  s = trim(s);
  bool neg = false;
  if (!s.empty() && s[0] == '-') neg = true, s.remove_prefix(1);
  if (s.empty()) return false;
  int64_t whole = 0, frac = 0;
  size_t i = 0;
  int digits = 0;
  for (; i < s.size() && s[i] != '.'; ++i) {
    if (s[i] < '0' || s[i] > '9' || whole > (INT64_MAX / 10 - 9) / 1000) return false;
    whole = whole * 10 + (s[i] - '0');
    ++digits;
  }
  if (i < s.size()) {  // the '.'
    int scale = 100;
    for (++i; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      if (scale >= 1) frac += (s[i] - '0') * scale;  // sub-ns digits are dropped
      scale /= 10;
      ++digits;
    }
  }
  if (!digits) return false;
  *ns = (neg ? -1 : 1) * (whole * 1000 + frac);
  return true;
}

bool csv_parse_number(std::string_view s, double* v) {
  s = trim(s);
  if (s.empty()) return false;
  std::string tmp(s);
  char* end = nullptr;
  *v = std::strtod(tmp.c_str(), &end);
  return end == tmp.c_str() + tmp.size();
}

}  // namespace strata
