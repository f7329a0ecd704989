// View math: zoom about an anchor, pan, clamping, ticks and time formatting.
#include "core/view/time_view.h"

#include <gtest/gtest.h>

#include <cmath>

namespace strata {
namespace {

TEST(TimeView, ZoomKeepsAnchorUnderCursor) {
  ViewLimits lim = limits_for_extent(1e9);
  TimeView v{0, 0, 1e9};
  double anchor = 2.5e8;
  double frac = (anchor - v.start) / v.span();
  TimeView z = zoom_about(v, anchor, 0.5, lim);
  EXPECT_DOUBLE_EQ(z.span(), 5e8);
  EXPECT_NEAR((anchor - z.start) / z.span(), frac, 1e-12);
}

TEST(TimeView, ZoomOutIsClampedToTheTraceWithMargin) {
  ViewLimits lim = limits_for_extent(1e6);
  TimeView v{0, 0, 1e6};
  for (int i = 0; i < 50; ++i) v = zoom_about(v, 5e5, 2.0, lim);
  EXPECT_DOUBLE_EQ(v.start, lim.min_time);
  EXPECT_DOUBLE_EQ(v.end, lim.max_time);
}

TEST(TimeView, ZoomInStopsAtMinimumSpan) {
  ViewLimits lim = limits_for_extent(1e6);
  TimeView v{0, 0, 1e6};
  for (int i = 0; i < 200; ++i) v = zoom_about(v, 123456, 0.5, lim);
  EXPECT_NEAR(v.span(), lim.min_span, 1e-9);
  EXPECT_LE(v.start, 123456);
  EXPECT_GE(v.end, 123456);
}

TEST(TimeView, PanShiftsWithoutChangingSpanAndStopsAtEdges) {
  ViewLimits lim = limits_for_extent(1e6);
  TimeView v{0, 1e5, 2e5};
  TimeView p = pan_by(v, 5e4, lim);
  EXPECT_DOUBLE_EQ(p.start, 1.5e5);
  EXPECT_DOUBLE_EQ(p.span(), 1e5);
  TimeView far = pan_by(v, 1e9, lim);
  EXPECT_DOUBLE_EQ(far.end, lim.max_time);
  EXPECT_DOUBLE_EQ(far.span(), 1e5);
  TimeView back = pan_by(v, -1e9, lim);
  EXPECT_DOUBLE_EQ(back.start, lim.min_time);
}

TEST(TimeView, ClampRepairsNonsense) {
  ViewLimits lim = limits_for_extent(1e6);
  TimeView bad{0, 5, 5};  // zero span
  TimeView c = clamp_view(bad, lim);
  EXPECT_GE(c.span(), lim.min_span);
}

TEST(TimeView, PixelMappingRoundTrips) {
  TimeView v{1700000000000000000LL, 1000, 3000};
  EXPECT_DOUBLE_EQ(time_to_px(v, 2000, 800), 400);
  EXPECT_DOUBLE_EQ(px_to_time(v, 400, 800), 2000);
}

TEST(TimeView, TickStepIsOneTwoFiveAndSpacedEnough) {
  for (double span : {7.0, 1234.0, 1e6, 3.3e9, 8.6e13}) {
    double step = tick_step(span, 1000, 100);
    EXPECT_GE(step / span * 1000, 100 - 1e-9) << span;
    double m = step / std::pow(10.0, std::floor(std::log10(step)));
    EXPECT_TRUE(std::fabs(m - 1) < 1e-9 || std::fabs(m - 2) < 1e-9 || std::fabs(m - 5) < 1e-9)
        << step;
    EXPECT_LE(step / span * 1000, 1000) << span;
  }
  TimeView v{0, 0, 1e6};
  auto t = ticks(v, 2e5);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_DOUBLE_EQ(t[0], 0);
  EXPECT_DOUBLE_EQ(t[5], 1e6);
}

TEST(TimeView, Formatting) {
  EXPECT_EQ(format_duration(850), "850 ns");
  EXPECT_EQ(format_duration(12500000), "12.5 ms");
  EXPECT_EQ(format_duration(3.2e9), "3.20 s");
  EXPECT_EQ(format_duration(1500), "1.50 us");
  EXPECT_EQ(format_tick(1250000, 250000), "1.25 ms");
  EXPECT_EQ(format_tick(2e9, 1e9), "2 s");
  EXPECT_EQ(format_tick(145833070, 1), "145.833070 ms");  // a 1 ns step shows every ns
  EXPECT_EQ(format_tick(-1e-9, 1000), "0 us");            // no "-0"
}

}  // namespace
}  // namespace strata
