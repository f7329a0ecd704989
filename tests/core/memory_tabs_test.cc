// The Memory, Runs and Loss tabs' models: memory held before the trace began, Kineto files
// without `Addr`, counters whose series name a byte unit, the Diff chart's axis and the Loss
// tab's short names. Expected numbers are written out here from the inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/memory/memory_query.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "ui/loss/loss_names.h"
#include "ui/runs/runs_diff_axis.h"

namespace strata {
namespace {
using testing::read_shared;

void load(Engine* e, const std::string& name, const std::string& bytes) {
  ASSERT_TRUE(testing::load_trace(e, name, bytes)) << e->last_error();
  testing::scan_memory(e, bytes);
}

std::string memory_event(int ts, long long total, long long bytes, const char* addr) {
  std::string args = "\"Total Allocated\":" + std::to_string(total) +
                     ",\"Total Reserved\":1000000,\"Bytes\":" + std::to_string(bytes) +
                     ",\"Device Type\":1,\"Device Id\":0";
  if (addr) args += std::string(",\"Addr\":") + addr;
  return "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":" +
         std::to_string(ts) + ",\"args\":{" + args + "}}";
}

TEST(MemoryBeforeTrace, HeldMemoryIsAGroupOfItsOwnAtThePeak) {
  // 5000 bytes held when the trace begins; 300 and 200 allocated in it; the 300 freed; then
  // 1000 of the held memory freed (an address the trace never saw allocated).
  const std::string t = "{\"traceEvents\":[" + memory_event(10, 5300, 300, "1") + "," +
                        memory_event(20, 5500, 200, "2") + "," + memory_event(30, 5200, -300, "1") +
                        "," + memory_event(40, 4200, -1000, "99") + "]}";
  Engine e;
  load(&e, "m.json", t);
  const MemoryData& m = e.memory();
  EXPECT_EQ(m.paired_devices, std::vector<std::string>{"GPU 0"});
  EXPECT_TRUE(m.addressless_devices.empty());
  auto before = [&](TimeNs ts) {
    return memory_untracked_at(m, "GPU 0", ts, memory_live_at(m, "GPU 0", ts));
  };
  const TimeNs us = 1000;
  EXPECT_DOUBLE_EQ(before(20 * us), 5000);  // the peak: 5500 = 5000 + 300 + 200
  EXPECT_DOUBLE_EQ(before(35 * us), 5000);
  EXPECT_DOUBLE_EQ(before(45 * us), 4000);
  EXPECT_DOUBLE_EQ(before(5 * us), 0);  // before the first sample
  // The live reply at the peak (relative ns: the trace starts at 10 µs) has the group, and
  // its total is what the chart shows.
  const std::string live = e.memory_query_json("memory_live", "{\"device\":\"GPU 0\",\"t\":10000}");
  EXPECT_NE(live.find("\"bytes\":5500"), std::string::npos) << live;
  EXPECT_NE(live.find("\"beforeTraceBytes\":5000"), std::string::npos) << live;
  EXPECT_NE(live.find("{\"key\":\"(allocated before the trace began)\",\"beforeTrace\":true,"
                      "\"bytes\":5000,\"count\":0"),
            std::string::npos)
      << live;
  EXPECT_NE(e.memory_query_json("memory", "{}").find("\"pairsAllocations\":true"),
            std::string::npos);
}

TEST(MemoryBeforeTrace, NothingHeldMeansNoGroup) {
  const std::string t = "{\"traceEvents\":[" + memory_event(10, 300, 300, "1") + "," +
                        memory_event(20, 0, -300, "1") + "]}";
  Engine e;
  load(&e, "m.json", t);
  const std::string live = e.memory_query_json("memory_live", "{\"device\":\"GPU 0\",\"t\":0}");
  EXPECT_EQ(live.find("beforeTrace\":true"), std::string::npos) << live;
  EXPECT_NE(live.find("\"beforeTraceBytes\":0"), std::string::npos) << live;
}

TEST(MemoryAddressless, OldKinetoWithoutAddrIsNamedAndHasNoRows) {
  const std::string t = "{\"traceEvents\":[" + memory_event(10, 300, 300, nullptr) + "," +
                        memory_event(20, 0, -300, nullptr) + "]}";
  Engine e;
  load(&e, "m.json", t);
  EXPECT_EQ(e.memory().addressless_devices, std::vector<std::string>{"GPU 0"});
  EXPECT_TRUE(e.memory().paired_devices.empty());
  EXPECT_EQ(e.memory().allocations.size(), 0u);
  const std::string s = e.memory_query_json("memory", "{}");
  EXPECT_NE(s.find("\"noAddr\":true"), std::string::npos) << s;
  // Nothing is named "before the trace" when no call can be paired.
  EXPECT_EQ(memory_untracked_at(e.memory(), "GPU 0", 15000, {}), 0);
}

TEST(MemoryAddressless, RealResnetTraceOf2021) {
  std::string gz;
  const char* f =
      "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/"
      "worker0.1623143566756.pt.trace.json.gz";
  if (!read_shared(f, &gz)) GTEST_SKIP() << "no " << f << " in ../shared/data";
  Engine e;
  load(&e, "worker0.pt.trace.json.gz", gz);
  const MemoryData& m = e.memory();
  ASSERT_FALSE(m.series.empty());
  EXPECT_EQ(m.allocations.size(), 0u);
  EXPECT_FALSE(m.addressless_devices.empty());
  for (const std::string& d : memory_devices(m))
    EXPECT_NE(std::find(m.addressless_devices.begin(), m.addressless_devices.end(), d),
              m.addressless_devices.end())
        << d;
}

TEST(MemoryCounters, SeriesInBytesChartWhateverTheirName) {
  // "KV Cache" does not say memory; its series' unit does. "GPU Utilization" is neither.
  const std::string t = R"json({"traceEvents":[
{"ph":"C","name":"KV Cache","pid":1,"ts":10,"args":{"Used (MiB)":1120}},
{"ph":"C","name":"KV Cache","pid":1,"ts":20,"args":{"Used (MiB)":640}},
{"ph":"C","name":"Pool","pid":1,"ts":10,"args":{"Allocated (MB)":1120,"Reserved (GB)":2}},
{"ph":"C","name":"GPU Utilization","pid":1,"ts":10,"args":{"value":70}}]})json";
  Engine e;
  load(&e, "c.json", t);
  const MemoryData& m = e.memory();
  const std::vector<std::string> devices = memory_devices(m);
  EXPECT_EQ(devices, (std::vector<std::string>{"KV Cache", "Pool"}));
  const MemoryPeak kv = series_peak(m.series[memory_primary_series(m, "KV Cache")], false);
  EXPECT_DOUBLE_EQ(kv.bytes, 1120.0 * 1024 * 1024);
  double pool_alloc = 0, pool_resv = 0;
  for (const MemorySeries& s : m.series) {
    if (s.device != "Pool") continue;
    const MemoryPeak a = series_peak(s, false), r = series_peak(s, true);
    if (a.valid) pool_alloc = a.bytes;
    if (r.valid) pool_resv = r.bytes;
  }
  EXPECT_DOUBLE_EQ(pool_alloc, 1120.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(pool_resv, 2.0 * 1024 * 1024 * 1024);
}

TEST(DiffAxis, LinearAtRoundTicksUnlessOneTypeDominates) {
  const DiffAxis lin = diff_bar_axis({120, 340, 90});
  EXPECT_FALSE(lin.log);
  EXPECT_EQ(lin.ticks, (std::vector<double>{0, 100, 200, 300, 400}));
  EXPECT_DOUBLE_EQ(lin.at(200), 0.5);
  const DiffAxis log = diff_bar_axis({250000, 1200, 35, 0});
  EXPECT_TRUE(log.log);
  EXPECT_EQ(log.ticks, (std::vector<double>{10, 100, 1000, 10000, 100000, 1000000}));
  EXPECT_DOUBLE_EQ(log.at(1000), 0.4);
  EXPECT_DOUBLE_EQ(log.at(0), 0);
  // The small types keep a visible height: 35 µs is over a fifth of the axis, not 0.01%.
  EXPECT_GT(log.at(35), 0.05);
  EXPECT_EQ(diff_bar_axis({}).ticks.size(), 2u);
  EXPECT_EQ(runs_us_short(1500), "1.5k");
  EXPECT_EQ(runs_us_short(250), "250");
  EXPECT_EQ(runs_us_short(12e6), "12M");
}

TEST(LossNames, ASharedLongStartGivesWayToThePartThatDiffers) {
  EXPECT_EQ(loss_short_names(
                {"gpt3-357m-pretrain-lr1e-4-seed1.log", "gpt3-357m-pretrain-lr3e-4-seed1.log"}),
            (std::vector<std::string>{"...lr1e-4-seed1.log", "...lr3e-4-seed1.log"}));
  // Cut at a word boundary, so the differing word stays whole.
  EXPECT_EQ(
      loss_short_names({"deepspeed_chat_step1_opt-1.3b.log", "deepspeed_chat_step1_opt-6.7b.log"}),
      (std::vector<std::string>{"...1.3b.log", "...6.7b.log"}));
  // Short shared starts and single names stay as they are.
  EXPECT_EQ(loss_short_names({"run_a.log", "run_b.log"}),
            (std::vector<std::string>{"run_a.log", "run_b.log"}));
  EXPECT_EQ(loss_short_names({"a-very-long-training-log-name.log"}),
            (std::vector<std::string>{"a-very-long-training-log-name.log"}));
  EXPECT_EQ(loss_short_names({"experiment-2026-11-30-a.log", "other.log"}),
            (std::vector<std::string>{"experiment-2026-11-30-a.log", "other.log"}));
}

}  // namespace
}  // namespace strata
