// The Runs tab's selection lives in the UI (ui/runs): selector clicks and strata.selectRun set
// it through runs_view_select, which keeps it in range, and the same selection sent back by the
// page changes nothing (the tables already read stay).
#include <gtest/gtest.h>

#include "ui/runs/runs_view.h"

namespace strata::testing {
namespace {

const char* kPaths =
    "tb/resnet/worker0.1623143566756.pt.trace.json.gz\n"
    "tb/resnet/worker0.1623143566999.pt.trace.json.gz\n"
    "tb/resnet/worker1.1623143566756.pt.trace.json\n"
    "tb/plain/worker0.pt.trace.json\n";

TEST(RunsViewSelection, SelectKeepsItInRangeAndRepeatsAreHarmless) {
  RunsView v;
  runs_view_set_folder(&v, kPaths);
  ASSERT_EQ(v.discovery.runs.size(), 2u);
  EXPECT_EQ(runs_view_selection_json(v),
            "{\"run\":0,\"profile\":0,\"view\":0,\"viewName\":\"Operator\",\"groupByShape\":false,"
            "\"diff\":null}");

  runs_view_select(&v, 1, 2, static_cast<int>(RunView::kKernel));
  EXPECT_EQ(v.run, 1);
  EXPECT_EQ(v.profile, 2);
  EXPECT_EQ(v.view, static_cast<int>(RunView::kKernel));
  v.has_ops = v.has_kernels = true;  // the tables of that profile arrived

  runs_view_select(&v, 1, 2, static_cast<int>(RunView::kKernel));  // the page echoes it back
  EXPECT_TRUE(v.has_ops);
  EXPECT_TRUE(v.has_kernels);

  runs_view_select(&v, 1, 9, 0);              // no such profile
  runs_view_select(&v, 5, 0, 0);              // no such run
  runs_view_select(&v, 1, 0, kRunViewCount);  // no such view
  EXPECT_EQ(v.run, 1);
  EXPECT_EQ(v.profile, 2);
  EXPECT_TRUE(v.has_ops);

  runs_view_select(&v, 1, 0, static_cast<int>(RunView::kOperator));  // another profile
  EXPECT_FALSE(v.has_ops);

  v.diff_a = 0;  // flat, run-major: plain/worker0
  v.diff_b = 3;  // resnet's third profile
  v.step = "2";
  EXPECT_EQ(runs_view_selection_json(v),
            "{\"run\":1,\"profile\":0,\"view\":0,\"viewName\":\"Operator\",\"groupByShape\":false,"
            "\"diff\":{\"a\":{\"run\":0,\"profile\":0},\"b\":{\"run\":1,\"profile\":2},"
            "\"step\":\"2\"}}");
}

TEST(RunsViewSelection, NoRunsNoSelection) {
  RunsView v;
  runs_view_set_folder(&v, "readme.md\n");
  EXPECT_EQ(runs_view_selection_json(v), "null");
  runs_view_select(&v, 0, 0, 0);
  EXPECT_EQ(v.run, 0);
}

}  // namespace
}  // namespace strata::testing
