// The bytes a slice's partial result travels in between two workers of one build (a slice
// worker parses a piece of a big trace, the engine worker absorbs it: sliced_import.h): plain
// values and columns one after the other, little-endian as the machine is, with no versioning
// because both ends are the same wasm module. Columns of trivially copyable rows are copied
// whole, so encoding and decoding cost a memcpy per column, not a pass per item.
// A reader never reads past its buffer: a short or damaged buffer sets ok() to false and every
// later read gives zeros / empties.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace strata {

class SliceWriter {
 public:
  template <class T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof(v));
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    pod(static_cast<uint64_t>(v.size()));
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  void str(std::string_view s) {
    pod(static_cast<uint64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  void bytes(const void* p, size_t n) {
    const size_t at = out_.size();
    out_.resize(at + n);
    if (n) std::memcpy(out_.data() + at, p, n);
  }
  void reserve(size_t n) { out_.reserve(n); }
  std::vector<uint8_t>& out() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

class SliceReader {
 public:
  SliceReader(const uint8_t* data, size_t n) : p_(data), end_(data + n) {}
  template <class T>
  void pod(T* v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!take(v, sizeof(T))) *v = T{};
  }
  template <class T>
  T get() {
    T v{};
    pod(&v);
    return v;
  }
  template <class T>
  void vec(std::vector<T>* v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto n = get<uint64_t>();
    v->clear();
    if (!ok_ || n > static_cast<uint64_t>(end_ - p_) / sizeof(T)) {
      ok_ = ok_ && n == 0;
      return;
    }
    v->resize(static_cast<size_t>(n));
    take(v->data(), static_cast<size_t>(n) * sizeof(T));
  }
  void str(std::string* s) {
    const auto n = get<uint64_t>();
    s->clear();
    if (!ok_ || n > static_cast<uint64_t>(end_ - p_)) {
      ok_ = ok_ && n == 0;
      return;
    }
    s->assign(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
  }
  // A count of items that each take at least `min_bytes` (a loop bound read from the buffer):
  // 0, and not ok, when the buffer cannot hold that many.
  size_t count(size_t min_bytes) {
    const auto n = get<uint64_t>();
    if (!ok_ || n > static_cast<uint64_t>(end_ - p_) / (min_bytes ? min_bytes : 1)) {
      ok_ = ok_ && n == 0;
      return 0;
    }
    return static_cast<size_t>(n);
  }
  bool ok() const { return ok_; }
  bool at_end() const { return p_ == end_; }

 private:
  bool take(void* dst, size_t n) {
    if (!ok_ || static_cast<size_t>(end_ - p_) < n) {
      ok_ = false;
      return false;
    }
    if (n) std::memcpy(dst, p_, n);
    p_ += n;
    return true;
  }
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

}  // namespace strata
