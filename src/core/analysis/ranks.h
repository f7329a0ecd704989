// Across ranks: which rank (or host) each process of a multi-file load belongs to, how each
// rank's GPU time divides (gpu_work.h per rank), the collectives matched across ranks with
// their latency, arrival skew and bandwidths, and the straggler ranks (ANALYSIS.md §1, 2, 6:
// HTA's and TraceLens's multi-rank analyses, msprof-analyze's cluster view).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "core/store/trace_store.h"

namespace strata {

// The file (rank, host) `process` came from: an index into s.files.
uint32_t rank_of_process(const TraceStore& s, uint32_t process);
// How a file's rank is named: "rank <distributedInfo.rank>", else its section group, else the
// file's name.
std::string rank_name(const TraceStore& s, uint32_t file);

struct RankTime {
  uint32_t file = 0;
  std::vector<uint32_t> devices;  // indices into GpuWorkSet::devices
  GpuBreakdown time;              // over all its devices' GPU events
};

// One collective as every rank ran it.
struct MatchedCollective {
  std::string name;             // "Collective name", else the kernel's name
  std::string process_group;    // "Process Group Name" or ""
  int64_t seq = -1;             // "Seq", or the occurrence index when the file has none (-1)
  uint64_t occurrence = 0;      // k-th of its (group, name) on each rank
  std::vector<uint32_t> event;  // per rank (index into ranks): its GPU event, kNone if absent
  uint32_t ranks_present = 0;
  TimeNs latency = 0;      // min over ranks of the duration
  TimeNs skew = 0;         // max - min start
  uint32_t late_rank = 0;  // index into ranks: the last to start
  // Bus bandwidth needs the message size ("In msg nelems" / "Out msg nelems" × dtype) and the
  // group size; 0 with `why` when the file lacks them.
  double bytes = 0, algbw = 0, busbw = 0;  // bytes; bytes/s
  std::string bw_why;
};

struct RankStraggler {
  // Of the rank's GPU compute time: the rank that computes longest makes the others wait.
  double zscore = 0;        // modified z-score, 0.6745 (x - median) / MAD
  bool z_defined = false;   // false when MAD = 0
  bool by_z = false;        // |z| > 3.5
  bool by_spread = false;   // the slowest rank when (max - min) / mean > 5 %
  TimeNs late_total = 0;    // Σ over collectives of its start - the earliest rank's
  uint32_t late_count = 0;  // collectives it started last
};

struct RankAnalysis {
  std::vector<RankTime> ranks;                 // by file
  std::vector<RankStraggler> stragglers;       // per rank
  std::vector<MatchedCollective> collectives;  // by the earliest start
  double spread = 0;                           // (max - min) / mean of the ranks' GPU compute time
  bool matched_by_seq = false;  // the file gave sequence numbers; else matched by occurrence
};

constexpr double kStragglerZ = 3.5;
constexpr double kStragglerSpread = 0.05;

// The bytes of one element of a PyTorch dtype name ("Float", "BFloat16", "c10::Half", ...);
// 0 when unknown.
double dtype_bytes(std::string_view dtype);
// NCCL-tests' bus bandwidth factor of a collective over n ranks (all-reduce 2(n-1)/n, all-gather
// / reduce-scatter / all-to-all (n-1)/n, others 1); 0 when the name is not known.
double busbw_factor(std::string_view collective, int64_t n);

RankAnalysis analyse_ranks(const TraceStore& s, const GpuWorkSet& w);

}  // namespace strata
