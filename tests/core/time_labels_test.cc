// The details pane's times and the deep link's absolute ns: exact text at every zoom.
#include "ui/timeline/time_labels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace strata {
namespace {

TEST(TimeLabelsExact, DurationsKeepEveryNanosecond) {
  EXPECT_EQ(format_duration_exact(12345), "12.345 us");
  EXPECT_EQ(format_duration_exact(999), "999 ns");
  EXPECT_EQ(format_duration_exact(0), "0 ns");
  EXPECT_EQ(format_duration_exact(1500000000), "1.5 s");
  EXPECT_EQ(format_duration_exact(1234567891), "1.234567891 s");
  EXPECT_EQ(format_duration_exact(12000), "12 us");
  EXPECT_EQ(format_duration_exact(1000001), "1.000001 ms");
  EXPECT_EQ(format_duration_exact(0.25), "0.25 ns");
  EXPECT_EQ(format_duration_exact(1000.5), "1.0005 us");
  EXPECT_EQ(format_duration_exact(-12345), "12.345 us");  // a magnitude: offsets add the sign
  // Three significant digits would say "1.23 s" for all of these.
  EXPECT_NE(format_duration_exact(1234567891), format_duration_exact(1234567892));
}

TEST(TimeLabelsExact, OffsetsCarryTheirSign) {
  EXPECT_EQ(format_offset_exact(12345), "+12.345 us");
  EXPECT_EQ(format_offset_exact(-3), "-3 ns");
  EXPECT_EQ(format_offset_exact(-0.0001), "+0 ns");
  EXPECT_EQ(format_offset_exact(0), "+0 ns");
  EXPECT_EQ(format_offset_exact(-1.5), "-1.5 ns");
}

TEST(TimeLabelsExact, EventTimesCountFromTheRulersBase) {
  const TimeNs origin = 1695835542513910123LL;
  const TimeNs start = origin + 1234567891;  // 1.234567891 s into the trace
  TimeBase ruler;
  ruler.has_base = true;
  ruler.base = 1234560000;
  ruler.base_text = "1.23456 s";
  EventTimeText t = event_time_text(ruler, origin, start, 12345);
  EXPECT_EQ(t.base, "@ 1.23456 s");
  EXPECT_EQ(t.start, "+7.891 us");
  EXPECT_EQ(t.end, "+20.236 us");
  EXPECT_EQ(t.duration, "12.345 us");
  EXPECT_EQ(t.start_abs, "1695835543748478014");
  EXPECT_EQ(t.end_abs, "1695835543748490359");

  // A mark inside the view is the base; an event before it reads negative.
  ruler.from_mark = true;
  ruler.base = 1234567900;
  ruler.base_text = "1.2345679 s";
  t = event_time_text(ruler, origin, start, 4);
  EXPECT_EQ(t.base, "mark @ 1.2345679 s");
  EXPECT_EQ(t.start, "-9 ns");
  EXPECT_EQ(t.end, "-5 ns");

  // Zoomed out, the ruler writes times since the trace start: so does the pane.
  t = event_time_text(TimeBase{}, origin, start, 4);
  EXPECT_EQ(t.base, "trace start");
  EXPECT_EQ(t.start, "+1.234567891 s");
  EXPECT_EQ(t.duration, "4 ns");
}

TEST(TimeLabelsExact, AbsoluteTextReadsBackBitForBit) {
  const TimeNs origin = 1695835542513910123LL;
  EXPECT_EQ(absolute_ns_text(origin, 3), "1695835542513910126");
  EXPECT_EQ(absolute_ns_text(origin, 1.5), "1695835542513910124.5");
  EXPECT_EQ(absolute_ns_text(origin, -123), "1695835542513910000");
  EXPECT_EQ(absolute_ns_text(origin, -0.25), "1695835542513910122.75");
  EXPECT_EQ(absolute_ns_text(0, -100.5), "-100.5");
  EXPECT_EQ(absolute_ns_text(0, 0), "0");
  // Views a wheel leaves anywhere: every double reads back as itself.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> where(-5e7, 5e10), span(0.5, 50);
  for (int i = 0; i < 500; ++i) {
    const double rel = where(rng) + span(rng) / 7;
    for (TimeNs o : {origin, TimeNs{0}, TimeNs{1000}}) {
      double back = std::nan("");
      ASSERT_TRUE(parse_absolute_ns(absolute_ns_text(o, rel).c_str(), o, &back));
      ASSERT_EQ(back, rel) << absolute_ns_text(o, rel);
    }
  }
}

}  // namespace
}  // namespace strata
