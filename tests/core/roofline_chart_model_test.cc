// The Roofline chart's maths (ui/analysis/roofline_chart_model) and the Analysis tab's deep-link
// keys (ui/analysis/analysis_link): the peaks read from the table's extra as the engine writes
// it, points from program and op rows, log axes, value <-> pixel, the roofs, the hit test.
#include "ui/analysis/roofline_chart_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/analysis/analysis_table.h"
#include "ui/analysis/analysis_link.h"

namespace strata {
namespace {

// A roofline-shaped table: a program with two ops, one op without FLOPs.
AnalysisTable roofline_sample(const std::string& extra) {
  AnalysisTable t;
  t.name = "roofline";
  t.columns = {{"name", "Program / op", AnalysisUnit::kText, ""},
               {"kind", "Kind", AnalysisUnit::kText, ""},
               {"time", "Total time", AnalysisUnit::kNs, ""},
               {"intensity", "FLOP/byte", AnalysisUnit::kRatio, ""},
               {"flop_rate", "Achieved FLOP/s", AnalysisUnit::kFlopsPerSec, ""}};
  auto row = [](int32_t parent, const char* name, const char* kind, double ns, AnalysisCell oi,
                AnalysisCell rate) {
    AnalysisRow r;
    r.parent = parent;
    r.cells = {AnalysisCell::of(std::string(name)), AnalysisCell::of(std::string(kind)),
               AnalysisCell::of(ns), std::move(oi), std::move(rate)};
    return r;
  };
  t.rows = {row(-1, "jit_step(7)", "program", 4000, AnalysisCell::of(50.0), AnalysisCell::of(2e13)),
            row(0, "fusion.1", "op", 3000, AnalysisCell::of(100.0), AnalysisCell::of(3e13)),
            row(0, "copy.2", "op", 1000, AnalysisCell::empty("no flops"),
                AnalysisCell::empty("no flops"))};
  t.extra_json = extra;
  return t;
}

AnalysisTableModel model_of(const AnalysisTable& t) {
  AnalysisTableModel m;
  EXPECT_TRUE(read_analysis_table(analysis_table_json(t).c_str(), &m)) << m.error;
  return m;
}

constexpr const char* kTpuExtra =
    R"({"cores":[],"core":0,"peaks":{"flopsPerSec":197e12,"bytesPerSec":819e9,)"
    R"("source":"the plane's peak stats","why":""},"ridge":240.5})";
constexpr const char* kNoPeaksExtra =
    R"({"cores":[],"core":0,"peaks":{"flopsPerSec":null,"bytesPerSec":null,)"
    R"("source":"","why":"the plane has no peak stats"},"ridge":null})";

TEST(RooflineChartModel, ReadsThePeaksAndRidgeOfTheReply) {
  RooflinePeaks p;
  ASSERT_TRUE(read_roofline_peaks(analysis_table_json(roofline_sample(kTpuExtra)).c_str(), &p));
  EXPECT_TRUE(p.known());
  EXPECT_DOUBLE_EQ(p.flops_per_sec, 197e12);
  EXPECT_DOUBLE_EQ(p.bytes_per_sec, 819e9);
  EXPECT_DOUBLE_EQ(p.ridge, 240.5);
  EXPECT_EQ(p.source, "the plane's peak stats");

  ASSERT_TRUE(read_roofline_peaks(analysis_table_json(roofline_sample(kNoPeaksExtra)).c_str(), &p));
  EXPECT_FALSE(p.known());
  EXPECT_EQ(p.ridge, 0);
  EXPECT_EQ(p.why, "the plane has no peak stats");
  // A reply without extra (another analysis, an error): no peaks.
  EXPECT_FALSE(read_roofline_peaks(R"({"error":"unknown analysis"})", &p));
  EXPECT_FALSE(p.known());
}

TEST(RooflineChartModel, PointsAreTheRowsWithIntensityAndRateOpsFirst) {
  const AnalysisTableModel m = model_of(roofline_sample(kTpuExtra));
  const std::vector<RooflinePoint> pts = roofline_points(m);
  ASSERT_EQ(pts.size(), 2u);  // copy.2 has no FLOPs: no point
  EXPECT_EQ(pts[0].row, 1);
  EXPECT_FALSE(pts[0].program);
  EXPECT_DOUBLE_EQ(pts[0].share, 0.75);  // of the programs' 4000 ns
  EXPECT_EQ(pts[1].row, 0);
  EXPECT_TRUE(pts[1].program);
  EXPECT_DOUBLE_EQ(pts[1].share, 1.0);
  EXPECT_DOUBLE_EQ(pts[1].intensity, 50);
  EXPECT_DOUBLE_EQ(pts[1].flop_rate, 2e13);
}

TEST(RooflineChartModel, KeepsTheOpsWithTheMostTimeAndEveryProgram) {
  std::vector<RooflinePoint> pts = {{1, false, 1, 1, 30, 0},
                                    {2, false, 1, 1, 10, 0},
                                    {3, false, 1, 1, 20, 0},
                                    {0, true, 1, 1, 60, 1}};
  EXPECT_EQ(roofline_keep_top_ops(&pts, 5), 0u);
  EXPECT_EQ(pts.size(), 4u);
  EXPECT_EQ(roofline_keep_top_ops(&pts, 2), 1u);
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[0].row, 1);  // in their order, the 10 ns op left out
  EXPECT_EQ(pts[1].row, 3);
  EXPECT_EQ(pts[2].row, 0);
}

TEST(RooflineChartModel, LogAxesCoverWholeDecades) {
  LogAxis a = log_axis_covering(0.3, 4200);
  EXPECT_DOUBLE_EQ(a.lo, 0.1);
  EXPECT_DOUBLE_EQ(a.hi, 1e4);
  EXPECT_EQ(log_axis_decades(a).size(), 6u);
  a = log_axis_covering(100, 100);  // one value: one decade from it
  EXPECT_DOUBLE_EQ(a.lo, 100);
  EXPECT_DOUBLE_EQ(a.hi, 1000);
  a = log_axis_covering(0, 0);  // nothing: a default decade
  EXPECT_LT(a.lo, a.hi);
}

TEST(RooflineChartModel, ValuesMapToPixelsAndBack) {
  const LogAxis a{1, 1e4};
  EXPECT_FLOAT_EQ(log_axis_px(a, 1, 100, 500), 100);
  EXPECT_FLOAT_EQ(log_axis_px(a, 1e4, 100, 500), 500);
  EXPECT_FLOAT_EQ(log_axis_px(a, 100, 100, 500), 300);  // half the decades: half the width
  // A y axis drawn upwards: lo at the bottom (larger pixel).
  EXPECT_FLOAT_EQ(log_axis_px(a, 10, 400, 0), 300);
  EXPECT_NEAR(log_axis_value(a, 300, 100, 500), 100, 1e-9);
  EXPECT_NEAR(log_axis_value(a, 300, 400, 0), 10, 1e-9);
}

TEST(RooflineChartModel, TheRoofIsTheLesserOfBandwidthAndComputeWithTheRidgeBetween) {
  RooflinePeaks p;
  p.flops_per_sec = 200e12;
  p.bytes_per_sec = 800e9;  // ridge at 250 FLOP/byte
  EXPECT_DOUBLE_EQ(roof_at(p, 10), 8e12);
  EXPECT_DOUBLE_EQ(roof_at(p, 250), 200e12);
  EXPECT_DOUBLE_EQ(roof_at(p, 1e4), 200e12);
  EXPECT_EQ(roof_at(RooflinePeaks{}, 10), 0);  // no peaks, no roof
  // The axes hold the points, a decade either side of the ridge and the compute roof.
  const std::vector<RooflinePoint> pts = {{0, false, 2, 1e11, 1, 0.5}, {1, true, 4, 5e11, 2, 1}};
  LogAxis x, y;
  roofline_axes(pts, p, &x, &y);
  EXPECT_LE(x.lo, 2);
  EXPECT_GE(x.hi, 2500);
  EXPECT_LE(y.lo, 1e11);
  EXPECT_GE(y.hi, 200e12);
  // Without peaks: the points alone (with headroom above).
  roofline_axes(pts, RooflinePeaks{}, &x, &y);
  EXPECT_DOUBLE_EQ(x.lo, 1);
  EXPECT_DOUBLE_EQ(x.hi, 10);
  EXPECT_DOUBLE_EQ(y.lo, 1e11);
  EXPECT_DOUBLE_EQ(y.hi, 1e12);
}

TEST(RooflineChartModel, DotsGrowWithTimeShareAndTheNearestIsHit) {
  EXPECT_LT(roofline_dot_radius(0.01, false), roofline_dot_radius(0.5, false));
  EXPECT_LE(roofline_dot_radius(2.0, false), roofline_dot_radius(1.0, false));  // clamped
  EXPECT_GE(roofline_dot_radius(0, true), roofline_dot_radius(0, false));       // programs show
  RooflineFrame f;
  f.left = 0, f.right = 300, f.top = 0, f.bottom = 300;
  f.x = {1, 1000};
  f.y = {1, 1000};
  const std::vector<RooflinePoint> pts = {{0, false, 10, 10, 1, 0}, {1, false, 100, 100, 1, 0}};
  const std::vector<RooflineDot> dots = roofline_dots(pts, f);
  ASSERT_EQ(dots.size(), 2u);
  EXPECT_FLOAT_EQ(dots[0].x, 100);
  EXPECT_FLOAT_EQ(dots[0].y, 200);
  EXPECT_FLOAT_EQ(dots[1].x, 200);
  EXPECT_FLOAT_EQ(dots[1].y, 100);
  EXPECT_EQ(roofline_hit(dots, 101, 199, 2), 0);
  EXPECT_EQ(roofline_hit(dots, 198, 102, 2), 1);
  EXPECT_EQ(roofline_hit(dots, 150, 150, 2), -1);  // between them: neither
  // Overlapping dots: the nearest centre wins.
  const std::vector<RooflineDot> big = {{100, 100, 20}, {108, 100, 3}};
  EXPECT_EQ(roofline_hit(big, 107, 100, 2), 1);
  EXPECT_EQ(roofline_hit(big, 95, 100, 2), 0);
}

TEST(AnalysisDeepLink, ReadsAndWritesTheAnalysisKeysOfTheHash) {
  AnalysisDeepLink l = parse_analysis_link(
      "#view=1,2&sel=3&tab=analysis&analysis=roofline&op=fusion.1+a%2Fb&peakTflops=197&peakGBps="
      "819.5");
  EXPECT_TRUE(l.analysis_tab);
  EXPECT_EQ(l.analysis, "roofline");
  EXPECT_EQ(l.op, "fusion.1 a/b");
  EXPECT_DOUBLE_EQ(l.peak_tflops, 197);
  EXPECT_DOUBLE_EQ(l.peak_gbps, 819.5);
  EXPECT_EQ(analysis_link_hash(l),
            "tab=analysis&analysis=roofline&op=fusion.1%20a%2Fb&peakTflops=197&peakGBps=819.5");
  // Round trip.
  const AnalysisDeepLink back = parse_analysis_link(analysis_link_hash(l));
  EXPECT_EQ(back.op, l.op);
  EXPECT_DOUBLE_EQ(back.peak_gbps, l.peak_gbps);
  // Bad or absent peaks read as not typed; nothing typed writes no peak keys.
  l = parse_analysis_link("tab=analysis&analysis=kernel_stats&peakTflops=abc&peakGBps=-5");
  EXPECT_EQ(l.peak_tflops, 0);
  EXPECT_EQ(l.peak_gbps, 0);
  EXPECT_EQ(analysis_link_hash(l), "tab=analysis&analysis=kernel_stats");
  EXPECT_FALSE(parse_analysis_link("tab=timeline").analysis_tab);
}

}  // namespace
}  // namespace strata
