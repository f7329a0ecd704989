// A Kineto trace's rank from its first bytes: the top-level `distributedInfo` object
// ({"backend": "nccl", "rank": 3, "world_size": 8, "pg_config": [...]}) that PyTorch's profiler
// writes before `traceEvents`. The Runs discovery uses it for traces whose file names do not
// say the rank.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace strata {

struct TraceRank {
  int64_t rank = -1;        // -1: the head names none
  int64_t world_size = -1;  // -1: not given
};

// `text`: the file's first bytes, inflated (a cut-off head is fine: what is not in it is -1).
TraceRank trace_head_rank(std::string_view text);
// The same from the file's first bytes as stored: gzip and zstd heads are inflated first (up
// to kTraceHeadText bytes of text; a corrupt or cut-off stream gives what it inflated).
constexpr size_t kTraceHeadText = 256 << 10;
TraceRank trace_head_rank_of_file(const uint8_t* head, size_t n);

}  // namespace strata
