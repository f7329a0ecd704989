// Basic scalar types shared by the whole core.
#pragma once
#include <cstdint>

namespace strata {

// All times in the core are int64 nanoseconds on the trace's own clock (Chrome traces: the
// file's microseconds × 1000). int64 ns covers ±292 years, so epoch-based timestamps fit.
using TimeNs = int64_t;

// start + dur without signed overflow: a garbage dur must not wrap the end into the past.
inline TimeNs end_of(TimeNs start, TimeNs dur) {
  TimeNs end;
  if (__builtin_add_overflow(start, dur, &end)) return INT64_MAX;
  return end;
}

// Index into StringTable. 0 is always the empty string.
using StrId = uint32_t;

constexpr uint32_t kNone = 0xffffffffu;

}  // namespace strata
