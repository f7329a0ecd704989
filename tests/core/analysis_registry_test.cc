// The analysis query's envelope: the list, an unknown name, and the table writer's JSON.
#include "engine/analysis/analysis_registry.h"

#include <gtest/gtest.h>

#include "core/formats/json/json_flat.h"
#include "engine/analysis/analysis_table.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {
namespace {

const JsonLine* find_line(const std::vector<JsonLine>& lines, uint16_t depth,
                          std::string_view key) {
  for (const JsonLine& l : lines)
    if (l.depth == depth && l.key == key) return &l;
  return nullptr;
}

TEST(AnalysisRegistry, ListsEveryAnalysisWithItsAvailability) {
  Engine engine;
  const std::string json = engine.query_json("analysis", "{}");
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(json, &lines, &err)) << err << json;
  const JsonLine* list = find_line(lines, 0, "analyses");
  ASSERT_NE(list, nullptr) << json;
  EXPECT_EQ(list->kind, 'a');
  size_t n = 0;
  const AnalysisInfo* all = analyses(&n);
  size_t listed = 0;
  for (const JsonLine& l : lines)
    if (l.depth == 2 && l.key == "name") {
      ASSERT_LT(listed, n);
      EXPECT_EQ(l.value, all[listed].name);
      ++listed;
    }
  EXPECT_EQ(listed, n);
}

TEST(AnalysisRegistry, UnknownNameIsAnError) {
  Engine engine;
  const std::string json = engine.query_json("analysis", R"({"name":"no_such_thing"})");
  EXPECT_NE(json.find("\"error\":\"unknown analysis \\\"no_such_thing\\\"\""), std::string::npos)
      << json;
}

TEST(AnalysisTable, WritesCellsLinksAndReasons) {
  AnalysisTable t;
  t.name = "demo";
  t.title = "Demo";
  t.notes = {"a note"};
  t.columns = {{"op", "Op", AnalysisUnit::kText, "the op"},
               {"time", "Time", AnalysisUnit::kNs, ""},
               {"flops", "FLOPs", AnalysisUnit::kFlops, ""}};
  AnalysisRow parent;
  parent.cells = {AnalysisCell::of(std::string("fusion")), AnalysisCell::of(1500.0),
                  AnalysisCell::empty("the file has no flops stat")};
  AnalysisRow child;
  child.parent = 0;
  child.cells = {AnalysisCell::of(std::string("fusion.3")), AnalysisCell::of(1000.0),
                 AnalysisCell::of(std::nan(""))};
  child.link.name = "fusion.3";
  child.link.tracks = {2, 5};
  child.link.program_id = "18446744073709551615";
  child.link.module = "jit_step";
  child.link.op = "fusion.3";
  t.rows = {parent, child};
  t.extra_json = R"({"peak":1})";
  const std::string json = analysis_table_json(t);
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(json, &lines, &err)) << err << json;
  EXPECT_NE(json.find(R"("cells":["fusion",1500,null])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("why":{"flops":"the file has no flops stat"})"), std::string::npos)
      << json;
  // A NaN is never written as a number, and a 64-bit id stays exact as text.
  EXPECT_NE(json.find(R"("cells":["fusion.3",1000,null])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("programId":"18446744073709551615")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("tracks":[2,5])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("unit":"ns")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("extra":{"peak":1})"), std::string::npos) << json;
}

}  // namespace
}  // namespace strata
