// The Compare tab's model reads the engine's compare reply back: the rows, the steps and the
// errors the session wrote, the default order by |Δ|, and the CSV of every table.
#include "ui/compare/compare_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

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

bool load_b(CompareSession* c, const std::string& name, const std::string& bytes) {
  c->load_begin(name, bytes.size());
  std::memcpy(c->load_buffer(bytes.size()), bytes.data(), bytes.size());
  c->load_commit(bytes.size());
  return c->load_end();
}

TEST(CompareModel, ReadsTheSessionsReply) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kA));
  CompareSession c;
  ASSERT_TRUE(load_b(&c, "b.json", kB));
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

TEST(CompareModel, ReadsTheAlignment) {
  Engine a;
  ASSERT_TRUE(testing::load_trace(&a, "a.json", kA));
  CompareSession c;
  ASSERT_TRUE(load_b(&c, "b.json", kB));
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
  EXPECT_FALSE(compare_model_parse("{\"a\":", &m, &error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace strata
