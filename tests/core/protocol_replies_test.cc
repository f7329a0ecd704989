// The engine's JSON replies carry every key that src/protocol/reply_keys.h says the page reads:
// the writers (engine, core/query) and the protocol's lists cannot drift apart unnoticed.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "engine/engine.h"
#include "protocol/reply_keys.h"
#include "xplane_test_util.h"

namespace strata::protocol {
namespace {

const char* kTrace = R"({"traceEvents":[
 {"ph":"M","name":"process_name","pid":1,"args":{"name":"trainer"}},
 {"ph":"X","name":"step","cat":"train","pid":1,"tid":2,"ts":100,"dur":50,"args":{"n":1}},
 {"ph":"X","name":"forward","pid":1,"tid":2,"ts":110,"dur":20}
]})";

void load(Engine* e) {
  ASSERT_TRUE(testing::engine_load(e, kTrace, 1 << 16, "t.json")) << e->last_error();
}

// The member names of the object at `path` (keys from the root, "[i]" for array elements).
std::set<std::string> keys_at(const std::string& json, const std::vector<std::string>& path) {
  std::vector<JsonLine> lines;
  std::string error;
  EXPECT_TRUE(json_flatten(json, &lines, &error)) << error << "\n" << json;
  std::set<std::string> out;
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (keys.size() == path.size() + 1 && std::equal(path.begin(), path.end(), keys.begin()))
      out.insert(l.key);
  });
  return out;
}

template <size_t N>
void expect_keys(const std::string& json, const std::vector<std::string>& path,
                 const std::string_view (&want)[N],
                 std::set<std::string_view> added_elsewhere = {}) {
  const std::set<std::string> got = keys_at(json, path);
  for (std::string_view k : want) {
    if (added_elsewhere.count(k)) continue;
    EXPECT_TRUE(got.count(std::string(k))) << "missing key " << k << " in " << json;
  }
}

TEST(ProtocolReplies, SummaryAndItsFilesCarryTheirKeys) {
  Engine e;
  load(&e);
  const std::string s = e.summary_json();
  // The worker adds loadMs, heapBytes and the load's workers: they are not the engine's to write;
  // bundle is there for a lazy bundle only (bundle_session_test checks it).
  expect_keys(s, {}, kSummaryKeys,
              {"loadMs", "heapBytes", "workers", "workersSetting", "slices", "digest", "bundle"});
  expect_keys(s, {"files", "[0]"}, kSummaryFileKeys);
}

TEST(ProtocolReplies, FindSelectAndDetailsCarryTheirKeys) {
  Engine e;
  load(&e);
  const std::string found = e.find_json("step", 10);
  expect_keys(found, {}, kFindKeys);
  expect_keys(found, {"matches", "[0]"}, kFindMatchKeys);

  std::vector<JsonLine> lines;
  std::string error;
  ASSERT_TRUE(json_flatten(found, &lines, &error)) << error;
  double event = -1;
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (keys.size() == 3 && keys[0] == "matches" && keys[1] == "[0]" && keys[2] == "event")
      event = json_number(l);
  });
  ASSERT_GE(event, 0) << found;

  const std::string sel =
      e.query_json("select", "{\"events\":[" + std::to_string(static_cast<int>(event)) + "]}");
  expect_keys(sel, {"events", "[0]"}, kSelectedEventKeys);

  const std::string record = R"({"ph":"X","name":"step","args":{"n":1}})";
  const std::string details = e.details_json(static_cast<uint32_t>(event), record);
  expect_keys(details, {}, kDetailsKeys);
  // record.xla is written for XLA ops only; args for every event with a record.
  expect_keys(details, {"record"}, kDetailsRecordKeys, {"xla"});
}

}  // namespace
}  // namespace strata::protocol
