// "An event as JSON" is written by core/query/event_json for every reply: the engine's find,
// the panel's find and select, details with its parent / children. Each reply keeps its keys,
// their order and the values' forms.
#include "core/query/event_json.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "core/store/trace_store.h"
#include "engine/engine.h"
#include "engine_test_util.h"

namespace strata {
namespace {

const char kTrace[] = R"({"traceEvents":[
{"ph":"X","name":"a","cat":"c","pid":1,"tid":"t2","ts":1,"dur":5},
{"ph":"X","name":"b","pid":1,"tid":"t2","ts":2,"dur":1}]})";

void load(Engine* e) { ASSERT_TRUE(testing::load_trace(e, "t.json", kTrace)) << e->last_error(); }

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(EventJson, EveryReplyKeepsItsShape) {
  Engine e;
  load(&e);
  EXPECT_EQ(e.find_json("b", 10),
            "{\"count\":1,\"matches\":[{\"name\":\"b\",\"tsNs\":2000,\"durNs\":1000,\"pid\":1,"
            "\"tid\":\"t2\",\"event\":1}]}");
  const std::string f = e.query_json("find", "{\"text\":\"b\"}");
  EXPECT_TRUE(has(f,
                  "{\"event\":1,\"name\":\"b\",\"start\":1000,\"end\":2000,\"track\":0,"
                  "\"depth\":1}"))
      << f;
  const std::string sel = e.query_json("select", "{\"events\":[1]}");
  EXPECT_TRUE(has(sel,
                  "{\"event\":1,\"start\":1000,\"end\":2000,\"name\":\"b\",\"tsNs\":2000,"
                  "\"durNs\":1000,\"pid\":1,\"tid\":\"t2\",\"track\":0,\"depth\":1}"))
      << sel;
  const std::string d = e.details_json(0, "");
  EXPECT_EQ(d.rfind("{\"event\":0,\"name\":\"a\",\"cat\":\"c\",\"phase\":\"X\",\"startNs\":1000,"
                    "\"durNs\":5000,\"depth\":0,\"pid\":1,\"tid\":\"t2\",\"process\":",
                    0),
            0u)
      << d;
  EXPECT_TRUE(has(d, "\"children\":[{\"event\":1,\"name\":\"b\",\"startNs\":2000,\"durNs\":1000}]"))
      << d;
  EXPECT_TRUE(has(d, ",\"track\":0,\"flows\":[")) << d;
  const std::string child = e.details_json(1, "");
  EXPECT_TRUE(has(child, "\"parent\":{\"event\":0,\"name\":\"a\",\"startNs\":1000,\"durNs\":5000}"))
      << child;
}

TEST(EventJson, FieldsInTheOrderAsked) {
  Engine e;
  load(&e);
  const TraceStore& s = *e.store();
  std::string o;
  append_event_json(&o, s, 1, {EventField::kDurNs, EventField::kName, EventField::kTrack}, {});
  EXPECT_EQ(o, "{\"durNs\":1000,\"name\":\"b\",\"track\":0}");
  o.clear();
  append_id_json(&o, "-12");
  append_id_json(&o, "x");
  append_id_json(&o, "12345678901234567890");
  EXPECT_EQ(o, "-12\"x\"\"12345678901234567890\"");
}

}  // namespace
}  // namespace strata
