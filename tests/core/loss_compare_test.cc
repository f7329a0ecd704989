// Loss comparison math: join on iteration, the three modes, mean/max, the full table with NA,
// EMA and CSV; and the real Megatron pair (overlapping iterations 10..120).
#include "core/loss/loss_compare.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/formats/loss_log/log_scanner.h"
#include "import_test_util.h"

namespace strata {
namespace {

LossSeries series(std::vector<int64_t> it, std::vector<double> loss) {
  LossSeries s;
  s.iteration = std::move(it);
  s.loss = std::move(loss);
  return s;
}

TEST(LossCompare, ModesOverCommonIterations) {
  const LossSeries a = series({1, 2, 3, 5}, {4.0, 2.0, 1.0, 0.0});
  const LossSeries b = series({2, 3, 4, 5}, {3.0, 0.5, 9.0, 0.25});
  Comparison n = compare_series(a, b, CompareMode::kNormal);
  EXPECT_EQ(n.iteration, (std::vector<int64_t>{2, 3, 5}));
  EXPECT_EQ(n.value, (std::vector<double>{1.0, -0.5, 0.25}));
  EXPECT_DOUBLE_EQ(n.mean, 0.75 / 3);
  EXPECT_EQ(n.max, 1.0);
  Comparison ab = compare_series(a, b, CompareMode::kAbsolute);
  EXPECT_EQ(ab.value, (std::vector<double>{1.0, 0.5, 0.25}));
  EXPECT_DOUBLE_EQ(ab.mean, 1.75 / 3);
  Comparison r = compare_series(a, b, CompareMode::kRelative);
  ASSERT_EQ(r.count(), 3u);
  EXPECT_EQ(r.value[0], 0.5);           // |3 - 2| / 2
  EXPECT_EQ(r.value[1], 0.5);           // |0.5 - 1| / 1
  EXPECT_TRUE(std::isnan(r.value[2]));  // a = 0
  EXPECT_EQ(r.mean, 0.5);
  EXPECT_EQ(r.max, 0.5);
  // Order matters for Normal: later-chosen minus first-chosen.
  EXPECT_EQ(compare_series(b, a, CompareMode::kNormal).value,
            (std::vector<double>{-1.0, 0.5, -0.25}));
  Comparison none = compare_series(a, series({9}, {1}), CompareMode::kNormal);
  EXPECT_EQ(none.count(), 0u);
  EXPECT_TRUE(std::isnan(none.mean));
}

TEST(LossCompare, RepeatedIterationLastWinsAndTableHasNA) {
  const LossSeries a = series({3, 1, 3}, {7.0, 1.0, 8.0});
  LossSeries u = unique_by_iteration(a);
  EXPECT_EQ(u.iteration, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(u.loss, (std::vector<double>{1.0, 8.0}));
  const LossSeries b = series({2, 3}, {5.0, 6.0});
  FullTable t = full_table({&a, &b});
  EXPECT_EQ(t.iteration, (std::vector<int64_t>{1, 2, 3}));
  ASSERT_EQ(t.values.size(), 2u);
  EXPECT_EQ(t.values[0][0], 1.0);
  EXPECT_TRUE(std::isnan(t.values[0][1]));
  EXPECT_EQ(t.values[0][2], 8.0);
  EXPECT_TRUE(std::isnan(t.values[1][0]));
  EXPECT_EQ(t.values[1][1], 5.0);
}

TEST(LossCompare, EmaAndCsv) {
  EXPECT_EQ(ema({1, 3, 5}, 0.5), (std::vector<double>{1, 2, 3.5}));
  EXPECT_EQ(ema({2, 4}, 0.0), (std::vector<double>{2, 4}));
  const LossSeries a = series({10, 20}, {0.1, 2.5e-7});
  EXPECT_EQ(loss_points_csv(a), "iteration,loss\n10,0.1\n20,2.5e-07\n");
  Comparison c = compare_series(a, series({20}, {0}), CompareMode::kRelative);
  EXPECT_EQ(comparison_csv(c, "run,a", "b", CompareMode::kRelative),
            "iteration,\"run,a\",b,relative\n20,2.5e-07,0,1\n");
  EXPECT_EQ(format_double(std::nan("")), "NA");
  EXPECT_EQ(format_double(0.1 + 0.2), "0.30000000000000004");
  CompareMode m;
  EXPECT_TRUE(parse_compare_mode("absolute", &m));
  EXPECT_EQ(m, CompareMode::kAbsolute);
  EXPECT_FALSE(parse_compare_mode("bogus", &m));
}

TEST(LossCompare, RealMegatronPair) {
  std::string with_kernel, without;
  if (!testing::read_shared("training_logs/megatron-deepspeed/MoE/"
                            "gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4-with-kernel.log",
                            &with_kernel) ||
      !testing::read_shared("training_logs/megatron-deepspeed/MoE/"
                            "gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4.log",
                            &without))
    GTEST_SKIP() << "shared data not present";
  const LossTags tags{"lm loss:", "iteration"};
  const LossSeries a = scan_loss_text(without, tags), b = scan_loss_text(with_kernel, tags);
  Comparison c = compare_series(a, b, CompareMode::kAbsolute);
  ASSERT_EQ(c.count(), 12u);
  EXPECT_EQ(c.iteration.front(), 10);
  EXPECT_EQ(c.iteration.back(), 120);
  double sum = 0, mx = 0;
  for (size_t i = 0; i < a.size(); ++i) {  // independent: a and b both list 10, 20, ... in order
    EXPECT_EQ(a.iteration[i], b.iteration[i]);
    const double d = std::fabs(b.loss[i] - a.loss[i]);
    EXPECT_EQ(c.value[i], d);
    sum += d, mx = std::max(mx, d);
  }
  EXPECT_DOUBLE_EQ(c.mean, sum / 12);
  EXPECT_EQ(c.max, mx);
  EXPECT_GT(mx, 0);
  FullTable t = full_table({&a, &b});
  EXPECT_EQ(t.iteration.size(), 213u);
  EXPECT_TRUE(std::isnan(t.values[0][12]));  // iteration 130: only the with-kernel run
}

}  // namespace
}  // namespace strata
