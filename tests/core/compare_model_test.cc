// The Compare tab's model reads the engine's compare reply back: the rows, the steps and the
// errors the session wrote, the default order by |Δ|, the call tree's rows and which of them
// show, and the CSV of every table.
#include "ui/compare/compare_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "compare_test_util.h"
#include "engine/compare/compare_session.h"
#include "engine_test_util.h"

namespace strata {
namespace {

constexpr const char* kA = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":50,"name":"ProfilerStep#3","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":1,"dur":10,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":20,"dur":4,"name":"y","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":30,"dur":2,"name":"q, \"quoted\"","cat":"cpu_op"}])";
constexpr const char* kB = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":70,"name":"ProfilerStep#3","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":1,"dur":30,"name":"x","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":40,"dur":1,"name":"q, \"quoted\"","cat":"cpu_op"},
  {"ph":"X","pid":1,"tid":1,"ts":50,"dur":5,"name":"z","cat":"cpu_op"}])";

TEST(CompareModel, ReadsTheSessionsReply) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kA));
  CompareSession c;
  ASSERT_TRUE(testing::load_b(&c, "b.json", kB));
  CompareModel m;
  std::string error;
  ASSERT_TRUE(compare_model_parse(c.result_json(a).c_str(), &m, &error)) << error;
  EXPECT_TRUE(m.has_b);
  EXPECT_EQ(m.a_name, "a.json");
  EXPECT_EQ(m.b_name, "b.json");
  EXPECT_EQ(m.a_events, 4);
  const CompareTable& ops = m.tables[0];
  ASSERT_EQ(ops.key, "operator");
  const OpDiff d = c.diff(a, OpDiffKey::kOperator);
  ASSERT_EQ(ops.changed.size(), d.changed.size());
  for (size_t i = 0; i < d.changed.size(); ++i) {
    EXPECT_EQ(ops.changed[i].name, d.changed[i].name);
    EXPECT_EQ(ops.changed[i].a_total, static_cast<double>(d.changed[i].a.total));
    EXPECT_EQ(ops.changed[i].b_count, static_cast<double>(d.changed[i].b.count));
    EXPECT_EQ(ops.changed[i].delta, static_cast<double>(d.changed[i].delta()));
  }
  ASSERT_EQ(ops.added.size(), 1u);
  EXPECT_EQ(ops.added[0].name, "z");
  ASSERT_EQ(ops.removed.size(), 1u);
  EXPECT_EQ(ops.removed[0].name, "y");
  EXPECT_EQ(m.align, "number");
  ASSERT_EQ(m.steps.size(), 1u);
  EXPECT_EQ(m.steps[0].a_step, 3);
  EXPECT_EQ(m.steps[0].a_dur, 50'000);
  EXPECT_EQ(m.steps[0].b_dur, 70'000);
  double parts = 0;
  for (double v : m.steps[0].b_parts) parts += v;
  EXPECT_EQ(parts, 70'000);
  EXPECT_TRUE(m.errors.empty());

  // x +20 µs, q −1 µs: by |Δ| x first; by Δ ascending q first.
  std::vector<CompareRow> rows = ops.changed;
  compare_sort(&rows, CompareColumn::kAbsDelta, true);
  EXPECT_EQ(rows[0].name, "x");
  compare_sort(&rows, CompareColumn::kDelta, false);
  EXPECT_EQ(rows[0].name, "q, \"quoted\"");

  const std::string csv = compare_table_csv(ops);
  EXPECT_NE(csv.find("changed,x,1,10.000,10.000,1,30.000,30.000,20.000,200\n"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("changed,\"q, \"\"quoted\"\"\",1,2.000"), std::string::npos) << csv;
  EXPECT_NE(csv.find("added,z,0,0.000,0.000,1,5.000"), std::string::npos) << csv;
  EXPECT_NE(csv.find("removed,y,1,4.000"), std::string::npos) << csv;
  const std::string steps = compare_steps_csv(m);
  EXPECT_EQ(steps.substr(0, steps.find(',', steps.find(',', 0) + 1)), "a_step,b_step");
  EXPECT_NE(steps.find("\n3,3,50.000,70.000,"), std::string::npos) << steps;
}

// Under the step, A has y where B has z: one replaced group with both as rows under it; x and
// q changed; the rows read back equal the session's, and the CSV has one line per row.
TEST(CompareModel, ReadsTheCallTree) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kA));
  CompareSession c;
  ASSERT_TRUE(testing::load_b(&c, "b.json", kB));
  CompareModel m;
  std::string error;
  ASSERT_TRUE(compare_model_parse(c.result_json(a).c_str(), &m, &error)) << error;
  const TreeDiff d = c.tree_diff(a);
  ASSERT_TRUE(m.tree.present);
  ASSERT_EQ(m.tree.rows.size(), d.rows.size());
  ASSERT_EQ(d.rows.size(), 6u);  // step; x; q; the group, its z and y
  for (size_t i = 0; i < d.rows.size(); ++i) {
    const CompareTreeRow& r = m.tree.rows[i];
    EXPECT_EQ(r.path, d.rows[i].path);
    EXPECT_EQ(r.name, d.rows[i].name);
    EXPECT_EQ(r.status, diff_status_name(d.rows[i].status));
    EXPECT_EQ(r.depth, d.rows[i].depth);
    EXPECT_EQ(r.parent, d.rows[i].parent == kNone ? -1 : static_cast<int64_t>(d.rows[i].parent));
    EXPECT_EQ(r.a_total, static_cast<double>(d.rows[i].a.total));
    EXPECT_EQ(r.b_self, static_cast<double>(d.rows[i].b.self));
    EXPECT_EQ(r.delta, static_cast<double>(d.rows[i].delta()));
  }
  EXPECT_EQ(m.tree.rows[0].path, "ProfilerStep#*");
  EXPECT_EQ(m.tree.rows[1].path, "ProfilerStep#* > x");
  EXPECT_EQ(m.tree.rows[2].path, "ProfilerStep#* > q, \"quoted\"");  // |−1| ties the group's
  const CompareTreeRow& group = m.tree.rows[3];
  EXPECT_EQ(group.status, "replaced");
  EXPECT_EQ(group.name, "y -> z");
  EXPECT_EQ(group.a_names, (std::vector<std::string>{"y"}));
  EXPECT_EQ(group.b_names, (std::vector<std::string>{"z"}));
  EXPECT_EQ(m.tree.rows[4].path, "ProfilerStep#* > z");  // |+5| before y's |−4|
  EXPECT_EQ(m.tree.rows[4].status, "added");
  EXPECT_EQ(m.tree.rows[5].path, "ProfilerStep#* > y");
  EXPECT_EQ(m.tree.rows[5].status, "removed");
  EXPECT_EQ(m.tree.unchanged, 0);
  EXPECT_EQ(m.tree.a_nodes, 4);

  // Collapsed: the top row only; open it and the group: everything.
  std::vector<uint8_t> open(m.tree.rows.size(), 0);
  EXPECT_EQ(compare_tree_visible(m.tree, open), (std::vector<uint32_t>{0}));
  open[0] = 1;
  EXPECT_EQ(compare_tree_visible(m.tree, open), (std::vector<uint32_t>{0, 1, 2, 3}));
  open[3] = 1;
  EXPECT_EQ(compare_tree_visible(m.tree, open).size(), 6u);
  EXPECT_EQ(compare_tree_has_children(m.tree), (std::vector<uint8_t>{1, 0, 0, 1, 0, 0}));

  const std::string csv = compare_tree_csv(m.tree);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  EXPECT_EQ(csv.substr(0, csv.find(',')), "status");
  EXPECT_NE(
      csv.find("\nreplaced,1,ProfilerStep#* > y -> z,y -> z,1,4.000,4.000,1,5.000,5.000,1.000,"
               "25,y,z\n"),
      std::string::npos)
      << csv;
  EXPECT_NE(
      csv.find("changed,1,\"ProfilerStep#* > q, \"\"quoted\"\"\",\"q, \"\"quoted\"\"\",1,2.000"),
      std::string::npos)
      << csv;
}

TEST(CompareModel, ReadsTheAlignment) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kA));
  CompareSession c;
  ASSERT_TRUE(testing::load_b(&c, "b.json", kB));
  AlignRequest r;
  r.mode = AlignMode::kEvent;
  r.event = "q, \"quoted\"";  // 30 µs into A, 40 µs into B
  c.set_alignment(r);
  CompareModel m;
  std::string error;
  ASSERT_TRUE(compare_model_parse(c.result_json(a).c_str(), &m, &error)) << error;
  EXPECT_EQ(m.alignment.mode, "event");
  EXPECT_EQ(m.alignment.used, "event");
  EXPECT_EQ(m.alignment.event, r.event);
  EXPECT_EQ(m.alignment.offset_ns, 10'000);
  EXPECT_EQ(m.alignment.note, c.alignment(a).note);
  r.mode = AlignMode::kStep;
  r.step = 3;
  c.set_alignment(r);
  ASSERT_TRUE(compare_model_parse(c.result_json(a).c_str(), &m, &error)) << error;
  EXPECT_EQ(m.alignment.used, "step");
  EXPECT_EQ(m.alignment.step, 3);
  EXPECT_EQ(m.alignment.a_step, 3);
  EXPECT_EQ(m.alignment.b_step, 3);
  EXPECT_EQ(m.alignment.offset_ns, 0);
}

TEST(CompareModel, WithoutBAndOnBadText) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kA));
  CompareSession c;
  CompareModel m;
  std::string error;
  ASSERT_TRUE(compare_model_parse(c.result_json(a).c_str(), &m, &error)) << error;
  EXPECT_FALSE(m.has_b);
  EXPECT_TRUE(m.tables[0].changed.empty());
  EXPECT_FALSE(m.tree.present);
  EXPECT_FALSE(compare_model_parse("{\"a\":", &m, &error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace strata
