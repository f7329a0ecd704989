// A bounds-checked reader over one binary message (the worker ⇄ UI messages: view replies, track
// lists, laid-out graphs). A short or lying message is rejected, not trusted: the first read past
// the end clears `ok`, and every later read returns zeros.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace strata {

struct ByteReader {
  const uint8_t* p;
  size_t n, at = 0;
  bool ok = true;

  template <typename T>
  T get() {
    T v{};
    if (!ok || n - at < sizeof(T)) {
      ok = false;
      return v;
    }
    std::memcpy(&v, p + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  // `count` values of T into v.
  template <typename T>
  void get_all(std::vector<T>& v, size_t count) {
    if (!ok || count > (n - at) / sizeof(T)) {
      ok = false;
      return;
    }
    v.resize(count);
    if (count) std::memcpy(v.data(), p + at, count * sizeof(T));
    at += count * sizeof(T);
  }
  // A uint32 length, then that many bytes.
  std::string_view str() {
    const uint32_t len = get<uint32_t>();
    if (!ok || len > n - at) {
      ok = false;
      return {};
    }
    std::string_view s(reinterpret_cast<const char*>(p + at), len);
    at += len;
    return s;
  }
};

}  // namespace strata
