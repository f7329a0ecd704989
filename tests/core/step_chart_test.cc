// The step chart's maths (ui/analysis/step_chart_math) on the overview's own table, and the
// Analysis tab's deep link (ui/analysis/analysis_link).
#include <gtest/gtest.h>

#include <cstring>

#include "engine/engine.h"
#include "ui/analysis/analysis_link.h"
#include "ui/analysis/step_chart_math.h"

namespace strata {
namespace {

// Two steps: #1 is 100 µs (30 input wait, 50 host compute, 20 idle), #2 is 50 µs of host
// compute.
constexpr const char* kTrace = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":100,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":30,"name":"enumerate(DataLoader)#x.__next__","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":40,"dur":50,"name":"aten::mm","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":100,"dur":50,"name":"ProfilerStep#2","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":100,"dur":50,"name":"aten::add","cat":"cpu_op"}])";

AnalysisTableModel overview_model() {
  Engine e;
  const std::string bytes = kTrace;
  e.load_begin("t.json", bytes.size());
  std::memcpy(e.load_buffer(bytes.size()), bytes.data(), bytes.size());
  e.load_commit(bytes.size());
  EXPECT_TRUE(e.load_end());
  AnalysisTableModel m;
  EXPECT_TRUE(read_analysis_table(e.query_json("analysis", R"({"name":"overview"})").c_str(), &m))
      << m.error;
  return m;
}

TEST(StepChart, BarsAreTheStepRowsWithTheirParts) {
  const StepChartData d = step_chart_data(overview_model());
  ASSERT_EQ(d.bars.size(), 2u);
  ASSERT_EQ(d.parts.size(), kStepChartParts);
  EXPECT_EQ(d.parts[5].key, "input_wait");
  EXPECT_EQ(d.bars[0].name, "ProfilerStep#1");
  EXPECT_DOUBLE_EQ(d.bars[0].duration_ns, 100'000);
  EXPECT_DOUBLE_EQ(d.bars[1].start_ns, 100'000);
  EXPECT_DOUBLE_EQ(d.bars[0].parts[5], 30'000);   // input wait
  EXPECT_DOUBLE_EQ(d.bars[0].parts[7], 50'000);   // host compute
  EXPECT_DOUBLE_EQ(d.bars[0].parts[10], 20'000);  // idle
  EXPECT_DOUBLE_EQ(d.max_total, 100'000);
  double sum = 0;
  for (double v : d.bars[0].parts) sum += v;
  EXPECT_DOUBLE_EQ(sum, d.bars[0].duration_ns);
  EXPECT_EQ(step_bar_named(d, "2"), 1);
  EXPECT_EQ(step_bar_named(d, "ProfilerStep#1"), 0);
  EXPECT_EQ(step_bar_named(d, "7"), -1);
}

TEST(StepChart, GeometryAndHitTest) {
  const StepChartData d = step_chart_data(overview_model());
  const ChartBox plot{100, 50, 200, 100};
  float x0, x1;
  step_bar_x(plot, 2, 1, 6, &x0, &x1);
  EXPECT_FLOAT_EQ(x0, 203);
  EXPECT_FLOAT_EQ(x1, 297);
  EXPECT_EQ(step_bar_at(plot, 2, 150, 100), 0);
  EXPECT_EQ(step_bar_at(plot, 2, 250, 100), 1);
  EXPECT_EQ(step_bar_at(plot, 2, 99, 100), -1);
  EXPECT_EQ(step_bar_at(plot, 2, 150, 151), -1);
  // Bar 0 stacks input wait [150 → 120), host compute [120 → 70), idle [70 → 50).
  const std::vector<BarSegment> s = step_bar_segments(d, plot, 0);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(d.parts[s[0].part].key, "input_wait");
  EXPECT_FLOAT_EQ(s[0].y0, 150);
  EXPECT_FLOAT_EQ(s[0].y1, 120);
  EXPECT_FLOAT_EQ(s[1].y1, 70);
  EXPECT_FLOAT_EQ(s[2].y1, 50);
  // Bar 1 is half as tall.
  const std::vector<BarSegment> h = step_bar_segments(d, plot, 1);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_FLOAT_EQ(h[0].y1, 100);
}

TEST(StepChart, TableWithoutPartsStacksTheDuration) {
  AnalysisTableModel m;
  m.columns = {{"name", "Step", ""}, {"start", "Start", ""}, {"duration", "Duration", ""}};
  TableRow r;
  r.cells.resize(3);
  r.cells[0].kind = TableCell::Kind::kText;
  r.cells[0].text = "ProfilerStep#4";
  for (int c : {1, 2}) {
    r.cells[static_cast<size_t>(c)].kind = TableCell::Kind::kNumber;
    r.cells[static_cast<size_t>(c)].number = 10.0 * c;
  }
  m.rows.push_back(r);
  TableRow group;
  group.cells.resize(3);
  m.rows.push_back(group);  // no start: not a step
  const StepChartData d = step_chart_data(m);
  ASSERT_EQ(d.bars.size(), 1u);
  ASSERT_EQ(d.parts.size(), 1u);
  EXPECT_EQ(d.parts[0].key, "duration");
  EXPECT_DOUBLE_EQ(d.bars[0].parts[0], 20);
}

TEST(AnalysisLink, ParseAndBuildStep) {
  const AnalysisDeepLink p =
      parse_analysis_link("#view=1,2&tab=analysis&analysis=overview&op=a%20b+c&step=12");
  EXPECT_TRUE(p.analysis_tab);
  EXPECT_EQ(p.analysis, "overview");
  EXPECT_EQ(p.op, "a b c");
  EXPECT_EQ(p.step, "12");
  EXPECT_FALSE(parse_analysis_link("tab=timeline&analysis=x").analysis_tab);
  AnalysisDeepLink l;
  l.analysis = "overview";
  l.step = "12";
  EXPECT_EQ(analysis_link_hash(l), "tab=analysis&analysis=overview&step=12");
  l = AnalysisDeepLink{};
  l.analysis = "kernel_stats";
  l.op = "void k<1>(x)";
  EXPECT_EQ(analysis_link_hash(l), "tab=analysis&analysis=kernel_stats&op=void%20k%3C1%3E(x)");
  l.op = "void k<1>(x) & y=2";
  l.step = "3";
  const AnalysisDeepLink back = parse_analysis_link(analysis_link_hash(l));
  EXPECT_EQ(back.op, "void k<1>(x) & y=2");
  EXPECT_EQ(back.step, "3");
}

}  // namespace
}  // namespace strata
