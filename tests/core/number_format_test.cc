// The shared number formats of the UI's tables, tooltips and axis labels.
#include "ui/widgets/number_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace strata {
namespace {

TEST(NumberFormat, ThousandsSeparatesTheIntegerPart) {
  EXPECT_EQ(format_thousands(0, 2), "0.00");
  EXPECT_EQ(format_thousands(999.5, 2), "999.50");
  EXPECT_EQ(format_thousands(1234.567, 2), "1,234.57");
  EXPECT_EQ(format_thousands(12345678.9, 0), "12,345,679");
  EXPECT_EQ(format_thousands(1000000, 0), "1,000,000");
  // The sign is not a digit: no comma after it.
  EXPECT_EQ(format_thousands(-123456.5, 1), "-123,456.5");
  EXPECT_EQ(format_thousands(-999, 0), "-999");
}

TEST(NumberFormat, ThousandsOfAMissingValueIsADash) {
  EXPECT_EQ(format_thousands(std::nan(""), 2), "-");
}

TEST(NumberFormat, CompactKeepsThreeDigitsAndASuffix) {
  EXPECT_EQ(format_compact(0), "0");
  EXPECT_EQ(format_compact(250), "250");
  EXPECT_EQ(format_compact(999), "999");
  EXPECT_EQ(format_compact(1500), "1.5k");
  EXPECT_EQ(format_compact(12e6), "12M");
  EXPECT_EQ(format_compact(3.456e9), "3.46G");
  EXPECT_EQ(format_compact(-12345), "-12.3k");
}

TEST(NumberFormat, CompactOfNoNumberIsADash) {
  EXPECT_EQ(format_compact(std::nan("")), "-");
  EXPECT_EQ(format_compact(std::numeric_limits<double>::infinity()), "-");
}

}  // namespace
}  // namespace strata
