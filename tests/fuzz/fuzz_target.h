// One body per fuzz target, written once and run two ways. In the libFuzzer build the body is
// LLVMFuzzerTestOneInput; in the test build (STRATA_FUZZ_REPLAY) it registers under its name,
// so tests/core/fuzz_regressions_test.cc replays corpus_regressions/<name>/ through the very
// code the fuzzer ran. A body returns normally or traps (__builtin_trap) on a broken invariant.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace strata::fuzz {

using FuzzBody = void (*)(const uint8_t* data, size_t size);

struct FuzzTarget {
  const char* name;
  FuzzBody body;
};

inline std::vector<FuzzTarget>& registered_targets() {
  static std::vector<FuzzTarget> targets;
  return targets;
}

inline bool register_target(const char* name, FuzzBody body) {
  registered_targets().push_back({name, body});
  return true;
}

inline FuzzBody find_target(std::string_view name) {
  for (const FuzzTarget& t : registered_targets())
    if (name == t.name) return t.body;
  return nullptr;
}

// Cut points a, b (a <= b) in a body of n bytes from two selector bytes, so a target feeds its
// input in up to three chunks and explores state carried across feed() calls.
inline void split_points(uint8_t s0, uint8_t s1, size_t n, size_t* a, size_t* b) {
  *a = n ? s0 % (n + 1) : 0;
  *b = n ? s1 % (n + 1) : 0;
  if (*a > *b) {
    size_t t = *a;
    *a = *b;
    *b = t;
  }
}

// Feeds an importer the input after its two selector bytes in up to three chunks (split at
// split_points), then finishes it. The caller has checked that size >= 2.
template <class Importer>
void feed_split(Importer* importer, const uint8_t* data, size_t size) {
  const size_t n = size - 2;
  const uint8_t* body = data + 2;
  size_t a = 0, b = 0;
  split_points(data[0], data[1], n, &a, &b);
  importer->feed(body, a);
  importer->feed(body + a, b - a);
  importer->feed(body + b, n - b);
  importer->finish();
}

}  // namespace strata::fuzz

#ifdef STRATA_FUZZ_REPLAY
#define STRATA_FUZZ_TARGET(name)                                         \
  static void strata_fuzz_body_##name(const uint8_t* data, size_t size); \
  [[maybe_unused]] static const bool strata_fuzz_registered_##name =     \
      strata::fuzz::register_target(#name, strata_fuzz_body_##name);     \
  static void strata_fuzz_body_##name(const uint8_t* data, size_t size)
#else
#define STRATA_FUZZ_TARGET(name)                                            \
  static void strata_fuzz_body_##name(const uint8_t* data, size_t size);    \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { \
    strata_fuzz_body_##name(data, size);                                    \
    return 0;                                                               \
  }                                                                         \
  static void strata_fuzz_body_##name(const uint8_t* data, size_t size)
#endif
