// XLA writes these sections token by token and its parser reads them as tokens, so nothing
// here depends on line breaks; entries are positional (XLA's parser ignores the leading number
// too), and names are C-escaped (absl::CEscape: \n, \", \\, and octal for bytes outside ASCII
// such as UTF-8 paths).
#include "core/formats/hlo/hlo_text_sections.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace strata::hlo {
namespace {

constexpr std::string_view kSections[] = {"FileNames", "FunctionNames", "FileLocations",
                                          "StackFrames"};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool starts_word(std::string_view text, size_t at, std::string_view word) {
  return text.substr(at, word.size()) == word &&
         (at + word.size() >= text.size() || !is_word_char(text[at + word.size()]));
}

void skip_blank(std::string_view text, size_t* at) {
  while (*at < text.size()) {
    const char c = text[*at];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++*at;
    } else if (c == '/' && *at + 1 < text.size() && text[*at + 1] == '/') {
      size_t nl = text.find('\n', *at);
      *at = nl == std::string_view::npos ? text.size() : nl + 1;
    } else {
      break;
    }
  }
}

// absl::CUnescape's cases: simple escapes, up to three octal digits, \x with hex digits.
std::string c_unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    if (e >= '0' && e <= '7') {
      int v = 0, digits = 0;
      while (digits < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7') {
        v = v * 8 + (s[i++] - '0');
        ++digits;
      }
      --i;
      out += static_cast<char>(v);
    } else if (e == 'x' && i + 1 < s.size()) {
      int v = 0;
      size_t j = i + 1;
      for (; j < s.size() && j < i + 3 && std::isxdigit(static_cast<unsigned char>(s[j])); ++j)
        v = v * 16 + (is_digit(s[j]) ? s[j] - '0' : (s[j] | 0x20) - 'a' + 10);
      if (j == i + 1) {
        out += 'x';
      } else {
        out += static_cast<char>(v);
        i = j - 1;
      }
    } else {
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
    }
  }
  return out;
}

int32_t to_int32(std::string_view v) {
  int64_t n = 0;
  std::from_chars(v.data(), v.data() + v.size(), n);
  return static_cast<int32_t>(std::clamp<int64_t>(n, INT32_MIN, INT32_MAX));
}

// `{key=int key=int ...}` (spaces or commas between): calls set(key, value) for each.
template <typename Set>
bool read_attributes(std::string_view text, size_t* at, Set set) {
  if (*at >= text.size() || text[*at] != '{') return false;
  const size_t close = text.find('}', *at);
  if (close == std::string_view::npos) return false;
  std::string_view body = text.substr(*at + 1, close - *at - 1);
  *at = close + 1;
  size_t k = 0;
  while (k < body.size()) {
    while (k < body.size() && !is_word_char(body[k])) ++k;
    const size_t kb = k;
    while (k < body.size() && body[k] != '=' && is_word_char(body[k])) ++k;
    std::string_view key = body.substr(kb, k - kb);
    if (k >= body.size() || body[k] != '=') break;
    const size_t vb = ++k;
    while (k < body.size() && (is_digit(body[k]) || body[k] == '-')) ++k;
    set(key, to_int32(body.substr(vb, k - vb)));
  }
  return true;
}

// XLA's 1-based table references; 0 (or less) means none.
uint32_t index_of_id(int32_t id) { return id > 0 ? static_cast<uint32_t>(id - 1) : kNone; }

}  // namespace

uint32_t frame_index_of_id(int64_t id) {
  return id > 0 && id <= INT32_MAX ? static_cast<uint32_t>(id - 1) : kNone;
}

bool at_stack_frame_section(std::string_view text, size_t at) {
  for (std::string_view w : kSections)
    if (starts_word(text, at, w)) return true;
  return false;
}

bool parse_stack_frame_sections(std::string_view text, size_t* at, HloModule* m, size_t* fail_at,
                                std::string* why) {
  auto fail = [&](size_t where, std::string message) {
    *fail_at = where;
    *why = std::move(message);
    return false;
  };
  for (;;) {
    skip_blank(text, at);
    int section = -1;
    for (int s = 0; s < 4; ++s)
      if (starts_word(text, *at, kSections[s])) section = s;
    if (section < 0) return true;
    const std::string_view name = kSections[section];
    *at += name.size();
    for (;;) {
      skip_blank(text, at);
      if (*at >= text.size() || !is_digit(text[*at])) break;
      const size_t entry = *at;
      while (*at < text.size() && is_digit(text[*at])) ++*at;
      while (*at < text.size() && (text[*at] == ' ' || text[*at] == '\t')) ++*at;
      if (section <= 1) {  // "name"
        if (*at >= text.size() || text[*at] != '"')
          return fail(entry, "expected a quoted name in the " + std::string(name) + " section");
        size_t e = *at + 1;
        while (e < text.size() && text[e] != '"' && text[e] != '\n') e += text[e] == '\\' ? 2 : 1;
        if (e >= text.size() || text[e] != '"')
          return fail(entry, "unterminated name in the " + std::string(name) + " section");
        const StrId id = m->strings.intern(c_unescape(text.substr(*at + 1, e - *at - 1)));
        (section == 0 ? m->file_names : m->function_names).push_back(id);
        *at = e + 1;
        continue;
      }
      bool read;
      if (section == 2) {
        int32_t file = 0, function = 0, line = 0, end_line = 0, column = 0, end_column = 0;
        read = read_attributes(text, at, [&](std::string_view key, int32_t v) {
          if (key == "file_name_id") file = v;
          if (key == "function_name_id") function = v;
          if (key == "line") line = v;
          if (key == "end_line") end_line = v;
          if (key == "column") column = v;
          if (key == "end_column") end_column = v;
        });
        m->location_file.push_back(index_of_id(file));
        m->location_function.push_back(index_of_id(function));
        m->location_line.push_back(line);
        m->location_end_line.push_back(end_line);
        m->location_column.push_back(column);
        m->location_end_column.push_back(end_column);
      } else {
        int32_t location = 0, parent = 0;
        read = read_attributes(text, at, [&](std::string_view key, int32_t v) {
          if (key == "file_location_id") location = v;
          if (key == "parent_frame_id") parent = v;
        });
        m->frame_location.push_back(index_of_id(location));
        // XLA prints parent_frame_id one more than the proto's 1-based id, and its parser
        // subtracts one: 1 marks the outermost frame (no parent), 2 names frame 1.
        m->frame_parent.push_back(parent >= 2 ? static_cast<uint32_t>(parent - 2) : kNone);
      }
      if (!read) return fail(entry, "expected '{...}' in the " + std::string(name) + " section");
    }
  }
}

}  // namespace strata::hlo
