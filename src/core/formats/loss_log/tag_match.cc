#include "core/formats/loss_log/tag_match.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace strata {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Powers of ten that are exact doubles: m * 10^e is correctly rounded for m < 2^53, |e| <= 22.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Spaces the seed ignores between a tag and its number.
size_t skip_spaces(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

template <typename T, typename Parse>
std::optional<T> first_match(std::string_view line, std::string_view tag, Parse parse) {
  if (tag.empty()) return std::nullopt;
  for (size_t at = line.find(tag); at != std::string_view::npos; at = line.find(tag, at + 1)) {
    size_t i = skip_spaces(line, at + tag.size());
    if (auto v = parse(line.substr(i))) return v;
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> parse_loss_number(std::string_view s, size_t* used) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  const size_t digits_start = i;
  uint64_t mant = 0;
  int digits = 0, scale = 0;  // value = mant * 10^(scale + exp)
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (digits < 19)
      mant = mant * 10 + static_cast<uint64_t>(s[i] - '0'), ++digits;
    else
      ++scale;
  }
  if (i == digits_start) return std::nullopt;  // a number starts with a digit
  if (i < s.size() && s[i] == '.') {
    ++i;
    for (; i < s.size() && is_digit(s[i]); ++i) {
      if (digits < 19) mant = mant * 10 + static_cast<uint64_t>(s[i] - '0'), ++digits, --scale;
    }
  }
  int exp = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    bool eneg = false;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) eneg = s[j++] == '-';
    if (j < s.size() && is_digit(s[j])) {  // "1e" alone: the number is "1"
      for (; j < s.size() && is_digit(s[j]); ++j) exp = exp < 10000 ? exp * 10 + (s[j] - '0') : exp;
      if (eneg) exp = -exp;
      i = j;
    }
  }
  if (used) *used = i;
  const int e = scale + exp;
  double v;
  if (mant < (uint64_t{1} << 53) && e >= -22 && e <= 22) {
    v = e >= 0 ? static_cast<double>(mant) * kPow10[e] : static_cast<double>(mant) / kPow10[-e];
  } else {  // rare (long mantissas, big exponents): the C library rounds correctly
    std::string copy(s.substr(0, i));
    v = std::strtod(copy.c_str(), nullptr);
    return v;
  }
  return neg ? -v : v;
}

std::optional<int64_t> parse_iteration_number(std::string_view s) {
  size_t i = 0;
  int64_t v = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (i == 18) return std::nullopt;  // beyond int64: not an iteration number
    v = v * 10 + (s[i] - '0');
  }
  if (i == 0) return std::nullopt;
  return v;
}

std::optional<double> match_loss_tag(std::string_view line, std::string_view tag) {
  return first_match<double>(line, tag, [](std::string_view s) { return parse_loss_number(s); });
}

std::optional<int64_t> match_iteration_tag(std::string_view line, std::string_view tag) {
  return first_match<int64_t>(line, tag, parse_iteration_number);
}

std::optional<LossPoint> match_line(std::string_view line, const LossTags& tags) {
  auto loss = match_loss_tag(line, tags.loss);
  if (!loss) return std::nullopt;
  auto it = match_iteration_tag(line, tags.iteration);
  if (!it) return std::nullopt;
  return LossPoint{*it, *loss};
}

}  // namespace strata
