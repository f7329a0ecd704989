// The call tree merged by name path and the call-tree diff: hand-made traces with known trees
// (an implementation replaced under its lowest common parent, a node added, the limits); two
// ranks of one real run, each tree node's count and total against an independent walk up the
// store's rows (hierarchy.h parent_of) from every operator event, and the diff's rows against
// the two walks; a real trace against itself gives no rows.
#include "core/diff/tree_diff.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/query/hierarchy.h"
#include "engine/compare/tree_compare.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "real_trace_fixtures.h"

namespace strata {
namespace {

CallTree tree_of(const TraceStore& s, const CallTreeLimits& limits = {}) {
  return framework_call_tree(s, limits);
}

const TreeDiffRow* row(const TreeDiff& d, const std::string& path) {
  for (const TreeDiffRow& r : d.rows)
    if (r.path == path) return &r;
  return nullptr;
}

// A: a step with aten::linear (aten::t + aten::addmm in it) and aten::relu, and a runtime call
// inside addmm (not a node: its time is addmm's self). B: the step (another number) with
// aten::linear over one fused op, the same relu, and an aten::copy_ after the step.
constexpr const char* kA = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":100,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":60,"name":"aten::linear","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":1,"dur":5,"name":"aten::t","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":6,"dur":50,"name":"aten::addmm","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":10,"dur":3,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":70,"dur":10,"name":"aten::relu","cat":"cpu_op"}
])";
constexpr const char* kB = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":90,"name":"ProfilerStep#7","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":40,"name":"aten::linear","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":1,"dur":38,"name":"fused_linear","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":50,"dur":10,"name":"aten::relu","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":95,"dur":2,"name":"aten::copy_","cat":"cpu_op"}
])";

TEST(CallTree, MergesByNamePathWithSelfTimeOutsidePickedChildren) {
  testing::ImportResult a = testing::import_json(kA);
  ASSERT_FALSE(a.failed);
  const CallTree t = tree_of(*a.store);
  ASSERT_EQ(t.size(), 6u);  // root, step, linear, t, addmm, relu
  EXPECT_EQ(t.events, 5u);  // the runtime call is not a node
  std::map<std::string, CallFigures> by_name;
  for (uint32_t n = 1; n < t.size(); ++n) by_name[std::string(t.name[n])] = t.figures[n];
  EXPECT_EQ(by_name["ProfilerStep#*"], (CallFigures{1, 100'000, 30'000}));
  EXPECT_EQ(by_name["aten::linear"], (CallFigures{1, 60'000, 5'000}));
  EXPECT_EQ(by_name["aten::addmm"], (CallFigures{1, 50'000, 50'000}));
  for (uint32_t n = 1; n < t.size(); ++n) {  // total = self + children's totals here
    TimeNs children = 0;
    for (uint32_t i = t.child_begin[n]; i < t.child_begin[n + 1]; ++i)
      children += t.figures[t.child_ids[i]].total;
    EXPECT_EQ(t.figures[n].total, t.figures[n].self + children) << t.name[n];
  }
  EXPECT_EQ(call_tree_name("ProfilerStep#12"), "ProfilerStep#*");
  EXPECT_EQ(call_tree_name("ProfilerStep#x"), "ProfilerStep#x");
}

// Events in any order give the same tree as in store order.
TEST(CallTree, AnyEventOrderGivesTheSameTree) {
  testing::ImportResult a = testing::import_json(kA);
  ASSERT_FALSE(a.failed);
  KeyedEvents k = call_tree_events(*a.store);
  const CallTree t = build_call_tree(*a.store, k.events, k.names);
  std::reverse(k.events.begin(), k.events.end());
  std::reverse(k.names.begin(), k.names.end());
  const CallTree r = build_call_tree(*a.store, k.events, k.names);
  ASSERT_EQ(r.size(), t.size());
  std::map<std::string_view, CallFigures> x, y;
  for (uint32_t n = 1; n < t.size(); ++n) x[t.name[n]] = t.figures[n];
  for (uint32_t n = 1; n < r.size(); ++n) y[r.name[n]] = r.figures[n];
  EXPECT_EQ(x, y);
}

// Two threads calling the same op under the same name path are one node.
TEST(CallTree, OnePathOnSeveralThreadsIsOneNode) {
  testing::ImportResult a = testing::import_json(R"([
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"f","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":2,"dur":3,"name":"g","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":2,"ts":0,"dur":20,"name":"f","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":2,"ts":5,"dur":4,"name":"g","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":2,"ts":30,"dur":1,"name":"g","cat":"cpu_op"}])");
  const CallTree t = tree_of(*a.store);
  ASSERT_EQ(t.size(), 4u);  // root, f, f > g, g
  std::map<std::string, CallFigures> by_path;
  for (uint32_t n = 1; n < t.size(); ++n)
    by_path[(t.parent[n] ? std::string(t.name[t.parent[n]]) + "/" : "") + std::string(t.name[n])] =
        t.figures[n];
  EXPECT_EQ(by_path["f"], (CallFigures{2, 30'000, 23'000}));
  EXPECT_EQ(by_path["f/g"], (CallFigures{2, 7'000, 7'000}));
  EXPECT_EQ(by_path["g"], (CallFigures{1, 1'000, 1'000}));
}

TEST(TreeDiff, ReplacedImplementationLinesUpUnderTheLowestCommonParent) {
  testing::ImportResult a = testing::import_json(kA), b = testing::import_json(kB);
  ASSERT_FALSE(a.failed || b.failed);
  const TreeDiff d = diff_call_trees(tree_of(*a.store), tree_of(*b.store));
  // Pre-order, siblings by |Δ|: the step (−10) before copy_ (+2); under linear the group, and
  // its members by |Δ| (addmm 50, fused_linear 38, t 5). relu is the same: counted only.
  std::vector<std::string> paths;
  for (const TreeDiffRow& r : d.rows) paths.push_back(r.path);
  EXPECT_EQ(paths, (std::vector<std::string>{
                       "ProfilerStep#*",
                       "ProfilerStep#* > aten::linear",
                       "ProfilerStep#* > aten::linear > aten::addmm + aten::t -> fused_linear",
                       "ProfilerStep#* > aten::linear > aten::addmm",
                       "ProfilerStep#* > aten::linear > fused_linear",
                       "ProfilerStep#* > aten::linear > aten::t",
                       "aten::copy_",
                   }));
  EXPECT_EQ(d.unchanged, 1u);  // relu
  const TreeDiffRow* step = row(d, "ProfilerStep#*");
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->status, DiffStatus::kChanged);
  EXPECT_EQ(step->delta(), -10'000);
  EXPECT_EQ(step->a.self, 30'000);
  EXPECT_EQ(step->b.self, 40'000);
  const TreeDiffRow& group = d.rows[2];
  EXPECT_EQ(group.status, DiffStatus::kReplaced);
  EXPECT_EQ(group.depth, 2u);
  EXPECT_EQ(group.parent, 1u);
  EXPECT_EQ(group.a_names, (std::vector<std::string>{"aten::addmm", "aten::t"}));
  EXPECT_EQ(group.b_names, (std::vector<std::string>{"fused_linear"}));
  EXPECT_EQ(group.a, (CallFigures{2, 55'000, 55'000}));
  EXPECT_EQ(group.b, (CallFigures{1, 38'000, 38'000}));
  EXPECT_EQ(group.delta(), -17'000);
  EXPECT_EQ(d.rows[3].status, DiffStatus::kRemoved);
  EXPECT_EQ(d.rows[3].parent, 2u);
  EXPECT_EQ(d.rows[3].depth, 3u);
  EXPECT_EQ(d.rows[4].status, DiffStatus::kAdded);
  EXPECT_EQ(d.rows[4].b.total, 38'000);
  const TreeDiffRow* copy = row(d, "aten::copy_");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->status, DiffStatus::kAdded);
  EXPECT_EQ(copy->parent, kNone);
  EXPECT_EQ(copy->b, (CallFigures{1, 2'000, 2'000}));
  EXPECT_DOUBLE_EQ(d.rows[1].delta_pct(), -100.0 / 3);
  EXPECT_TRUE(d.note().empty());
}

// Only A's children differ under a matched node: each is removed, nothing is replaced; a node
// whose own figures match but under which something changed is listed as unchanged.
TEST(TreeDiff, RemovedWithoutAReplacementAndUnchangedContext) {
  testing::ImportResult a = testing::import_json(R"([
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"f","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":1,"dur":4,"name":"g","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":6,"dur":2,"name":"h","cat":"cpu_op"}])");
  testing::ImportResult b = testing::import_json(R"([
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"f","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":1,"dur":4,"name":"g","cat":"cpu_op"}])");
  const TreeDiff d = diff_call_trees(tree_of(*a.store), tree_of(*b.store));
  ASSERT_EQ(d.rows.size(), 2u);
  EXPECT_EQ(d.rows[0].path, "f");
  EXPECT_EQ(d.rows[0].status, DiffStatus::kChanged);  // its self time differs (h is gone)
  EXPECT_EQ(d.rows[1].path, "f > h");
  EXPECT_EQ(d.rows[1].status, DiffStatus::kRemoved);
  EXPECT_EQ(d.unchanged, 1u);  // g

  // Time moved between two children: the parent's figures match, it is listed for context.
  testing::ImportResult c = testing::import_json(R"([
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"f","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":1,"dur":5,"name":"g","cat":"cpu_op"},
    {"ph":"X","pid":1,"tid":1,"ts":6,"dur":1,"name":"h","cat":"cpu_op"}])");
  const TreeDiff e = diff_call_trees(tree_of(*a.store), tree_of(*c.store));
  ASSERT_EQ(e.rows.size(), 3u);
  EXPECT_EQ(e.rows[0].status, DiffStatus::kUnchanged);
  EXPECT_EQ(e.rows[1].path, "f > g");
  EXPECT_EQ(e.rows[1].delta(), 1'000);
  EXPECT_EQ(e.rows[2].delta(), -1'000);
}

TEST(TreeDiff, LimitsAreKeptAndSaidSo) {
  testing::ImportResult a = testing::import_json(kA), b = testing::import_json(kB);
  ASSERT_FALSE(a.failed || b.failed);
  // Depth 1: only the step and copy_ are nodes; linear and what is in it is the step's self.
  const CallTree shallow = tree_of(*a.store, CallTreeLimits{1, 100});
  EXPECT_EQ(shallow.size(), 2u);
  EXPECT_EQ(shallow.dropped_events, 4u);
  EXPECT_EQ(shallow.figures[1], (CallFigures{1, 100'000, 100'000}));
  const CallTree few = tree_of(*a.store, CallTreeLimits{64, 3});  // root + 2 nodes
  EXPECT_EQ(few.size(), 3u);
  EXPECT_EQ(few.events + few.dropped_events, 5u);
  const TreeDiff d = diff_call_trees(shallow, tree_of(*b.store, CallTreeLimits{1, 100}));
  EXPECT_EQ(d.a_dropped_events, 4u);
  EXPECT_NE(d.note().find("4 events of A"), std::string::npos);
  // Two rows at most: the top level's, largest |Δ| first; the rest is counted.
  const TreeDiff cut = diff_call_trees(tree_of(*a.store), tree_of(*b.store), 2);
  ASSERT_EQ(cut.rows.size(), 2u);
  EXPECT_EQ(cut.rows[0].path, "ProfilerStep#*");
  EXPECT_EQ(cut.rows[1].path, "aten::copy_");
  EXPECT_EQ(cut.rows_cut, 5u);
  EXPECT_NE(cut.note().find("5 rows"), std::string::npos);
}

// The path of every picked event by an independent walk: up the store's rows with parent_of to
// the nearest picked event, names folded as the tree folds them.
std::map<std::string, CallFigures> paths_by_walk(const TraceStore& s) {
  std::set<uint32_t> picked;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    const std::string_view cat = s.strings.get(s.events.cat[e]);
    if (s.events.phase[e] == 'X' && (cat == "cpu_op" || cat == "user_annotation")) picked.insert(e);
  }
  std::map<std::string, CallFigures> out;
  for (uint32_t e : picked) {
    std::string path(call_tree_name(s.strings.get(s.events.name[e])));
    for (uint32_t p = parent_of(s, e); p != kNone; p = parent_of(s, p))
      if (picked.count(p))
        path = std::string(call_tree_name(s.strings.get(s.events.name[p]))) + kTreePathSeparator +
               path;
    CallFigures& f = out[path];
    ++f.count;
    f.total += s.events.dur[e];
  }
  return out;
}

std::map<std::string, CallFigures> paths_of(const CallTree& t) {
  std::vector<std::string> path(t.size());
  std::map<std::string, CallFigures> out;
  for (uint32_t n = 1; n < t.size(); ++n) {  // parents come before their children
    path[n] = (t.parent[n] ? path[t.parent[n]] + kTreePathSeparator : std::string()) +
              std::string(t.name[n]);
    out[path[n]] = CallFigures{t.figures[n].count, t.figures[n].total, 0};
  }
  return out;
}

TEST(TreeDiff, TwoRanksOfARealRunEqualAnIndependentWalk) {
  testing::ImportResult a, b;
  if (!testing::import_shared_gz("pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz", &a) ||
      !testing::import_shared_gz("pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz", &b))
    GTEST_SKIP() << "../shared/data absent";
  const std::map<std::string, CallFigures> wa = paths_by_walk(*a.store),
                                           wb = paths_by_walk(*b.store);
  const CallTree ta = tree_of(*a.store), tb = tree_of(*b.store);
  EXPECT_EQ(ta.dropped_events, 0u);
  EXPECT_GT(wa.size(), 20u);
  EXPECT_EQ(paths_of(ta), wa);
  EXPECT_EQ(paths_of(tb), wb);

  const TreeDiff d = diff_call_trees(ta, tb, 1'000'000);
  EXPECT_EQ(d.rows_cut, 0u);
  size_t both = 0, one_side = 0;
  for (const auto& [p, f] : wa) (wb.count(p) ? both : one_side) += 1;
  for (const auto& [p, f] : wb) one_side += wa.count(p) ? 0 : 1;
  size_t matched_rows = 0, one_sided_rows = 0, groups = 0;
  // Members of a group are listed under it; their call path leaves the group's name out.
  std::vector<std::string> call(d.rows.size());
  for (size_t i = 0; i < d.rows.size(); ++i) {
    const TreeDiffRow& r = d.rows[i];
    const std::string up = r.parent == kNone ? "" : call[r.parent];
    call[i] = r.status == DiffStatus::kReplaced
                  ? up
                  : (up.empty() ? "" : up + kTreePathSeparator) + r.name;
    if (r.status == DiffStatus::kReplaced) {
      ++groups;
      EXPECT_FALSE(r.a_names.empty() || r.b_names.empty());
      continue;
    }
    EXPECT_EQ(r.path, call[i]);
    const bool in_a = r.status != DiffStatus::kAdded, in_b = r.status != DiffStatus::kRemoved;
    if (in_a) {
      ASSERT_TRUE(wa.count(call[i])) << call[i];
      EXPECT_EQ(r.a.count, wa.at(call[i]).count) << call[i];
      EXPECT_EQ(r.a.total, wa.at(call[i]).total) << call[i];
    }
    if (in_b) {
      ASSERT_TRUE(wb.count(call[i])) << call[i];
      EXPECT_EQ(r.b.count, wb.at(call[i]).count) << call[i];
      EXPECT_EQ(r.b.total, wb.at(call[i]).total) << call[i];
    }
    if (in_a && in_b) {
      ++matched_rows;
      if (r.status == DiffStatus::kChanged) {
        EXPECT_FALSE(r.a == r.b) << call[i];
      }
    } else {
      ++one_sided_rows;
    }
  }
  // Every path in both is a matched row or counted unchanged; every other path is a row.
  EXPECT_EQ(matched_rows + d.unchanged, both);
  EXPECT_EQ(one_sided_rows, one_side);
  EXPECT_GT(matched_rows, 0u);
  // Siblings by |Δ|.
  for (size_t i = 0; i < d.rows.size(); ++i)
    for (size_t j = i + 1; j < d.rows.size(); ++j)
      if (d.rows[j].parent == d.rows[i].parent) {
        EXPECT_GE(std::abs(d.rows[i].delta()), std::abs(d.rows[j].delta())) << d.rows[j].path;
        break;
      }
  (void)groups;
}

TEST(TreeDiff, RealTracesAgainstThemselvesAreEmpty) {
  size_t tried = 0;
  testing::ImportResult a;
  if (testing::import_shared_gz("pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz", &a)) {
    ++tried;
    const CallTree t = tree_of(*a.store);
    const TreeDiff d = diff_call_trees(t, t);
    EXPECT_TRUE(d.empty());
    EXPECT_EQ(d.unchanged, t.size() - 1);
    EXPECT_GT(d.unchanged, 20u);
  }
  // An xplane's host ops: two loads of one file.
  std::string bytes;
  if (testing::read_shared(testing::kTfGpuXplane, &bytes)) {
    ++tried;
    Engine x, y;
    ASSERT_TRUE(testing::load_trace(&x, "a.xplane.pb", bytes));
    ASSERT_TRUE(testing::load_trace(&y, "b.xplane.pb", bytes));
    const TreeDiff d = diff_framework_trees(*x.store(), *y.store());
    EXPECT_TRUE(d.empty());
    EXPECT_GT(d.a_nodes, 0u);
    EXPECT_EQ(d.unchanged, d.a_nodes);
  }
  if (tried == 0) GTEST_SKIP() << "../shared/data absent";
}

}  // namespace
}  // namespace strata
