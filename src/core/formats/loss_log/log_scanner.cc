#include "core/formats/loss_log/log_scanner.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace strata {

namespace {

const char* find_byte(const char* p, const char* end, char c) {
  return static_cast<const char*>(std::memchr(p, c, static_cast<size_t>(end - p)));
}

// Last '\n' in [begin, end), or nullptr.
const char* find_last_newline(const char* begin, const char* end) {
  while (end > begin) {
    if (*--end == '\n') return end;
  }
  return nullptr;
}

// First occurrence of `tag` in [p, end). 16 positions at a time: a position is a candidate
// only when both the tag's first and last bytes are where they should be (two compares on
// vectors loaded at p and p + len - 1), so the common letters of a tag like "lm loss:" do not
// stop the scan at every 'l'. GCC/Clang generic vectors: SSE2 natively, simd128 in wasm.
typedef uint8_t V16 __attribute__((vector_size(16)));

const char* find_tag(const char* p, const char* end, std::string_view tag) {
  const size_t len = tag.size();
  const auto first = static_cast<uint8_t>(tag[0]), last = static_cast<uint8_t>(tag[len - 1]);
  V16 vf, vl;
  for (int i = 0; i < 16; ++i) vf[i] = first, vl[i] = last;
  while (static_cast<size_t>(end - p) >= len + 15) {
    V16 a, b;
    std::memcpy(&a, p, 16);
    std::memcpy(&b, p + len - 1, 16);
    const V16 m = static_cast<V16>(a == vf) & static_cast<V16>(b == vl);
    uint64_t lo, hi;
    std::memcpy(&lo, &m, 8);
    std::memcpy(&hi, reinterpret_cast<const char*>(&m) + 8, 8);
    if (lo | hi) {
      for (int i = 0; i < 16; ++i) {
        if (m[i] && std::memcmp(p + i, tag.data(), len) == 0) return p + i;
      }
    }
    p += 16;
  }
  for (; static_cast<size_t>(end - p) >= len; ++p) {
    if (std::memcmp(p, tag.data(), len) == 0) return p;
  }
  return nullptr;
}

}  // namespace

void LossScanner::line(const char* p, size_t n) {
  if (auto pt = match_line(std::string_view(p, n), tags_)) {
    points_.iteration.push_back(pt->iteration);
    points_.loss.push_back(pt->loss);
  }
}

void LossScanner::scan_complete_lines(const char* p, size_t n) {
  const char* end = p + n;
  const std::string_view tag = tags_.loss;
  const char* at = p;
  while (at < end) {
    const char* hit = find_tag(at, end, tag);
    if (!hit) return;
    const char* nl_before = hit;
    while (nl_before > at && nl_before[-1] != '\n') --nl_before;  // back to the line start
    const char* nl = find_byte(hit, end, '\n');                   // exists: p[n - 1] == '\n'
    line(nl_before, static_cast<size_t>(nl - nl_before));
    at = nl + 1;
  }
}

void LossScanner::feed(const uint8_t* data, size_t n) {
  bytes_ += n;
  if (tags_.loss.empty() || tags_.iteration.empty() || n == 0) return;
  const char* p = reinterpret_cast<const char*>(data);
  const char* end = p + n;
  if (!carry_.empty()) {  // finish the line cut by the previous chunk
    const char* nl = find_byte(p, end, '\n');
    const char* stop = nl ? nl : end;
    const size_t room = kMaxLine - std::min(kMaxLine, carry_.size());
    carry_.append(p, std::min(room, static_cast<size_t>(stop - p)));
    if (!nl) return;
    line(carry_.data(), carry_.size());
    carry_.clear();
    p = nl + 1;
  }
  const char* last_nl = find_last_newline(p, end);
  if (last_nl) {
    scan_complete_lines(p, static_cast<size_t>(last_nl + 1 - p));
    p = last_nl + 1;
  }
  // The rest is an unfinished line (carry_ is non-empty exactly when one is pending).
  carry_.assign(p, std::min(kMaxLine, static_cast<size_t>(end - p)));
}

void LossScanner::finish() {
  if (!carry_.empty()) line(carry_.data(), carry_.size());
  carry_.clear();
}

LossSeries scan_loss_text(std::string_view text, const LossTags& tags) {
  LossScanner s(tags);
  s.feed(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  s.finish();
  return s.take_points();
}

}  // namespace strata
