// FNV-1a, 64-bit, over bytes, plain values, column vectors and strings: the one hash the store's
// digest and the tools' pyramid digest are made of. Sizes are hashed as 64-bit, so wasm32 and a
// native build give the same figure for the same data.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace strata {

struct Fnv64 {
  uint64_t h = 0xcbf29ce484222325ull;
  void bytes(const void* p, size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  }
  template <class T>
  void pod(const T& v) {
    bytes(&v, sizeof(v));
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod(static_cast<uint64_t>(v.size()));
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  void str(std::string_view s) {
    pod(static_cast<uint64_t>(s.size()));
    bytes(s.data(), s.size());
  }
};

}  // namespace strata
