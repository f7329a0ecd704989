// Run statistics from the Ascend profiler's tables (core/runs): operator, kernel, distributed
// and diff numbers on the real msinsight / mstt samples, against sums the test computes itself
// with its own CSV splitter and text scans.
#include <cmath>
#include <map>
#include <set>

#include "core/runs/run_stats.h"
#include "core/runs/run_stats_json.h"
#include "runs_test_util.h"

namespace strata::testing {
namespace {

using namespace strata::runs;

const char* kLevel0 = "ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
const char* kRank0 = "ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
const char* kRank1 = "ascend/msinsight/text_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/";

#define READ_OR_SKIP(rel, var) \
  std::string var;             \
  if (!read_shared_text(rel, &var)) GTEST_SKIP() << "no " << (rel);

struct OpSums {
  size_t rows = 0;
  double hs = 0, ht = 0, ds = 0, dt = 0;
  std::map<std::string, size_t> calls;
};

OpSums naive_operator_sums(const std::string& text) {
  auto rows = naive_csv(text);
  OpSums s;
  const auto& h = rows[0];
  int name = naive_col(h, "Name"), hs = naive_col(h, "Host Self Duration(us)"),
      ht = naive_col(h, "Host Total Duration(us)"), ds = naive_col(h, "Device Self Duration(us)"),
      dt = naive_col(h, "Device Total Duration(us)");
  for (size_t r = 1; r < rows.size(); ++r) {
    ++s.rows;
    ++s.calls[rows[r][name]];
    s.hs += naive_num(rows[r], hs);
    s.ht += naive_num(rows[r], ht);
    s.ds += naive_num(rows[r], ds);
    s.dt += naive_num(rows[r], dt);
  }
  return s;
}

void expect_near_rel(double a, double b, const char* what) {
  EXPECT_NEAR(a, b, 1e-6 * std::max(1.0, std::fabs(b))) << what;
}

void check_operator_file(const std::string& rel) {
  std::string text;
  if (!read_shared_text(rel, &text)) GTEST_SKIP() << "no " << rel;
  const OpSums want = naive_operator_sums(text);
  ASSERT_GT(want.rows, 800u);
  for (bool by_shape : {false, true}) {
    std::string err;
    OperatorTable t = ascend_operator_table(text, by_shape, &err);
    EXPECT_EQ(err, "");
    EXPECT_TRUE(t.missing.empty());
    double hs = 0, ht = 0, ds = 0, dt = 0;
    uint64_t calls = 0;
    std::map<std::string, uint64_t> by_name;
    for (const OperatorRow& r : t.rows) {
      calls += r.calls;
      hs += r.host_self_us;
      ht += r.host_total_us;
      ds += r.device_self_us;
      dt += r.device_total_us;
      by_name[r.name] += r.calls;
      EXPECT_LE(r.device_self_us, r.device_total_us + 1e-6) << r.name;
      if (!is_missing(r.ai_core_total_pct)) {
        EXPECT_GE(r.ai_core_total_pct, 0) << r.name;
        EXPECT_LE(r.ai_core_total_pct, 100 + 1e-6) << r.name;
        EXPECT_TRUE(r.ai_core_eligible || r.ai_core_total_pct == 0) << r.name;
      }
      uint64_t stacked = 0;
      for (const CallStackCount& c : r.call_stacks) stacked += c.count;
      EXPECT_LE(stacked, r.calls);
      if (!by_shape) {
        EXPECT_TRUE(r.input_shape.empty());
      }
    }
    EXPECT_EQ(calls, want.rows);
    expect_near_rel(hs, want.hs, "host self");
    expect_near_rel(ht, want.ht, "host total");
    expect_near_rel(ds, want.ds, "device self");
    expect_near_rel(dt, want.dt, "device total");
    EXPECT_EQ(by_name.size(), want.calls.size());
    for (const auto& [name, n] : want.calls) EXPECT_EQ(by_name[name], n) << name;
    if (by_shape) {
      EXPECT_GT(t.rows.size(), want.calls.size());
    } else {
      EXPECT_EQ(t.rows.size(), want.calls.size());
    }
    // Sorted by device self time.
    for (size_t i = 1; i < t.rows.size(); ++i)
      ASSERT_GE(t.rows[i - 1].device_self_us, t.rows[i].device_self_us);
  }
}

TEST(RunsAscend, OperatorTotalsEqualTheCsvSums) {
  check_operator_file(std::string(kLevel0) + "operator_details.csv");
  check_operator_file(std::string(kRank0) + "operator_details.csv");
  check_operator_file(std::string(kRank1) + "operator_details.csv");
}

TEST(RunsAscend, OperatorDetailsAicoreAndStacks) {
  READ_OR_SKIP(std::string(kRank0) + "operator_details.csv", text);
  std::string err;
  OperatorTable t = ascend_operator_table(text, false, &err);
  const OperatorRow* dropout = nullptr;
  for (const OperatorRow& r : t.rows)
    if (r.name == "aten::dropout") dropout = &r;
  ASSERT_NE(dropout, nullptr);
  EXPECT_TRUE(dropout->ai_core_eligible);
  EXPECT_GT(dropout->ai_core_total_pct, 0);
  ASSERT_FALSE(dropout->call_stacks.empty());
  EXPECT_NE(dropout->call_stacks[0].stack.find("functional.py"), std::string::npos);
}

TEST(RunsAscend, MissingColumnsAreReportedNotZero) {
  const std::string csv =
      "Name,Input Shapes,Host Total Duration(us)\n"
      "aten::add,\"2,3\",10\n"
      "aten::add,\"4\",5\n"
      "aten::mul,,1.5\n";
  std::string err;
  OperatorTable t = ascend_operator_table(csv, true, &err);
  ASSERT_EQ(t.rows.size(), 3u);
  std::set<std::string> missing(t.missing.begin(), t.missing.end());
  EXPECT_TRUE(missing.count("hostSelfUs"));
  EXPECT_TRUE(missing.count("deviceSelfUs"));
  EXPECT_TRUE(missing.count("deviceTotalUs"));
  EXPECT_TRUE(missing.count("callStacks"));
  EXPECT_FALSE(missing.count("hostTotalUs"));
  for (const OperatorRow& r : t.rows) {
    EXPECT_TRUE(is_missing(r.device_self_us));
    EXPECT_TRUE(is_missing(r.host_self_us));
    EXPECT_FALSE(is_missing(r.host_total_us));
  }
  OperatorTable byname = ascend_operator_table(csv, false, &err);
  ASSERT_EQ(byname.rows.size(), 2u);
  std::string json;
  operators_json(byname, 0, false, &json);
  EXPECT_NE(json.find("\"deviceSelfUs\":null"), std::string::npos) << json;
  EXPECT_NE(json.find("\"hostTotalUs\":15"), std::string::npos) << json;

  // Not a CSV with a Name column: a message, no rows.
  OperatorTable bad = ascend_operator_table("a,b\n1,2\n", false, &err);
  EXPECT_TRUE(bad.rows.empty());
  EXPECT_NE(err.find("Name"), std::string::npos);
}

void check_kernel_file(const std::string& rel, size_t want_rows) {
  std::string text;
  if (!read_shared_text(rel, &text)) GTEST_SKIP() << "no " << rel;
  auto rows = naive_csv(text);
  int c_dur = naive_col(rows[0], "Duration(us)"), c_name = naive_col(rows[0], "Name"),
      c_core = naive_col(rows[0], "Accelerator Core");
  double total = 0;
  std::map<std::string, double> core_total;
  std::map<std::string, size_t> name_count;
  for (size_t r = 1; r < rows.size(); ++r) {
    double d = naive_num(rows[r], c_dur);
    total += d;
    core_total[rows[r][c_core]] += d;
    ++name_count[rows[r][c_name]];
  }
  ASSERT_EQ(rows.size() - 1, want_rows);
  std::string err;
  KernelTable t = ascend_kernel_table(text, "", "", &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(t.details.size(), want_rows);
  double sum = 0, det = 0;
  uint64_t count = 0;
  for (const KernelRow& k : t.rows) {
    sum += k.total_us;
    count += k.count;
    EXPECT_LE(k.min_us, k.avg_us + 1e-9);
    EXPECT_LE(k.avg_us, k.max_us + 1e-9);
    EXPECT_NEAR(k.avg_us * double(k.count), k.total_us, 1e-6 * k.total_us + 1e-9);
  }
  for (const KernelDetail& d : t.details) det += d.duration_us;
  EXPECT_EQ(count, want_rows);
  expect_near_rel(sum, total, "kernel total");
  expect_near_rel(det, total, "detail total");
  ASSERT_EQ(t.by_core_type.size(), core_total.size());
  for (const KernelGroup& g : t.by_core_type)
    expect_near_rel(g.total_us, core_total[g.key], "core");
  // Per name: the naive count of rows with that name is the sum over its core types.
  std::map<std::string, uint64_t> got;
  for (const KernelRow& k : t.rows) got[k.name] += k.count;
  for (const auto& [name, n] : name_count) EXPECT_EQ(got[name], n) << name;
}

TEST(RunsAscend, KernelTotalsEqualTheCsvSums) {
  check_kernel_file(std::string(kLevel0) + "kernel_details.csv", 191);
  check_kernel_file(std::string(kRank0) + "kernel_details.csv", 191);
  check_kernel_file("ascend/mstt/compute_advice/kernel_details.csv", 591);
}

TEST(RunsAscend, KernelCoreTypesStepsAndOpStatistic) {
  READ_OR_SKIP(std::string(kRank0) + "kernel_details.csv", kernels);
  READ_OR_SKIP(std::string(kRank0) + "op_statistic.csv", opstat);
  std::string err;
  KernelTable t = ascend_kernel_table(kernels, opstat, "", &err);
  std::set<std::string> cores;
  for (const KernelGroup& g : t.by_core_type) cores.insert(g.key);
  EXPECT_TRUE(cores.count("AI_VECTOR_CORE"));
  EXPECT_TRUE(cores.count("AI_CORE"));
  // op_statistic.csv: 33 (type, core) rows; its first line is ForeachAddList 1959.079 us.
  ASSERT_EQ(t.by_op_type.size(), 33u);
  EXPECT_EQ(t.by_op_type[0].key, "ForeachAddList");
  EXPECT_EQ(t.by_op_type[0].core_type, "AI_VECTOR_CORE");
  EXPECT_NEAR(t.by_op_type[0].total_us, 1959.079, 1e-9);
  EXPECT_EQ(t.by_op_type[0].count, 3u);
  // Step filter: every row is step 50, "step50" names it too, step 7 has nothing.
  EXPECT_EQ(ascend_kernel_table(kernels, "", "step50", &err).details.size(), 191u);
  EXPECT_EQ(ascend_kernel_table(kernels, "", "7", &err).details.size(), 0u);
  // The profiler's own op_statistic agrees with the kernels grouped by (Type, core).
  KernelTable computed = ascend_kernel_table(kernels, "", "", &err);
  std::map<std::string, double> a, b;
  for (const KernelGroup& g : t.by_op_type) a[g.key + "|" + g.core_type] = g.total_us;
  for (const KernelGroup& g : computed.by_op_type) b[g.key + "|" + g.core_type] = g.total_us;
  for (const auto& [k, v] : a) EXPECT_NEAR(b[k], v, 0.01 + 1e-4 * v) << k;
}

// The "Transit/Wait/Synchronization Time(ms)" of each "Communication Time Info" block but
// "Total Op Info"'s, by plain text search.
std::map<std::string, double> naive_comm_sums(const std::string& json) {
  std::map<std::string, double> out;
  const std::string info = "\"Communication Time Info\"";
  size_t pos = 0;
  while ((pos = json.find(info, pos)) != std::string::npos) {
    size_t key_end = json.rfind("\":", pos);  // end of the enclosing op's key
    size_t key_begin = json.rfind('"', key_end - 1);
    std::string op = json.substr(key_begin + 1, key_end - key_begin - 1);
    size_t end = json.find('}', pos);
    std::string block = json.substr(pos, end - pos);
    pos = end;
    if (op == "Total Op Info") continue;
    for (const char* f :
         {"Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)", "Synchronization Time(ms)"}) {
      size_t k = block.find(std::string("\"") + f + "\":");
      if (k != std::string::npos) out[f] += std::atof(block.c_str() + k + std::strlen(f) + 3);
    }
  }
  return out;
}

TEST(RunsAscend, CardDistributedFromStepTraceAndCommunication) {
  for (int card : {0, 1}) {
    const std::string dir = card ? kRank1 : kRank0;
    READ_OR_SKIP(dir + "step_trace_time.csv", steps);
    READ_OR_SKIP(dir + "communication.json", comm);
    auto rows = naive_csv(steps);
    ASSERT_EQ(rows.size(), 2u);
    const auto& h = rows[0];
    std::string err;
    DistributedTable t = ascend_card_distributed(card, steps, comm, "", &err);
    EXPECT_EQ(err, "");
    ASSERT_EQ(t.rows.size(), 1u);
    const DistributedRow& r = t.rows[0];
    EXPECT_EQ(r.card, card);
    EXPECT_DOUBLE_EQ(r.compute_us, naive_num(rows[1], naive_col(h, "Computing")));
    EXPECT_DOUBLE_EQ(r.communication_us, naive_num(rows[1], naive_col(h, "Communication")));
    EXPECT_DOUBLE_EQ(r.overlap_us, naive_num(rows[1], naive_col(h, "Overlapped")));
    EXPECT_DOUBLE_EQ(r.free_us, naive_num(rows[1], naive_col(h, "Free")));
    // The four bars add up to the step (Stage + Bubble) within the file's rounding (Stage is
    // written to 0.25 us).
    EXPECT_NEAR(r.compute_us + r.communication_us - r.overlap_us + r.free_us, r.span_us, 0.25);
    auto want = naive_comm_sums(comm);
    EXPECT_NEAR(r.transfer_us, want["Transit Time(ms)"] * 1000, 1e-6);
    EXPECT_NEAR(r.wait_us, want["Wait Time(ms)"] * 1000, 1e-6);
    EXPECT_NEAR(r.sync_us, want["Synchronization Time(ms)"] * 1000, 1e-6);
    EXPECT_LE(r.sync_us, r.wait_us);
    ASSERT_EQ(r.comm_ops.size(), 1u);  // four hcom_allReduce calls
    EXPECT_EQ(r.comm_ops[0].name, "hcom_allReduce");
    EXPECT_EQ(r.comm_ops[0].calls, 4u);
    EXPECT_NEAR(r.comm_ops[0].elapse_us, want["Elapse Time(ms)"] * 1000, 1e-6);
    // Step selection.
    DistributedTable s50 = ascend_card_distributed(card, steps, comm, "step50", &err);
    ASSERT_EQ(s50.rows.size(), 1u);
    EXPECT_EQ(s50.rows[0].step, "50");
    EXPECT_DOUBLE_EQ(s50.rows[0].compute_us, r.compute_us);
    std::string err2;
    EXPECT_TRUE(ascend_card_distributed(card, steps, comm, "9", &err2).rows.empty());
    EXPECT_NE(err2.find("step 9"), std::string::npos);
  }
}

TEST(RunsAscend, ClusterDistributed) {
  READ_OR_SKIP("ascend/mstt/cluster_analysis_output/cluster_step_trace_time.csv", steps);
  READ_OR_SKIP("ascend/mstt/cluster_analysis_output/cluster_communication.json", comm);
  std::string err;
  DistributedTable t = ascend_cluster_distributed(steps, comm, &err);
  EXPECT_EQ(err, "");
  ASSERT_EQ(t.rows.size(), 8u);  // the "stage" row is not a card
  auto rows = naive_csv(steps);
  const auto& h = rows[0];
  for (size_t i = 0; i < 8; ++i) {
    const DistributedRow& r = t.rows[i];
    EXPECT_EQ(r.card, int(i));
    EXPECT_DOUBLE_EQ(r.compute_us, naive_num(rows[i + 1], naive_col(h, "Computing")));
    EXPECT_DOUBLE_EQ(r.free_us, naive_num(rows[i + 1], naive_col(h, "Free")));
    EXPECT_NEAR(r.compute_us + r.communication_us - r.overlap_us + r.free_us, r.span_us,
                1e-6 * r.span_us);
    // cluster_communication.json covers the group (0, 1) only.
    EXPECT_EQ(r.comm_ops.empty(), i > 1) << i;
  }
  EXPECT_EQ(t.rows[0].comm_ops[0].name, "hcom_broadcast");
  EXPECT_GT(t.rows[0].transfer_us, 0);
  EXPECT_TRUE(is_missing(t.rows[5].transfer_us));
  std::string json;
  distributed_json(t, &json);
  EXPECT_NE(json.find("\"card\":7"), std::string::npos);
}

TEST(RunsAscend, DiffOfTwoRanks) {
  READ_OR_SKIP(std::string(kRank0) + "operator_details.csv", op0);
  READ_OR_SKIP(std::string(kRank1) + "operator_details.csv", op1);
  READ_OR_SKIP(std::string(kRank0) + "kernel_details.csv", k0);
  READ_OR_SKIP(std::string(kRank1) + "kernel_details.csv", k1);
  std::string err;
  OperatorTable a = ascend_operator_table(op0, false, &err),
                b = ascend_operator_table(op1, false, &err);
  auto diff = diff_operators(a, b);
  const OpSums sa = naive_operator_sums(op0), sb = naive_operator_sums(op1);
  double host = 0, dev = 0, self_dev = 0;
  for (const OperatorDiffRow& d : diff) {
    host += d.host_diff_us;
    dev += d.device_diff_us;
    self_dev += d.self_device_diff_us;
    if (d.a_host_us > 0) {
      EXPECT_NEAR(d.host_ratio, d.b_host_us / d.a_host_us, 1e-12);
    } else {
      EXPECT_TRUE(is_missing(d.host_ratio));
    }
  }
  EXPECT_NEAR(host, sb.ht - sa.ht, 1e-6 * sa.ht);
  EXPECT_NEAR(dev, sb.dt - sa.dt, 1e-6 * sa.dt);
  EXPECT_NEAR(self_dev, sb.ds - sa.ds, 1e-6 * sa.ds);
  for (size_t i = 1; i < diff.size(); ++i)
    ASSERT_GE(std::fabs(diff[i - 1].device_diff_us), std::fabs(diff[i].device_diff_us));

  StepOpTimes ta = ascend_step_op_times(k0, &err), tb = ascend_step_op_times(k1, &err);
  ASSERT_EQ(ta.steps, std::vector<std::string>{"50"});
  StepDiff sd = step_diff(ta, tb, "50");
  ASSERT_FALSE(sd.rows.empty());
  auto naive_total = [](const std::string& csv) {
    auto rows = naive_csv(csv);
    double sum = 0;
    for (size_t r = 1; r < rows.size(); ++r)
      sum += naive_num(rows[r], naive_col(rows[0], "Duration(us)"));
    return sum;
  };
  const double ka = naive_total(k0), kb = naive_total(k1);
  EXPECT_NEAR(sd.rows.back().cumulative_diff_us, kb - ka, 1e-6 * ka);
  double a_sum = 0;
  for (const StepDiffRow& r : sd.rows) {
    a_sum += r.a_device_us;
    EXPECT_TRUE(is_missing(r.a_host_us));  // kernel_details has no host time
  }
  EXPECT_NEAR(a_sum, ka, 1e-6 * ka);
  EXPECT_TRUE(step_diff(ta, tb, "3").rows.empty());
}

}  // namespace
}  // namespace strata::testing

namespace strata::testing {
namespace {

using namespace strata::runs;

// torch_npu wrote operator_details.csv from the same op tree it wrote to trace_view.json: the
// trace path (tb_plugin's definitions over the store) must give the same calls, host total and
// host self per operator. (Device times differ: the trace ties device tasks to CANN API calls
// on another process, not to the operators, so the CSVs stay the source for those.)
TEST(RunsAscend, TraceViewHostTimesMatchOperatorDetails) {
  for (const char* dir : {kRank0, kLevel0}) {
    std::string tv, csv;
    if (!read_shared_text(std::string(dir) + "trace_view.json", &tv) ||
        !read_shared_text(std::string(dir) + "operator_details.csv", &csv))
      GTEST_SKIP() << "no Ascend samples";
    SCOPED_TRACE(dir);
    ImportResult im = import_json(tv);
    ASSERT_FALSE(im.failed) << im.failure;
    OperatorTable t = trace_operator_table(*im.store, tv, false);
    std::string err;
    OperatorTable c = ascend_operator_table(csv, false, &err);
    std::map<std::string, const OperatorRow*> by_name;
    for (const OperatorRow& r : c.rows) by_name[r.name] = &r;
    ASSERT_GT(t.rows.size(), 100u);
    for (const OperatorRow& r : t.rows) {
      auto it = by_name.find(r.name);
      ASSERT_NE(it, by_name.end()) << r.name;
      EXPECT_EQ(r.calls, it->second->calls) << r.name;
      EXPECT_NEAR(r.host_total_us, it->second->host_total_us, 1e-3 * r.calls) << r.name;
      EXPECT_NEAR(r.host_self_us, it->second->host_self_us, 1e-3 * r.calls) << r.name;
    }
    // The CSV keeps the wrappers tb_plugin's operator table hides (DataLoader, Optimizer.*,
    // DataParallel.forward): every other CSV name is a trace row.
    std::set<std::string> rows;
    for (const OperatorRow& r : t.rows) rows.insert(r.name);
    for (const OperatorRow& r : c.rows) {
      if (rows.count(r.name)) continue;
      EXPECT_TRUE(r.name.rfind("enumerate(DataLoader)#", 0) == 0 ||
                  r.name.rfind("Optimizer.", 0) == 0 ||
                  r.name.find("DataParallel.forward") != std::string::npos)
          << r.name;
    }
  }
}

}  // namespace
}  // namespace strata::testing
