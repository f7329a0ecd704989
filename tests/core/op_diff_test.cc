// The op diff of two traces: hand-made traces with known figures; a real trace against itself
// (an empty diff); two ranks of one real run against an independent diff written here (per
// name, count and total from the store's columns, by category).
#include "engine/compare/op_diff.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "real_trace_fixtures.h"

namespace strata {
namespace {

constexpr OpDiffKey kKeys[] = {OpDiffKey::kOperator, OpDiffKey::kKernel, OpDiffKey::kXlaOp,
                               OpDiffKey::kCategory};

const OpDiffRow* find(const std::vector<OpDiffRow>& rows, const std::string& name) {
  for (const OpDiffRow& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

// A: x 10 µs with y 4 µs in it, x again 6 µs, w 1 µs, a kernel k 2 µs. B: x 20 µs, w 1 µs, z
// 3 µs, k 2 µs twice.
constexpr const char* kA = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":2,"dur":4,"name":"y","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":20,"dur":6,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":30,"dur":1,"name":"w","cat":"cpu_op"},
  {"ph":"X","pid":0,"tid":7,"ts":3,"dur":2,"name":"k","cat":"kernel"}
])";
constexpr const char* kB = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":20,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":30,"dur":1,"name":"w","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":40,"dur":3,"name":"z","cat":"cpu_op"},
  {"ph":"X","pid":0,"tid":7,"ts":3,"dur":2,"name":"k","cat":"kernel"},
  {"ph":"X","pid":0,"tid":7,"ts":8,"dur":2,"name":"k","cat":"kernel"}
])";

TEST(OpDiff, ChangedAddedAndRemovedNames) {
  testing::ImportResult a = testing::import_json(kA), b = testing::import_json(kB);
  ASSERT_FALSE(a.failed || b.failed);
  const OpDiff ops = diff_ops(*a.store, *b.store, OpDiffKey::kOperator);
  ASSERT_EQ(ops.changed.size(), 1u);
  const OpDiffRow& x = ops.changed[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.a.count, 2u);
  EXPECT_EQ(x.a.total, 16'000);
  EXPECT_EQ(x.a.self, 12'000);  // y's 4 µs nested in the first x
  EXPECT_EQ(x.b.count, 1u);
  EXPECT_EQ(x.b.total, 20'000);
  EXPECT_EQ(x.delta(), 4'000);
  EXPECT_DOUBLE_EQ(x.delta_pct(), 25.0);
  EXPECT_EQ(ops.unchanged, 1u);  // w
  ASSERT_EQ(ops.added.size(), 1u);
  EXPECT_EQ(ops.added[0].name, "z");
  EXPECT_EQ(ops.added[0].b.total, 3'000);
  EXPECT_EQ(ops.added[0].delta_pct(), 0);
  ASSERT_EQ(ops.removed.size(), 1u);
  EXPECT_EQ(ops.removed[0].name, "y");
  EXPECT_EQ(ops.removed[0].a.total, 4'000);
  EXPECT_EQ(ops.removed[0].delta(), -4'000);

  const OpDiff kernels = diff_ops(*a.store, *b.store, OpDiffKey::kKernel);
  ASSERT_EQ(kernels.changed.size(), 1u);
  EXPECT_EQ(kernels.changed[0].name, "k");
  EXPECT_EQ(kernels.changed[0].delta(), 2'000);
  EXPECT_DOUBLE_EQ(kernels.changed[0].delta_pct(), 100.0);
  EXPECT_TRUE(kernels.added.empty() && kernels.removed.empty());

  const OpDiff cats = diff_ops(*a.store, *b.store, OpDiffKey::kCategory);
  ASSERT_EQ(cats.changed.size(), 2u);
  EXPECT_EQ(cats.changed[0].name, "cpu_op");  // Δ 3 µs before the kernels' 2 µs
  EXPECT_EQ(cats.changed[0].delta(), 3'000);
  EXPECT_EQ(cats.changed[1].name, "kernel");
  EXPECT_TRUE(diff_ops(*a.store, *b.store, OpDiffKey::kXlaOp).empty());  // no XLA ops
  EXPECT_STREQ(op_diff_key_name(OpDiffKey::kXlaOp), "xla_op");
}

// Rows with the larger |Δ| come first, whatever its sign.
TEST(OpDiff, ChangedRowsByTheSizeOfTheirChange) {
  testing::ImportResult a = testing::import_json(R"([
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"p","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":20,"dur":10,"name":"q","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":40,"dur":10,"name":"r","cat":"cpu_op"}])");
  testing::ImportResult b = testing::import_json(R"([
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":12,"name":"p","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":20,"dur":3,"name":"q","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":40,"dur":15,"name":"r","cat":"cpu_op"}])");
  const OpDiff d = diff_ops(*a.store, *b.store, OpDiffKey::kOperator);
  ASSERT_EQ(d.changed.size(), 3u);
  EXPECT_EQ(d.changed[0].name, "q");  // −7 µs
  EXPECT_EQ(d.changed[1].name, "r");  // +5 µs
  EXPECT_EQ(d.changed[2].name, "p");  // +2 µs
}

// A trace against itself: nothing changed, added or removed, whatever the key.
TEST(OpDiff, RealTracesAgainstThemselvesAreEmpty) {
  size_t tried = 0;
  testing::ImportResult kineto;
  if (testing::import_shared_gz(testing::kResnetKineto, &kineto)) {
    ++tried;
    for (OpDiffKey key : kKeys) {
      SCOPED_TRACE(op_diff_key_name(key));
      const OpDiff d = diff_ops(*kineto.store, *kineto.store, key);
      EXPECT_TRUE(d.empty());
      EXPECT_EQ(d.unchanged, op_figures(*kineto.store, key).size());
    }
    EXPECT_GT(op_figures(*kineto.store, OpDiffKey::kOperator).size(), 0u);
    EXPECT_GT(op_figures(*kineto.store, OpDiffKey::kKernel).size(), 0u);
  }
  for (const char* rel : {testing::kTfGpuXplane, "xplane/tracelens/jax08_gemm/tw003.xplane.pb"}) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    SCOPED_TRACE(rel);
    ++tried;
    Engine a, b;
    ASSERT_TRUE(testing::load_trace(&a, "a.xplane.pb", bytes));
    ASSERT_TRUE(testing::load_trace(&b, "b.xplane.pb", bytes));
    size_t names = 0;
    for (OpDiffKey key : kKeys) {
      SCOPED_TRACE(op_diff_key_name(key));
      const OpDiff d = diff_ops(*a.store(), *b.store(), key);
      EXPECT_TRUE(d.empty());
      names += d.unchanged;
    }
    EXPECT_GT(names, 0u);
  }
  if (tried == 0) GTEST_SKIP() << "../shared/data absent";
}

// Two ranks of one real run: the diff's rows are an independent diff of per-name counts and
// totals over the events of the category the key reads.
TEST(OpDiff, TwoRanksOfARealRunEqualAnIndependentDiff) {
  testing::ImportResult a, b;
  if (!testing::import_shared_gz("pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz", &a) ||
      !testing::import_shared_gz("pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz", &b))
    GTEST_SKIP() << "../shared/data absent";
  struct Sum {
    uint64_t count = 0;
    TimeNs total = 0;
  };
  auto sums = [](const TraceStore& s, std::string_view cat) {
    std::map<std::string, Sum> out;
    for (size_t e = 0; e < s.events.size(); ++e) {
      if (s.strings.get(s.events.cat[e]) != cat) continue;
      Sum& x = out[std::string(s.strings.get(s.events.name[e]))];
      ++x.count;
      x.total += s.events.dur[e];
    }
    return out;
  };
  for (const auto& [key, cat] :
       {std::pair{OpDiffKey::kOperator, "cpu_op"}, std::pair{OpDiffKey::kKernel, "kernel"}}) {
    SCOPED_TRACE(op_diff_key_name(key));
    const std::map<std::string, Sum> in_a = sums(*a.store, cat), in_b = sums(*b.store, cat);
    ASSERT_FALSE(in_a.empty());
    const OpDiff d = diff_ops(*a.store, *b.store, key);
    std::set<std::string> both, only_a, only_b;
    for (const auto& [name, x] : in_a) (in_b.count(name) ? both : only_a).insert(name);
    for (const auto& [name, x] : in_b)
      if (!in_a.count(name)) only_b.insert(name);
    std::set<std::string> added, removed;
    for (const OpDiffRow& r : d.added) {
      added.insert(r.name);
      EXPECT_EQ(r.b.count, in_b.at(r.name).count) << r.name;
      EXPECT_EQ(r.b.total, in_b.at(r.name).total) << r.name;
    }
    for (const OpDiffRow& r : d.removed) {
      removed.insert(r.name);
      EXPECT_EQ(r.a.count, in_a.at(r.name).count) << r.name;
      EXPECT_EQ(r.a.total, in_a.at(r.name).total) << r.name;
    }
    EXPECT_EQ(added, only_b);
    EXPECT_EQ(removed, only_a);
    size_t differ = 0;
    for (const std::string& name : both) {
      const Sum &x = in_a.at(name), &y = in_b.at(name);
      const OpDiffRow* r = find(d.changed, name);
      if (x.count != y.count || x.total != y.total) {
        ++differ;
        ASSERT_NE(r, nullptr) << name;
      }
      if (!r) continue;
      EXPECT_EQ(r->a.count, x.count) << name;
      EXPECT_EQ(r->a.total, x.total) << name;
      EXPECT_EQ(r->b.count, y.count) << name;
      EXPECT_EQ(r->b.total, y.total) << name;
      EXPECT_EQ(r->delta(), y.total - x.total) << name;
    }
    EXPECT_GT(differ, 0u);
    EXPECT_EQ(d.changed.size() + d.unchanged, both.size());
    for (size_t i = 1; i < d.changed.size(); ++i)
      EXPECT_GE(std::abs(d.changed[i - 1].delta()), std::abs(d.changed[i].delta()));
  }
}

}  // namespace
}  // namespace strata
