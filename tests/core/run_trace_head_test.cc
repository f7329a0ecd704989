// Runs finding ranks by the traces' heads: distributedInfo read from a Kineto trace's first
// bytes (hand-written heads, cut-off ones, and a real HTA rank trace's), and the discovery
// taking JSON traces whose names do not say the rank as that rank's Kineto profiles.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/runs/run_discovery.h"
#include "core/runs/run_plan.h"
#include "core/runs/trace_head.h"
#include "import_test_util.h"

namespace strata {
namespace {

TEST(TraceHead, DistributedInfoRankAndWorldSize) {
  const TraceRank r = trace_head_rank(
      R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "H100", "x": {"a": "}"}}],
  "distributedInfo": {"backend": "nccl", "pg_config": [{"ranks": [0, 1]}], "rank": 3,
                      "world_size": 8},
  "traceEvents": [)");
  EXPECT_EQ(r.rank, 3);
  EXPECT_EQ(r.world_size, 8);
  // No distributedInfo before the events, a cut-off head, not an object: unknown.
  EXPECT_EQ(trace_head_rank(R"({"traceEvents": [{"name": "distributedInfo"}]})").rank, -1);
  EXPECT_EQ(trace_head_rank(R"({"schemaVersion": 1, "deviceProperties": [{"id")").rank, -1);
  EXPECT_EQ(trace_head_rank(R"([{"ph": "X"}])").rank, -1);
  EXPECT_EQ(trace_head_rank(R"({"distributedInfo": {"rank": 5)").rank, 5);  // cut after it
}

TEST(TraceHead, RealHtaRankTrace) {
  std::string gz, text;
  if (!testing::read_shared(
          "pytorch_kineto/hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", &gz))
    GTEST_SKIP();
  ASSERT_TRUE(testing::gunzip(gz, &text));
  const TraceRank r = trace_head_rank(std::string_view(text).substr(0, 64 << 10));
  EXPECT_EQ(r.rank, 34);
  EXPECT_EQ(r.world_size, 300);
}

TEST(RunDiscovery, RanksFromTraceHeads) {
  const std::vector<std::string> paths = {
      "job/trace_a.json.gz",        // rank 1 by its head
      "job/trace_b.json",           // rank 0 by its head
      "job/worker7.pt.trace.json",  // named as Kineto: keeps its worker, rank 2 from its head
      "job/notes.json",             // no distributedInfo: not a trace
  };
  // The Kineto-named trace is a profile by its name already: its head is not needed.
  EXPECT_EQ(run_head_candidates(paths), (std::vector<uint32_t>{0, 1, 3}));
  // Without heads only the Kineto-named trace is found, and Distributed needs more.
  const RunDiscovery by_name = discover_runs(paths);
  ASSERT_EQ(by_name.runs.size(), 1u);
  EXPECT_EQ(by_name.runs[0].workers.size(), 1u);

  const RunDiscovery d = discover_runs(paths, {1, 0, 2, -1});
  ASSERT_EQ(d.runs.size(), 1u);
  const DiscoveredRun& run = d.runs[0];
  EXPECT_EQ(run.workers, (std::vector<std::string>{"rank0", "rank1", "worker7"}));
  ASSERT_EQ(run.profiles.size(), 3u);
  EXPECT_EQ(run.profiles[0].get(RunFile::kTrace), 1);
  EXPECT_EQ(run.profiles[1].get(RunFile::kTrace), 0);
  EXPECT_EQ(run.profiles[2].rank, 2);
  EXPECT_EQ(runs_card_of(run, run.profiles[0]), 0);
  EXPECT_EQ(runs_card_of(run, run.profiles[1]), 1);
  EXPECT_EQ(runs_card_of(run, run.profiles[2]), 2);  // its head, not its name's 7
  EXPECT_EQ(run_distributed_set(run, 0).size(), 3u);
  EXPECT_TRUE(run_view_availability(d, run, 0, RunView::kDistributed).enabled);
  EXPECT_NE(run_discovery_json(d).find(R"("worker":"rank1","span":"","kind":"kineto")"),
            std::string::npos);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(TraceHead, GzipHeadOfARealRank) {
  std::string gz;
  if (!testing::read_shared("pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz", &gz))
    GTEST_SKIP();
  // The first 64 KB as stored, cut mid-stream.
  const TraceRank r = trace_head_rank_of_file(reinterpret_cast<const uint8_t*>(gz.data()),
                                              std::min<size_t>(gz.size(), 64 << 10));
  EXPECT_EQ(r.rank, 1);
  EXPECT_EQ(r.world_size, 128);
  const std::string plain =
      R"({"distributedInfo": {"rank": 2, "world_size": 4}, "traceEvents": [])";
  EXPECT_EQ(
      trace_head_rank_of_file(reinterpret_cast<const uint8_t*>(plain.data()), plain.size()).rank,
      2);
}

}  // namespace
}  // namespace strata
