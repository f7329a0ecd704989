#include "engine/analysis/ranks.h"

#include <cstdio>

#include "core/analysis/ranks.h"
#include "engine/analysis/analysis_cache.h"
#include "engine/analysis/breakdown_cells.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {

namespace {

enum Col {
  kName,
  kSpan,
  kCompute,
  kExposedComm,
  kExposedMemcpy,
  kIdle,
  kComputePct,
  kZscore,
  kStraggler,
  kLateTotal,
  kLateCount,
  kRanksPresent,
  kLatency,
  kSkew,
  kLateRank,
  kBytes,
  kAlgbw,
  kBusbw,
  kColumns
};
static_assert(kComputePct - kSpan + 1 == kBreakdownColumns, "the breakdown cells follow the name");

std::vector<AnalysisColumn> columns() {
  std::vector<AnalysisColumn> c = {
      {"name", "Rank / collective", AnalysisUnit::kText,
       "a rank (its GPU devices' work), or a collective matched across ranks"}};
  append_breakdown_columns(
      &c, "GPU span",
      "rank: first GPU event's start to the last one's end; = compute + exposed comm + exposed "
      "memcpy + idle",
      "time any compute kernel runs on the rank");
  c.insert(
      c.end(),
      {
          {"zscore", "Modified z", AnalysisUnit::kRatio,
           "0.6745 (compute - median) / MAD over the ranks; |z| > 3.5 is a straggler"},
          {"straggler", "Straggler", AnalysisUnit::kText,
           "z: |modified z| > 3.5; spread: the slowest rank when (max - min) / mean compute > 5 %"},
          {"late_total", "Arrived late by", AnalysisUnit::kNs,
           "Σ over collectives of the rank's start minus the earliest rank's"},
          {"late_count", "Last to arrive", AnalysisUnit::kCount,
           "collectives the rank started last"},
          {"ranks_present", "Ranks", AnalysisUnit::kCount, "ranks that ran this collective"},
          {"latency", "Latency", AnalysisUnit::kNs, "the shortest duration over the ranks"},
          {"skew", "Arrival skew", AnalysisUnit::kNs, "latest start - earliest start"},
          {"late_rank", "Late rank", AnalysisUnit::kText, "the rank that started last (the link)"},
          {"bytes", "Message", AnalysisUnit::kBytes,
           "max(In, Out msg nelems) × the dtype's size, from the kernel's args"},
          {"algbw", "Algorithm bw", AnalysisUnit::kBytesPerSec, "message / latency"},
          {"busbw", "Bus bw", AnalysisUnit::kBytesPerSec,
           "NCCL-tests: algorithm bw × 2(n-1)/n (all-reduce), (n-1)/n (all-gather, reduce-scatter, "
           "all-to-all), 1 (others); n = Group size"},
      });
  return c;
}

AnalysisRow blank_row(const char* why) {
  AnalysisRow r;
  r.cells.assign(kColumns, AnalysisCell::empty(why));
  return r;
}

uint32_t gpu_file_count(const TraceStore& s, const GpuWorkSet& w, uint32_t* first) {
  std::vector<bool> seen(std::max<size_t>(1, s.files.size()), false);
  uint32_t n = 0;
  for (const GpuDevice& d : w.devices) {
    const uint32_t f =
        std::min<uint32_t>(rank_of_process(s, d.process), static_cast<uint32_t>(seen.size() - 1));
    if (!seen[f]) {
      if (n == 0) *first = f;
      seen[f] = true;
      ++n;
    }
  }
  return n;
}

}  // namespace

bool ranks_available(const Engine& engine, std::string* why) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  if (w.devices.empty()) {
    *why = "no GPU work in this trace: the ranks are compared by their GPU kernels";
    return false;
  }
  uint32_t first = 0;
  if (gpu_file_count(s, w, &first) < 2) {
    *why = "one rank (" + rank_name(s, first) +
           ") in this trace: open the traces of several ranks together (pick them together, "
           "drop them, or strata.open([...])) to compare them";
    return false;
  }
  return true;
}

AnalysisTable ranks_table(const Engine& engine, const QueryArgs& /*args*/) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  const RankAnalysis a = analyse_ranks(s, w);
  const std::vector<uint32_t> display_of =
      store_to_display(engine.display_tracks(), s.tracks.size());

  AnalysisTable t;
  t.title = "Ranks";
  t.columns = columns();
  char spread[96];
  std::snprintf(spread, sizeof(spread), "%.1f %%", 100 * a.spread);
  t.notes.push_back(
      "Per rank, compute + exposed comm + exposed memcpy + idle = GPU span (as gpu_breakdown, "
      "over all of the rank's GPUs). Spread of compute over the ranks: (max - min) / mean = " +
      std::string(spread) + ".");
  t.notes.push_back(
      a.matched_by_seq
          ? "Collectives are matched across ranks by process group, name and sequence number."
          : "The files number no collective (no \"Seq\" in the kernels' args): collectives are "
            "matched by process group, name and order of occurrence on each rank.");
  for (size_t r = 0; r < a.ranks.size(); ++r) {
    const RankTime& rt = a.ranks[r];
    const RankStraggler& st = a.stragglers[r];
    AnalysisRow row = blank_row("a collective's figure");
    row.cells[kName] = AnalysisCell::of(rank_name(s, rt.file));
    fill_breakdown_cells(&row.cells, kSpan, rt.time);
    row.cells[kZscore] = st.z_defined
                             ? AnalysisCell::of(st.zscore)
                             : AnalysisCell::empty("the ranks' compute has no spread (MAD = 0)");
    std::string flag = st.by_z && st.by_spread ? "z, spread"
                       : st.by_z               ? "z"
                       : st.by_spread          ? "spread"
                                               : "";
    row.cells[kStraggler] = AnalysisCell::of(flag);
    row.cells[kLateTotal] = AnalysisCell::of(static_cast<double>(st.late_total));
    row.cells[kLateCount] = AnalysisCell::of(static_cast<double>(st.late_count));
    for (uint32_t d : rt.devices)
      for (const GpuStream& gs : w.devices[d].streams)
        if (display_of[gs.track] != kNone) row.link.tracks.push_back(display_of[gs.track]);
    t.rows.push_back(std::move(row));
  }
  AnalysisRow group = blank_row("a group row");
  group.cells[kName] =
      AnalysisCell::of("Collectives (" + std::to_string(a.collectives.size()) + ")");
  const int32_t parent = static_cast<int32_t>(t.rows.size());
  t.rows.push_back(std::move(group));
  for (const MatchedCollective& m : a.collectives) {
    AnalysisRow row = blank_row("a rank's figure");
    row.parent = parent;
    std::string name = m.name;
    if (!m.process_group.empty()) name += " (group " + m.process_group + ")";
    name += m.seq >= 0 ? " seq " + std::to_string(m.seq) : " #" + std::to_string(m.occurrence + 1);
    row.cells[kName] = AnalysisCell::of(name);
    row.cells[kRanksPresent] = AnalysisCell::of(static_cast<double>(m.ranks_present));
    row.cells[kLatency] = AnalysisCell::of(static_cast<double>(m.latency));
    row.cells[kSkew] = AnalysisCell::of(static_cast<double>(m.skew));
    row.cells[kLateRank] = AnalysisCell::of(rank_name(s, a.ranks[m.late_rank].file));
    if (m.bytes > 0) {
      row.cells[kBytes] = AnalysisCell::of(m.bytes);
      row.cells[kAlgbw] = AnalysisCell::of(m.algbw);
    } else {
      row.cells[kBytes] = row.cells[kAlgbw] = AnalysisCell::empty(m.bw_why);
    }
    row.cells[kBusbw] = m.busbw > 0 ? AnalysisCell::of(m.busbw) : AnalysisCell::empty(m.bw_why);
    const uint32_t late = m.event[m.late_rank];
    if (late != kNone) {
      row.link.name = std::string(s.strings.get(s.events.name[late]));
      const uint32_t track = display_of[s.events.track[late]];
      if (track != kNone) row.link.tracks.push_back(track);
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace strata
