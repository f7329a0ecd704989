// What a slice caused elsewhere: the events at the far end of the flows that leave it or any
// slice nested under it, on another process. For a Kineto operator these are the kernels,
// memcpys and memsets it launched (its runtime calls' ac2g flows lead to them): the links the
// records' "External id" (operator, runtime call, kernel) and "correlation" (runtime call,
// kernel) args describe, found from the store alone, without reading any args.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

struct Launched {
  std::vector<uint32_t> events;  // the first `limit` of them, in event order
  uint64_t count = 0;            // all of them (each once)
  TimeNs total_ns = 0;           // their durations, summed
  TimeNs first_start = 0;        // where the first starts and the last ends (when count > 0)
  TimeNs last_end = 0;
  bool complete = true;  // false: the slice holds more than `max_nested` slices; these are
                         // what the first of them (in row order) launched
};

// Bounded work for a click in the details pane: a slice spanning a whole 1 GB trace holds
// millions of nested slices.
constexpr size_t kLaunchedMaxNested = 2'000'000;

Launched launched_by(const TraceStore& s, uint32_t event, size_t limit,
                     size_t max_nested = kLaunchedMaxNested);

}  // namespace strata
