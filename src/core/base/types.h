// Basic scalar types shared by the whole core.
#pragma once
#include <cstdint>

namespace strata {

// All times in the core are int64 nanoseconds on the trace's own clock (Chrome traces: the
// file's microseconds × 1000). int64 ns covers ±292 years, so epoch-based timestamps fit.
using TimeNs = int64_t;

// Index into StringTable. 0 is always the empty string.
using StrId = uint32_t;

constexpr uint32_t kNone = 0xffffffffu;

}  // namespace strata
