// The Runs tab reads the statistics JSON the engine worker writes (core/runs/run_stats_json
// inside runs_exports.cc's object) back into its plain vectors: every field the tables and
// charts draw, on a real Ascend profile and on hand-made rows (NaN → null → NaN).
#include <gtest/gtest.h>

#include <cmath>

#include "core/runs/run_stats.h"
#include "core/runs/run_stats_json.h"
#include "runs_test_util.h"
#include "ui/runs/runs_view.h"

namespace strata::testing {
namespace {

// The object runs_exports.cc writes: {"ok":true,"<key>":<array>,...,"errors":[...]}.
std::string wrap(const std::vector<std::pair<std::string, std::string>>& parts) {
  std::string s = "{\"ok\":true";
  for (const auto& [k, v] : parts) s += ",\"" + k + "\":" + v;
  return s + ",\"errors\":[]}";
}

TEST(RunsViewReply, RealOperatorsAndKernelsRoundTrip) {
  std::string ops_csv, kernels_csv;
  const std::string dir = "ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
  if (!read_shared_text(dir + "operator_details.csv", &ops_csv) ||
      !read_shared_text(dir + "kernel_details.csv", &kernels_csv))
    GTEST_SKIP() << "no " << dir;
  std::string err;
  const runs::OperatorTable ops = runs::ascend_operator_table(ops_csv, false, &err);
  ASSERT_TRUE(err.empty()) << err;
  std::string ops_json;
  runs::operators_json(ops, 0, true, &ops_json);
  RunsView v;
  runs_view_stats(&v, "operators", wrap({{"operators", ops_json}}).c_str());
  ASSERT_TRUE(v.has_ops);
  ASSERT_EQ(v.ops.size(), ops.rows.size());
  for (size_t i = 0; i < ops.rows.size(); ++i) {
    const runs::OperatorRow& r = ops.rows[i];
    const RunsView::Op& o = v.ops[i];
    EXPECT_EQ(o.name, r.name);
    EXPECT_EQ(o.calls, static_cast<double>(r.calls));
    EXPECT_DOUBLE_EQ(o.host_self, r.host_self_us);
    EXPECT_DOUBLE_EQ(o.device_total, r.device_total_us);
    EXPECT_EQ(o.ai_eligible, r.ai_core_eligible);
    EXPECT_EQ(std::isnan(o.ai_self_pct), std::isnan(r.ai_core_self_pct));
    ASSERT_EQ(o.stacks.size(), r.call_stacks.size()) << r.name;
    for (size_t k = 0; k < o.stacks.size(); ++k) {
      EXPECT_EQ(o.stacks[k].first, r.call_stacks[k].stack);
      EXPECT_EQ(o.stacks[k].second, r.call_stacks[k].count);
    }
  }
  const runs::KernelTable k = runs::ascend_kernel_table(kernels_csv, "", "", &err);
  std::string k_json;
  runs::kernels_json(k, 0, &k_json);
  runs_view_stats(&v, "kernels",
                  wrap({{"kernels", k_json}, {"kernelDetailsTotal", "191"}}).c_str());
  ASSERT_EQ(v.kernels.size(), k.rows.size());
  double total = 0, want = 0;
  for (size_t i = 0; i < k.rows.size(); ++i) {
    EXPECT_EQ(v.kernels[i].name, k.rows[i].name);
    EXPECT_EQ(v.kernels[i].core_type, k.rows[i].core_type);
    EXPECT_EQ(v.kernels[i].count, static_cast<double>(k.rows[i].count));
    total += v.kernels[i].total;
    want += k.rows[i].total_us;
  }
  EXPECT_DOUBLE_EQ(total, want);
  EXPECT_EQ(v.details_total, 191);
  EXPECT_TRUE(v.status.empty()) << v.status;
}

TEST(RunsViewReply, DistributedAndDiffRows) {
  runs::DistributedTable t;
  runs::DistributedRow r;
  r.card = 3;
  r.step = "50";
  r.compute_us = 10;
  r.communication_us = 7;
  r.overlap_us = 2;
  r.free_us = 1.5;
  r.transfer_us = 4;
  runs::CommOpRow op;
  op.name = "hcom_allReduce";
  op.calls = 4;
  op.elapse_us = 7;
  r.comm_ops.push_back(op);
  t.rows.push_back(r);
  std::string dist;
  runs::distributed_json(t, &dist);
  RunsView v;
  runs_view_stats(&v, "distributed", wrap({{"distributed", dist}}).c_str());
  ASSERT_EQ(v.cards.size(), 1u);
  const RunsView::Card& c = v.cards[0];
  EXPECT_EQ(c.card, 3);
  EXPECT_EQ(c.step, "50");
  EXPECT_EQ(c.compute, 10);
  EXPECT_EQ(c.communication, 7);
  EXPECT_EQ(c.overlap, 2);
  EXPECT_EQ(c.free, 1.5);
  EXPECT_EQ(c.transfer, 4);
  EXPECT_TRUE(std::isnan(c.sync));  // not recorded: null in the JSON
  ASSERT_EQ(c.ops.size(), 1u);
  EXPECT_EQ(c.ops[0].name, "hcom_allReduce");
  EXPECT_EQ(c.ops[0].calls, 4);

  runs::OperatorDiffRow d;
  d.name = "aten::add";
  d.a_host_us = 2;
  d.b_host_us = 3;
  d.host_diff_us = 1;
  d.host_ratio = 1.5;
  d.self_device_diff_us = -4;
  runs::StepDiff s;
  s.step = "";
  s.rows.push_back({"Add", 1, 2, 5, 8, 3, 3});
  std::string od, sd;
  runs::operator_diff_json({d}, 0, &od);
  runs::step_diff_json(s, &sd);
  v.discovery = discover_runs({"r/a.pt.trace.json", "r/b.pt.trace.json"});
  runs_view_stats(&v, "diff",
                  wrap({{"operatorDiff", od},
                        {"stepDiff", sd},
                        {"steps", "[\"1\",\"2\"]"},
                        {"a", "{\"run\":0,\"profile\":1}"},
                        {"b", "{\"run\":0,\"profile\":0}"}})
                      .c_str());
  ASSERT_EQ(v.op_diff.size(), 1u);
  EXPECT_EQ(v.op_diff[0].name, "aten::add");
  EXPECT_EQ(v.op_diff[0].v[0][0], 2);  // host: a, b, diff, ratio
  EXPECT_EQ(v.op_diff[0].v[0][1], 3);
  EXPECT_EQ(v.op_diff[0].v[0][2], 1);
  EXPECT_EQ(v.op_diff[0].v[0][3], 1.5);
  EXPECT_EQ(v.op_diff[0].v[3][2], -4);  // self device diff
  ASSERT_EQ(v.step_rows.size(), 1u);
  EXPECT_EQ(v.step_rows[0].op_type, "Add");
  EXPECT_EQ(v.step_rows[0].a, 5);
  EXPECT_EQ(v.step_rows[0].b, 8);
  EXPECT_EQ(v.step_rows[0].cumulative, 3);
  EXPECT_EQ(v.steps, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(v.diff_a, 1);
  EXPECT_EQ(v.diff_b, 0);
}

TEST(RunsViewReply, BadJsonIsAStatusNotACrash) {
  RunsView v;
  runs_view_stats(&v, "operators", "{\"operators\":[{\"name\":");
  EXPECT_FALSE(v.has_ops);
  EXPECT_NE(v.status.find("could not be read"), std::string::npos);
  runs_view_stats(&v, "kernels", "{\"errors\":[\"kernel_details.csv: no Duration column\"]}");
  EXPECT_TRUE(v.has_kernels);
  EXPECT_TRUE(v.kernels.empty());
}

}  // namespace
}  // namespace strata::testing
