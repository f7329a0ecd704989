// StringTable: append-only arena + hash index. Interning is on the import hot path (every
// event's name and category), so the common case (ASCII, already present) is one validity scan
// and one hash lookup, with no allocation.
#include "core/base/string_table.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace strata {

namespace {

// Arena blocks start small (most traces have few distinct names) and grow geometrically so a
// trace with millions of distinct names needs only a few dozen blocks.
constexpr size_t kFirstBlock = 16 * 1024;
constexpr size_t kMaxBlock = 4 * 1024 * 1024;

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not a
// valid sequence (overlongs, surrogates, > U+10FFFF and truncated sequences are invalid).
size_t utf8_seq_len(const unsigned char* s, size_t i, size_t n) {
  unsigned char c = s[i];
  if (c < 0x80) return 1;
  auto cont = [&](size_t k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    unsigned char c1 = s[i + 1];
    if (c == 0xE0 && c1 < 0xA0) return 0;  // overlong
    if (c == 0xED && c1 > 0x9F) return 0;  // UTF-16 surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    unsigned char c1 = s[i + 1];
    if (c == 0xF0 && c1 < 0x90) return 0;  // overlong
    if (c == 0xF4 && c1 > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// Number of bytes of the maximal invalid prefix at s[i] that one U+FFFD replaces: the lead byte
// plus any continuation bytes that could still have belonged to it (Unicode's "maximal subpart"
// practice, which is what browsers' TextDecoder does).
size_t utf8_invalid_len(const unsigned char* s, size_t i, size_t n) {
  unsigned char c = s[i];
  size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 1;
  }
  size_t k = 1;
  for (; k <= need && i + k < n; ++k) {
    unsigned char b = s[i + k];
    if (k == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) break;
  }
  return k;
}

bool all_ascii(const unsigned char* s, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080ull) return false;
  }
  for (; i < n; ++i)
    if (s[i] & 0x80) return false;
  return true;
}

}  // namespace

size_t utf8_valid_prefix(std::string_view sv) {
  auto* s = reinterpret_cast<const unsigned char*>(sv.data());
  size_t n = sv.size();
  if (all_ascii(s, n)) return n;
  for (size_t i = 0; i < n;) {
    size_t len = utf8_seq_len(s, i, n);
    if (len == 0) return i;
    i += len;
  }
  return n;
}

bool is_valid_utf8(std::string_view sv) { return utf8_valid_prefix(sv) == sv.size(); }

std::string sanitize_utf8(std::string_view sv) {
  auto* s = reinterpret_cast<const unsigned char*>(sv.data());
  size_t n = sv.size();
  std::string out;
  out.reserve(n + 8);
  for (size_t i = 0; i < n;) {
    size_t len = utf8_seq_len(s, i, n);
    if (len) {
      out.append(sv.data() + i, len);
      i += len;
    } else {
      out.append("\xEF\xBF\xBD");
      i += utf8_invalid_len(s, i, n);
    }
  }
  return out;
}

StringTable::StringTable() {
  views_.reserve(1024);
  index_.reserve(1024);
  views_.push_back(std::string_view());
  index_.emplace(std::string_view(), 0);
}

std::string_view StringTable::store(std::string_view s) {
  if (s.empty()) return std::string_view();
  if (block_used_ + s.size() > block_size_) {
    size_t next = block_size_ == 0 ? kFirstBlock : std::min(block_size_ * 2, kMaxBlock);
    if (s.size() > next / 4) {
      // A large string gets a block of its own, slotted in below the block being filled, so
      // one huge name neither wastes the rest of a block nor forces the next one to be huge.
      blocks_.push_back(std::unique_ptr<char[]>(new char[s.size()]));
      arena_bytes_ += s.size();
      char* dst = blocks_.back().get();
      std::memcpy(dst, s.data(), s.size());
      if (block_size_ != 0) std::swap(blocks_.back(), blocks_[blocks_.size() - 2]);
      return std::string_view(dst, s.size());
    }
    blocks_.push_back(std::unique_ptr<char[]>(new char[next]));
    arena_bytes_ += next;
    block_size_ = next;
    block_used_ = 0;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, s.data(), s.size());
  block_used_ += s.size();
  return std::string_view(dst, s.size());
}

StrId StringTable::intern(std::string_view s, bool* had_invalid) {
  if (!is_valid_utf8(s)) {
    if (had_invalid) *had_invalid = true;
    std::string clean = sanitize_utf8(s);
    return intern(clean, nullptr);
  }
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  std::string_view stored = store(s);
  StrId id = static_cast<StrId>(views_.size());
  views_.push_back(stored);
  index_.emplace(stored, id);
  return id;
}

StrId StringTable::find(std::string_view s) const {
  auto it = index_.find(s);
  return it == index_.end() ? kNone : it->second;
}

size_t StringTable::memory_bytes() const {
  // Hash node: next pointer + key view + id + cached hash, plus one bucket pointer per bucket.
  size_t node = sizeof(void*) + sizeof(std::string_view) + sizeof(StrId) + sizeof(size_t);
  return arena_bytes_ + views_.capacity() * sizeof(std::string_view) + index_.size() * node +
         index_.bucket_count() * sizeof(void*) + blocks_.capacity() * sizeof(void*);
}

}  // namespace strata
