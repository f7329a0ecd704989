// Interned strings: every event name, category, track name is stored once and referred to by a
// 32-bit id. Storage is an append-only arena so string_views stay valid as the table grows.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/types.h"

namespace strata {

class StringTable {
 public:
  StringTable();
  StringTable(StringTable&&) = default;
  StringTable& operator=(StringTable&&) = default;

  // Returns the id of `s`, adding it when new. Bytes that are not valid UTF-8 are replaced by
  // U+FFFD (the UI and the JSON the engine emits must never carry broken UTF-8); `had_invalid`
  // is set when that happened.
  StrId intern(std::string_view s, bool* had_invalid = nullptr);
  // Id of `s` if present, else kNone. Never adds.
  StrId find(std::string_view s) const;

  std::string_view get(StrId id) const { return views_[id]; }
  size_t size() const { return views_.size(); }
  // Bytes held by the arena and the index (for memory accounting).
  size_t memory_bytes() const;

 private:
  std::string_view store(std::string_view s);
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0, block_size_ = 0, arena_bytes_ = 0;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, StrId> index_;
};

// True when `s` is entirely valid UTF-8.
bool is_valid_utf8(std::string_view s);
// Length of the longest valid UTF-8 prefix of `s` (== s.size() when valid): where the first
// bad byte is, for import warnings that point at a file offset.
size_t utf8_valid_prefix(std::string_view s);
// Copy of `s` with invalid UTF-8 sequences replaced by U+FFFD.
std::string sanitize_utf8(std::string_view s);

}  // namespace strata
