// The graph's box text (core/graph/node_label.h): drawn in whole pixel sizes that follow the
// zoom, and each line kept exactly as it is when it fits ("fusion.2" stays "fusion.2", never
// "fusion 2"), cut to its box with a '~' when it does not.
#include <gtest/gtest.h>

#include "core/graph/node_label.h"

namespace strata::graph {
namespace {

TEST(GraphNodeLabel, SizeFollowsTheZoomInWholePixels) {
  EXPECT_EQ(label_px(1.f), 13);
  EXPECT_EQ(label_px(0.5f), 6);
  EXPECT_EQ(label_px(0.7f), 9);  // 9.1 px: the size under it
  EXPECT_EQ(label_px(6.f / 13.f), 6);
  EXPECT_EQ(label_px(0.4f), 0) << "under 6 px: boxes only";
  EXPECT_EQ(label_px(1.5f), kLabelMaxPx);
  EXPECT_EQ(label_px(4.f), kLabelMaxPx) << "capped";
  EXPECT_EQ(label_px(0.f), 0);
  EXPECT_EQ(label_px(-1.f), 0);
  for (float z = 0.05f; z < 3.f; z += 0.01f) {
    const int px = label_px(z);
    EXPECT_TRUE(px == 0 || (px >= kLabelMinPx && px <= kLabelMaxPx)) << z;
    EXPECT_LE(static_cast<float>(px), kLabelBasePx * z + 1e-3f) << z;
  }
}

TEST(GraphNodeLabel, NamesThatFitAreKeptExactly) {
  for (const char* name : {"fusion.2", "all-gather.134", "get-tuple-element.5_a", "p.0,1"}) {
    const std::string s(name);
    EXPECT_EQ(fit_label(s, 7.f * static_cast<float>(s.size()), 7.f), s);
    EXPECT_EQ(fit_label(s, 1000.f, 3.5f), s);
  }
}

TEST(GraphNodeLabel, LongLinesKeepTheirStartAndEndInTilde) {
  EXPECT_EQ(fit_label("all-gather.134", 7.f * 8, 7.f), "all-gat~");
  EXPECT_EQ(fit_label("all-gather.134", 7.f * 13.5f, 7.f), "all-gather.1~");
  EXPECT_EQ(fit_label("abc", 7.f, 7.f), "") << "not even two characters fit";
  EXPECT_EQ(fit_label("abc", -5.f, 7.f), "");
  EXPECT_EQ(fit_label("abc", 100.f, 0.f), "");
  EXPECT_EQ(fit_label("", 100.f, 7.f), "");
}

}  // namespace
}  // namespace strata::graph
