// The shared keyed diff: keys joined in first-seen order with their sides, split into
// changed / added / removed / unchanged, each ordered by the size of its change.
#include "core/diff/keyed_diff.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace strata {
namespace {

TEST(KeyedDiff, JoinsKeysInFirstSeenOrderWithTheirSides) {
  KeyedJoin j;
  EXPECT_EQ(j.add(DiffSide::kA, "x"), 0u);
  EXPECT_EQ(j.add(DiffSide::kA, "y"), 1u);
  EXPECT_EQ(j.add(DiffSide::kA, "x"), 0u);  // a second row of x: the same key
  EXPECT_EQ(j.add(DiffSide::kB, "z"), 2u);
  EXPECT_EQ(j.add(DiffSide::kB, "x"), 0u);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j.key(2), "z");
  EXPECT_TRUE(j.in_a(0) && j.in_b(0));
  EXPECT_TRUE(j.in_a(1) && !j.in_b(1));
  EXPECT_TRUE(!j.in_a(2) && j.in_b(2));
}

// Figures per key in A and B: p, q, r in both (q the same), s only in A, t and u only in B.
TEST(KeyedDiff, SplitsAndOrdersByTheSizeOfTheChange) {
  const std::map<std::string, double> a = {{"p", 10}, {"q", 5}, {"r", 10}, {"s", 4}};
  const std::map<std::string, double> b = {{"p", 12}, {"q", 5}, {"r", 3}, {"t", 1}, {"u", 9}};
  KeyedJoin j;
  std::vector<double> fa(8, 0), fb(8, 0);
  for (const auto& [k, v] : a) fa[j.add(DiffSide::kA, k)] = v;
  for (const auto& [k, v] : b) fb[j.add(DiffSide::kB, k)] = v;
  const KeyedDiff d = split_keys(
      j, [&](uint32_t id) { return fa[id] == fb[id]; },
      [&](uint32_t id) { return std::fabs(fb[id] - fa[id]); }, [&](uint32_t id) { return fa[id]; },
      [&](uint32_t id) { return fb[id]; });
  auto names = [&](const std::vector<uint32_t>& ids) {
    std::vector<std::string> out;
    for (uint32_t id : ids) out.push_back(j.key(id));
    return out;
  };
  EXPECT_EQ(names(d.changed), (std::vector<std::string>{"r", "p"}));  // |−7| before |+2|
  EXPECT_EQ(names(d.added), (std::vector<std::string>{"u", "t"}));
  EXPECT_EQ(names(d.removed), (std::vector<std::string>{"s"}));
  EXPECT_EQ(d.unchanged, 1u);
  EXPECT_FALSE(d.empty());
}

// Equal measures: by the second measure, then by name or (stable) first-seen order.
TEST(KeyedDiff, TiesBySecondMeasureThenNameOrFirstSeen) {
  KeyedJoin j;
  for (const char* k : {"c", "a", "b", "d"}) j.add(DiffSide::kA, k);
  const std::vector<double> first = {1, 1, 1, 2}, second = {0, 0, 5, 0};
  std::vector<uint32_t> ids = {0, 1, 2, 3};
  order_by_change(
      j, &ids, [&](uint32_t id) { return first[id]; }, [&](uint32_t id) { return second[id]; });
  EXPECT_EQ(ids, (std::vector<uint32_t>{3, 2, 0, 1}));  // d, b, then c before a as first seen
  ids = {0, 1, 2, 3};
  order_by_change(
      j, &ids, [&](uint32_t id) { return first[id]; }, nullptr, true);
  EXPECT_EQ(ids, (std::vector<uint32_t>{3, 1, 2, 0}));  // d, then a, b, c by name
}

TEST(KeyedDiff, StatusNames) {
  EXPECT_STREQ(diff_status_name(DiffStatus::kReplaced), "replaced");
  EXPECT_STREQ(diff_status_name(DiffStatus::kUnchanged), "unchanged");
}

}  // namespace
}  // namespace strata
