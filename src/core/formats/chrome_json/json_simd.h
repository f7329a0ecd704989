// Byte scanners for the JSON hot paths, 16 bytes at a time: SSE2 natively on x86-64 (always
// available there), wasm simd128 when the engine is built with -msimd128 (cmake/wasm.cmake),
// and a portable 8-bytes-at-a-time (SWAR) loop elsewhere. Most bytes of a trace are string
// contents (names, call stacks, args), so finding a string's end is the parser's inner loop.
//
// Every variant returns exactly the same result; the *_scalar functions are the reference the
// SIMD paths are tested against (tests/core/json_simd_test.cc). Like the rest of json_scan.h,
// nothing reads at or past `e`: the vector loop stops 16 bytes before it and the tail is scalar.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#define STRATA_JSON_SIMD 1
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define STRATA_JSON_SIMD 1
#endif

namespace strata::json {

// First byte in [p, e) that is '"' or '\\', or e. One byte at a time, then 8 at a time (SWAR):
// the reference implementation, and the tail of the SIMD version.
inline const char* find_quote_or_backslash_scalar(const char* p, const char* e) {
  while (e - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    // Zero-byte test on w ^ '"' and w ^ '\\': bit 7 of each byte that matched. The lowest set
    // bit is exact (borrows only propagate upwards from a true zero byte).
    uint64_t x = w ^ 0x2222222222222222ull, y = w ^ 0x5C5C5C5C5C5C5C5Cull;
    uint64_t hit = (((x - 0x0101010101010101ull) & ~x) | ((y - 0x0101010101010101ull) & ~y)) &
                   0x8080808080808080ull;
    if (hit) return p + (__builtin_ctzll(hit) >> 3);  // little-endian: lowest byte first
    p += 8;
  }
  for (; p < e; ++p)
    if (*p == '"' || *p == '\\') return p;
  return e;
}

// Same result as find_quote_or_backslash_scalar.
inline const char* find_quote_or_backslash(const char* p, const char* e) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  while (e - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (m) return p + __builtin_ctz(static_cast<unsigned>(m));
    p += 16;
  }
#elif defined(__wasm_simd128__)
  const v128_t quote = wasm_i8x16_splat('"'), backslash = wasm_i8x16_splat('\\');
  while (e - p >= 16) {
    v128_t v = wasm_v128_load(p);
    uint32_t m =
        wasm_i8x16_bitmask(wasm_v128_or(wasm_i8x16_eq(v, quote), wasm_i8x16_eq(v, backslash)));
    if (m) return p + __builtin_ctz(m);
    p += 16;
  }
#endif
  return find_quote_or_backslash_scalar(p, e);
}

// a[0, n) == b[0, n), the reference implementation: one byte at a time.
inline bool equal_bytes_scalar(const char* a, const char* b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// Same result as equal_bytes_scalar. The importer's caches compare every event's name and
// pid/tid with what they hold; in wasm, libc's memcmp is a byte loop, and GPU kernel names are
// hundreds of bytes long.
inline bool equal_bytes(const char* a, const char* b, size_t n) {
#if defined(__SSE2__)
  for (; n >= 16; a += 16, b += 16, n -= 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
    __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) != 0xFFFF) return false;
  }
#elif defined(__wasm_simd128__)
  for (; n >= 16; a += 16, b += 16, n -= 16)
    if (!wasm_i8x16_all_true(wasm_i8x16_eq(wasm_v128_load(a), wasm_v128_load(b)))) return false;
#endif
  for (; n >= 8; a += 8, b += 8, n -= 8) {
    uint64_t x, y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    if (x != y) return false;
  }
  if (n >= 4) {  // the first and the last 4 bytes (they overlap when n < 8)
    uint32_t x0, y0, x1, y1;
    std::memcpy(&x0, a, 4);
    std::memcpy(&y0, b, 4);
    std::memcpy(&x1, a + n - 4, 4);
    std::memcpy(&y1, b + n - 4, 4);
    return x0 == y0 && x1 == y1;
  }
  return equal_bytes_scalar(a, b, n);
}

// ---- decimal digits, 8 at a time (SWAR) ---------------------------------------------------
// Timestamps are 16-20 digit numbers ("1700000000001249.195"): a byte loop is a visible share
// of the import. Both helpers need 8 readable bytes at p.

// Number of ASCII digits at the start of the 8 bytes at p (0..8).
inline int leading_digits8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  // A byte is a digit iff its high nibble is 3 and adding 6 keeps it 3: each digit becomes
  // 0x33. A carry out of a byte >= 0xFA only reaches later bytes, past the first non-digit.
  uint64_t t =
      ((w & 0xF0F0F0F0F0F0F0F0ull) | (((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ^
      0x3333333333333333ull;
  return t ? __builtin_ctzll(t) >> 3 : 8;
}

// Value of the k (1..8) digits at p.
inline uint64_t digits8_value(const char* p, int k) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  // Digit values in the top k bytes (the first digit lowest), zeros below them.
  w = (w - 0x3030303030303030ull) << (8 * (8 - k));
  w = w * 10 + (w >> 8);  // pairs of digits
  w = (((w & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((w >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
      32;
  return w;
}

// First byte in [p, e) that is not an ASCII digit, or e: the reference implementation.
inline const char* skip_digits_scalar(const char* p, const char* e) {
  while (p < e && *p >= '0' && *p <= '9') ++p;
  return p;
}

// Same result as skip_digits_scalar.
inline const char* skip_digits(const char* p, const char* e) {
  while (e - p >= 8) {
    int k = leading_digits8(p);
    p += k;
    if (k < 8) return p;
  }
  return skip_digits_scalar(p, e);
}

// True when the build has a vector path (tests report which one they compared).
constexpr bool kHasSimd =
#ifdef STRATA_JSON_SIMD
    true;
#else
    false;
#endif

}  // namespace strata::json
