// DiscoveredRun discovery from the relative paths a dropped folder reports: the plugin's
// worker/span naming for Ascend `*_ascend_pt` directories and Kineto `*.pt.trace.json[.gz]` files,
// which files each profile has, and which views they enable. Real folders from ../shared/data too.
#include "core/runs/run_discovery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace strata {
namespace {

std::vector<std::string> list_folder(const std::filesystem::path& dir) {
  std::vector<std::string> paths;
  const std::filesystem::path base = dir.parent_path();
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) paths.push_back(std::filesystem::relative(e.path(), base).string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(RunDiscovery, AscendWorkerSpanNaming) {
  const std::vector<std::string> paths = {
      "logdir/run1/host_12345_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
      "logdir/run1/host_12345_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
      "logdir/run1/host_12345_20240101_ascend_pt/profiler_info.json",
      "logdir/run1/host_12345_20240102_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv",
      "logdir/run1/worker0_1234.5_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv",
      "logdir/run2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv",
      // Only profiler metadata, no ASCEND_PROFILER_OUTPUT data: not a profile (plugin rule).
      "logdir/run3/rank0_ascend_pt/profiler_info_0.json",
      "logdir/run3/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv",
      "logdir/notes.txt",
  };
  const RunDiscovery d = discover_runs(paths);
  EXPECT_EQ(d.root, "logdir");
  ASSERT_EQ(d.runs.size(), 2u);
  const DiscoveredRun& r1 = d.runs[0];
  EXPECT_EQ(r1.name, "run1");
  EXPECT_EQ(r1.dir, "logdir/run1");
  ASSERT_EQ(r1.profiles.size(), 3u);
  EXPECT_EQ(r1.workers, (std::vector<std::string>{"host_12345", "worker0"}));
  EXPECT_EQ(run_worker_spans(r1, "host_12345"), (std::vector<std::string>{"20240101", "20240102"}));
  EXPECT_EQ(run_worker_spans(r1, "worker0"), (std::vector<std::string>{"1234.5"}));
  const DiscoveredProfile& p = r1.profiles[0];
  EXPECT_EQ(p.kind, ProfileKind::kAscend);
  EXPECT_EQ(p.dir, "logdir/run1/host_12345_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT");
  EXPECT_EQ(p.get(RunFile::kKernelDetails), 0);
  EXPECT_EQ(p.get(RunFile::kTrace), 1);
  EXPECT_EQ(p.get(RunFile::kOperatorDetails), -1);
  EXPECT_EQ(p.all_files, (std::vector<uint32_t>{0, 1, 2}));
  const DiscoveredRun& r2 = d.runs[1];
  EXPECT_EQ(r2.name, "run2");
  ASSERT_EQ(r2.profiles.size(), 1u);
  EXPECT_EQ(r2.profiles[0].worker, "rank0");
  EXPECT_EQ(r2.profiles[0].span, "");
  EXPECT_EQ(run_find_profile(r2, "rank0", ""), 0);
  EXPECT_EQ(run_find_profile(r2, "rank1", ""), -1);
}

TEST(RunDiscovery, KinetoWorkerSpanNaming) {
  const std::vector<std::string> paths = {
      "tb/resnet/worker0.1623143566756.pt.trace.json.gz",
      "tb/resnet/worker0.1623143566999.pt.trace.json.gz",
      "tb/resnet/worker1.1623143566756.pt.trace.json",
      "tb/resnet/host.7.1623.pt.trace.json.zst",
      "tb/plain/worker0.pt.trace.json",
      "tb/plain/worker0.json",  // not a profiler trace name
      "tb/plain/readme.md",
  };
  const RunDiscovery d = discover_runs(paths);
  EXPECT_EQ(d.root, "tb");
  ASSERT_EQ(d.runs.size(), 2u);
  EXPECT_EQ(d.runs[0].name, "plain");
  ASSERT_EQ(d.runs[0].profiles.size(), 1u);
  EXPECT_EQ(d.runs[0].profiles[0].worker, "worker0");
  EXPECT_EQ(d.runs[0].profiles[0].span, "");
  EXPECT_EQ(d.runs[0].profiles[0].get(RunFile::kTrace), 4);
  const DiscoveredRun& r = d.runs[1];
  EXPECT_EQ(r.name, "resnet");
  EXPECT_EQ(r.workers, (std::vector<std::string>{"host.7", "worker0", "worker1"}));
  EXPECT_EQ(run_worker_spans(r, "worker0"),
            (std::vector<std::string>{"1623143566756", "1623143566999"}));
  EXPECT_EQ(run_worker_spans(r, "host.7"), (std::vector<std::string>{"1623"}));
  EXPECT_EQ(r.profiles[0].kind, ProfileKind::kKineto);
  EXPECT_EQ(r.profiles[0].dir, "tb/resnet");
}

TEST(RunDiscovery, RootIsTheRunWhenTheFolderHoldsProfiles) {
  const RunDiscovery d =
      discover_runs({"level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
                     "level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"});
  ASSERT_EQ(d.runs.size(), 1u);
  EXPECT_EQ(d.runs[0].name, "level1");
  EXPECT_EQ(d.runs[0].workers, (std::vector<std::string>{"rank0", "rank1"}));
  // Paths without a shared root: the run directories are named as given.
  const RunDiscovery e =
      discover_runs({"a/w.pt.trace.json", "b/w.pt.trace.json", "x.pt.trace.json"});
  EXPECT_EQ(e.root, "");
  ASSERT_EQ(e.runs.size(), 3u);
  EXPECT_EQ(e.runs[0].name, ".");
  EXPECT_EQ(e.runs[1].name, "a");
  EXPECT_EQ(e.runs[2].name, "b");
  EXPECT_FALSE(paths_hold_runs({"trace.json", "a/b/memory_record.csv"}));
  EXPECT_TRUE(paths_hold_runs({"x.pt.trace.json"}));
}

TEST(RunDiscovery, ViewsNeedTheirFiles) {
  const RunDiscovery d = discover_runs({
      "r/a_1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
      "r/a_1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
      "r/b_1_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv",
      "r/b_1_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv",
      "r/b_1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
  });
  ASSERT_EQ(d.runs.size(), 1u);
  const DiscoveredRun& r = d.runs[0];
  auto view = [&](size_t p, RunView v) { return run_view_availability(d, r, p, v); };
  EXPECT_TRUE(view(0, RunView::kKernel).enabled);
  EXPECT_FALSE(view(0, RunView::kOperator).enabled);
  EXPECT_EQ(view(0, RunView::kOperator).note, "needs operator_details.csv");
  EXPECT_EQ(view(0, RunView::kTrace).note, "needs trace_view.json");
  EXPECT_EQ(view(0, RunView::kMemory).note, "needs memory_record.csv or operator_memory.csv");
  EXPECT_EQ(view(0, RunView::kDistributed).note, "needs step_trace_time.csv (b)");
  EXPECT_EQ(view(0, RunView::kDiff).note, "needs operator_details.csv");
  EXPECT_FALSE(view(1, RunView::kKernel).enabled);
  EXPECT_TRUE(view(1, RunView::kOperator).enabled);
  EXPECT_TRUE(view(1, RunView::kTrace).enabled);
  EXPECT_TRUE(view(1, RunView::kMemory).enabled);
  EXPECT_TRUE(view(1, RunView::kDiff).enabled);

  const RunDiscovery k = discover_runs({"r/w0.pt.trace.json"});
  const RunView all[] = {RunView::kOperator, RunView::kKernel, RunView::kTrace, RunView::kMemory};
  for (RunView v : all) EXPECT_TRUE(run_view_availability(k, k.runs[0], 0, v).enabled);
  EXPECT_EQ(run_view_availability(k, k.runs[0], 0, RunView::kDistributed).note,
            "needs the traces of several workers (*.pt.trace.json)");
  EXPECT_EQ(run_view_availability(k, k.runs[0], 0, RunView::kDiff).note, "needs a second profile");
  RunView v;
  EXPECT_TRUE(run_view_from_name("distributed", &v));
  EXPECT_EQ(v, RunView::kDistributed);
  EXPECT_FALSE(run_view_from_name("overview", &v));
}

TEST(RunDiscovery, JsonListsRunsProfilesFilesAndViews) {
  const RunDiscovery d = discover_runs({"f/r/w.1.pt.trace.json", "f/r/w.2.pt.trace.json"});
  const std::string prefix =
      "{\"root\":\"f\",\"runs\":[{\"name\":\"r\",\"dir\":\"f/r\",\"workers\":[{\"name\":\"w\","
      "\"spans\":[\"1\",\"2\"]}],";
  EXPECT_EQ(run_discovery_json(d).rfind(prefix, 0), 0u) << run_discovery_json(d);
  EXPECT_NE(run_discovery_json(d).find("\"files\":{\"trace_view.json\":1}"), std::string::npos);
  EXPECT_NE(run_discovery_json(d).find("\"Diff\":{\"enabled\":true,\"note\":\"\"}"),
            std::string::npos);
}

TEST(RunDiscovery, RealAscendFolderWithTwoRanks) {
  const std::filesystem::path dir =
      std::filesystem::path(STRATA_SHARED_DATA) / "ascend/msinsight/text_level1";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no " << dir;
  const std::vector<std::string> paths = list_folder(dir);
  const RunDiscovery d = discover_runs(paths);
  EXPECT_EQ(d.root, "text_level1");
  ASSERT_EQ(d.runs.size(), 1u);
  const DiscoveredRun& r = d.runs[0];
  EXPECT_EQ(r.name, "text_level1");
  EXPECT_EQ(r.workers, (std::vector<std::string>{"rank0", "rank1"}));
  ASSERT_EQ(r.profiles.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_GE(r.profiles[i].get(RunFile::kKernelDetails), 0);
    EXPECT_GE(r.profiles[i].get(RunFile::kOperatorDetails), 0);
    EXPECT_GE(r.profiles[i].get(RunFile::kCommunication), 0);
    EXPECT_TRUE(run_view_availability(d, r, i, RunView::kDistributed).enabled);
    EXPECT_TRUE(run_view_availability(d, r, i, RunView::kDiff).enabled);
  }
  EXPECT_TRUE(run_view_availability(d, r, 1, RunView::kTrace).enabled);
  EXPECT_EQ(paths[r.profiles[0].get(RunFile::kTrace)],
            "text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
  // The same folder without rank1's kernel_details.csv: only that profile's Kernel view is off.
  std::vector<std::string> less = paths;
  std::erase(less, "text_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
  ASSERT_EQ(less.size() + 1, paths.size());
  const RunDiscovery e = discover_runs(less);
  EXPECT_TRUE(run_view_availability(e, e.runs[0], 0, RunView::kKernel).enabled);
  EXPECT_EQ(run_view_availability(e, e.runs[0], 1, RunView::kKernel).note,
            "needs kernel_details.csv");
  EXPECT_TRUE(run_view_availability(e, e.runs[0], 1, RunView::kOperator).enabled);
}

TEST(RunDiscovery, RealKinetoPluginSamples) {
  const std::filesystem::path dir =
      std::filesystem::path(STRATA_SHARED_DATA) / "pytorch_kineto/kineto-tb_plugin";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no " << dir;
  const RunDiscovery d = discover_runs(list_folder(dir));
  ASSERT_EQ(d.runs.size(), 3u);
  EXPECT_EQ(d.runs[0].name, "resnet50_autograd_api_num_workers_0");
  EXPECT_EQ(d.runs[1].name, "resnet50_num_workers_0");
  EXPECT_EQ(d.runs[2].name, "resnet50_num_workers_4");
  EXPECT_EQ(d.runs[0].profiles[0].span, "");
  EXPECT_EQ(d.runs[1].profiles[0].worker, "worker0");
  EXPECT_EQ(d.runs[1].profiles[0].span, "1623143566756");
  EXPECT_EQ(d.runs[2].profiles[0].span, "1623213129365");
}

// A real multi-rank run: each rank's trace has its own span (its own timestamp), so no span has
// two workers; the Distributed view compares one trace per worker. HTA names ranks' traces
// rank-N.json.gz: those are Kineto profiles too.
TEST(RunDiscovery, KinetoRanksWithDifferentSpansAndRankNamedTraces) {
  const RunDiscovery d = discover_runs(
      {"f/r/worker0.1623143566756.pt.trace.json", "f/r/worker1.1623143566999.pt.trace.json.gz"});
  ASSERT_EQ(d.runs.size(), 1u);
  const DiscoveredRun& r = d.runs[0];
  ASSERT_EQ(r.profiles.size(), 2u);
  EXPECT_TRUE(run_view_availability(d, r, 0, RunView::kDistributed).enabled);
  EXPECT_EQ(run_distributed_set(r, 0), (std::vector<uint32_t>{0, 1}));
  EXPECT_NE(run_discovery_json(d).find("\"distributed\":[0,1]"), std::string::npos);

  const RunDiscovery h =
      discover_runs({"trace_filter/sampled_rank-0.json.gz", "trace_filter/sampled_rank-1.json.gz",
                     "trace_filter/notes.json", "trace_filter/rank.json"});
  ASSERT_EQ(h.runs.size(), 1u);
  EXPECT_EQ(h.runs[0].workers, (std::vector<std::string>{"sampled_rank-0", "sampled_rank-1"}));
  EXPECT_EQ(h.runs[0].profiles[0].kind, ProfileKind::kKineto);
  EXPECT_TRUE(run_view_availability(h, h.runs[0], 1, RunView::kDistributed).enabled);

  // One worker with two spans is still one worker.
  const RunDiscovery one = discover_runs({"f/r/w.1.pt.trace.json", "f/r/w.2.pt.trace.json"});
  EXPECT_FALSE(run_view_availability(one, one.runs[0], 0, RunView::kDistributed).enabled);
  EXPECT_EQ(run_distributed_set(one.runs[0], 1), (std::vector<uint32_t>{1}));
}

}  // namespace
}  // namespace strata
