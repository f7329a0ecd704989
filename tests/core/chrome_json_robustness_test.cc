// Chrome JSON importer against broken, truncated, hostile and non-trace input, and chunking.
#include <gtest/gtest.h>

#include <string>

#include "import_test_util.h"

namespace strata {
namespace {

using testing::expect_same_store;
using testing::expect_valid_layout;
using testing::find_event;
using testing::import_json;
using testing::name_of;

// A document that exercises everything a chunk boundary can split: escapes (\" \\ \u with
// surrogates), raw multi-byte UTF-8, numbers with fractions and exponents, string timestamps,
// skipped top-level members with brackets inside strings, and every imported phase.
const char* kTricky = R"({"otherData": {"s": "\\\"]}[{", "n": [1, [2, {"x": "\\"}]]},
"traceEvents": [
{"ph":"M","name":"process_name","pid":1,"args":{"name":"pr\u00f6c \ud83d\ude80"}},
{"ph":"M","name":"thread_name","pid":1,"tid":"t\"1","args":{"name":"th\\read"}},
{"ph":"X","name":"caf\u00e9 \"q\" \\","cat":"c\u0061t","pid":1,"tid":"t\"1","ts":1.234567e2,"dur":"12.0005","args":{"k":"]}\\\"{["}},
{"ph":"X","name":"日本語テキスト","pid":1,"tid":"t\"1","ts":123.5,"dur":1.5E1},
{"ph":"B","name":"b","pid":1,"tid":2,"ts":"1000.25"},
{"ph":"i","name":"inst","pid":1,"tid":2,"ts":1000.5,"s":"t"},
{"ph":"E","pid":1,"tid":2,"ts":2000},
{"ph":"C","name":"ctr","pid":1,"ts":5,"args":{"a":1.25,"b":"2e3"}},
{"ph":"s","id":"0x1f","name":"flow","pid":1,"tid":2,"ts":1001}
],
"displayTimeUnit": "ns", "tail": ["\\", "\"", {"}": "{"}]})";

TEST(ChromeJsonRobust, ChunkSplitAnywhereGivesIdenticalStores) {
  std::string doc = kTricky;
  auto whole = import_json(doc);
  ASSERT_FALSE(whole.failed) << whole.failure;
  const TraceStore& s = *whole.store;
  EXPECT_TRUE(s.errors.empty()) << s.errors[0];
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  ASSERT_EQ(s.events.size(), 4u);
  EXPECT_EQ(s.samples.size(), 2u);
  EXPECT_EQ(s.display_time_unit, "ns");
  int64_t cafe = find_event(s, "caf\xC3\xA9 \"q\" \\");
  ASSERT_GE(cafe, 0);
  EXPECT_EQ(s.events.start[cafe], 123457);
  EXPECT_EQ(s.events.dur[cafe], 12001);
  EXPECT_EQ(name_of(s, s.events.cat[cafe]), "cat");
  EXPECT_EQ(name_of(s, s.processes[0].name),
            "pr\xC3\xB6"
            "c \xF0\x9F\x9A\x80");
  expect_valid_layout(s);
  for (size_t chunk = 1; chunk <= 64; ++chunk) {
    auto part = import_json(doc, chunk);
    ASSERT_FALSE(part.failed) << "chunk " << chunk << ": " << part.failure;
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    expect_same_store(s, *part.store);
  }
}

TEST(ChromeJsonRobust, MalformedRecordIsSkippedAndReported) {
  std::string good1 = R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1})";
  std::string bad = R"({"ph":"X","name":"bad","pid":1 "tid":1,"ts":2,"dur":1})";
  std::string bad2 = R"({"ph":"X","name":"bad2","pid":1,"tid":1,"ts":2,"dur":1,"args":{"a":[}})";
  std::string good2 = R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":1})";
  std::string doc = "[" + good1 + ",\n" + bad + ",\n" + bad2 + ",\n" + good2 + "]";
  for (size_t chunk : {0, 1, 7}) {
    auto r = import_json(doc, chunk);
    ASSERT_FALSE(r.failed);
    const TraceStore& s = *r.store;
    ASSERT_EQ(s.events.size(), 2u) << chunk;
    EXPECT_GE(find_event(s, "a"), 0);
    EXPECT_GE(find_event(s, "b"), 0);
    ASSERT_EQ(s.errors.size(), 1u);
    size_t at = 1 + good1.size() + 2 + bad.find(" \"tid\"") + 1;
    EXPECT_EQ(s.errors[0], "2 malformed events skipped (first at byte " + std::to_string(at) +
                               ": expected ',' or '}' after a value)");
    EXPECT_EQ(r.records, 2u);
  }
}

TEST(ChromeJsonRobust, NonObjectElementsAreMalformed) {
  auto r = import_json(
      R"([1, "x", [{"ph":"X"}], {"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}, null])");
  ASSERT_FALSE(r.failed);
  EXPECT_EQ(r.store->events.size(), 1u);
  ASSERT_EQ(r.store->errors.size(), 1u);
  EXPECT_EQ(r.store->errors[0],
            "4 malformed events skipped (first at byte 1: an element of the event array is not "
            "an object)");
}

TEST(ChromeJsonRobust, TruncatedInsideAnEvent) {
  std::string ev = R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1})";
  std::string doc = "[" + ev + ",\n" + ev + ",\n" + R"({"ph":"X","name":"cut","pi)";
  for (size_t chunk : {0, 1, 5}) {
    auto r = import_json(doc, chunk);
    ASSERT_FALSE(r.failed);
    EXPECT_EQ(r.store->events.size(), 2u);
    ASSERT_EQ(r.store->errors.size(), 1u);
    EXPECT_EQ(r.store->errors[0], "the file is cut off at byte " + std::to_string(doc.size()) +
                                      ", inside an event (loaded 2 events before it)");
  }
  // Nothing loaded before the cut: the import fails with the same explanation.
  auto r = import_json(R"({"traceEvents":[{"ph":"X","name":"cut)");
  EXPECT_TRUE(r.failed);
  EXPECT_EQ(r.failure,
            "the file is cut off at byte 37, inside an event (loaded 0 events before it)");
}

TEST(ChromeJsonRobust, NotATrace) {
  auto empty = import_json("");
  EXPECT_TRUE(empty.failed);
  EXPECT_EQ(empty.failure, "the file is empty (0 bytes)");

  auto blanks = import_json(" \n\t ");
  EXPECT_TRUE(blanks.failed);
  EXPECT_NE(blanks.failure.find("only blanks"), std::string::npos);

  std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  auto bin = import_json(png);
  EXPECT_TRUE(bin.failed);
  EXPECT_EQ(
      bin.failure,
      "not a Chrome trace (JSON): the file starts with bytes 89 50 4E 47, expected '{' or '['");

  auto tiny = import_json("x");
  EXPECT_TRUE(tiny.failed);
  EXPECT_EQ(tiny.failure,
            "not a Chrome trace (JSON): the file starts with bytes 78, expected '{' or '['");

  std::string utf16("\xFF\xFE[\0{\0", 6);
  auto u16 = import_json(utf16);
  EXPECT_TRUE(u16.failed);
  EXPECT_NE(u16.failure.find("UTF-16"), std::string::npos) << u16.failure;
  EXPECT_NE(u16.failure.find("UTF-8"), std::string::npos) << u16.failure;

  std::string utf16_nobom("[\0{\0\"\0", 6);
  auto u16b = import_json(utf16_nobom);
  EXPECT_TRUE(u16b.failed);
  EXPECT_NE(u16b.failure.find("UTF-16"), std::string::npos);

  auto gz = import_json(std::string("\x1f\x8b\x08\x00", 4));
  EXPECT_TRUE(gz.failed);
  EXPECT_NE(gz.failure.find("gzip"), std::string::npos);

  auto num = import_json(R"({"traceEvents": 5})");
  EXPECT_TRUE(num.failed);
  EXPECT_NE(num.failure.find("\"traceEvents\" is not an array"), std::string::npos) << num.failure;

  auto other = import_json(R"({"hloInfoMap": {}, "podStatsSequence": [1, 2]})");
  EXPECT_TRUE(other.failed);
  EXPECT_EQ(other.failure, "not a Chrome trace: the JSON object has no \"traceEvents\" array");

  auto noph = import_json(R"([{"a": 1}, {"b": 2}])");
  EXPECT_TRUE(noph.failed);
  EXPECT_NE(noph.failure.find("none of the 2 objects"), std::string::npos) << noph.failure;
}

TEST(ChromeJsonRobust, BrokenTopLevelKeepsWhatWasLoaded) {
  auto r = import_json(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1} garbage])");
  ASSERT_FALSE(r.failed);
  EXPECT_EQ(r.store->events.size(), 1u);
  ASSERT_EQ(r.store->errors.size(), 1u);
  EXPECT_EQ(r.store->errors[0],
            "the JSON is broken at byte 54: found 'g', expected ',' or ']' after an event; the "
            "rest of the file was ignored");
  auto t = import_json(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]  junk)");
  ASSERT_FALSE(t.failed);
  ASSERT_EQ(t.store->warnings.size(), 1u);
  EXPECT_EQ(t.store->warnings[0], "4 bytes after the end of the JSON were ignored (from byte 56)");
}

TEST(ChromeJsonRobust, InvalidUtf8IsReplacedAndReportedOnce) {
  std::string doc =
      "[{\"ph\":\"X\",\"name\":\"ok\xFF\xFEok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
      "{\"ph\":\"X\",\"name\":\"\xC0\xAF\",\"cat\":\"\xED\xA0\x80\",\"pid\":1,\"tid\":1,\"ts\":2,"
      "\"dur\":1}]";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(name_of(s, s.events.name[0]), "ok\xEF\xBF\xBD\xEF\xBF\xBDok");
  EXPECT_EQ(name_of(s, s.events.name[1]), "\xEF\xBF\xBD\xEF\xBF\xBD");
  for (size_t i = 0; i < s.strings.size(); ++i) EXPECT_TRUE(is_valid_utf8(s.strings.get(i)));
  ASSERT_EQ(s.errors.size(), 1u);
  size_t first_bad = doc.find('\xFF');
  EXPECT_EQ(s.errors[0], "invalid UTF-8 in 3 strings was replaced by U+FFFD (first at byte " +
                             std::to_string(first_bad) + ")");
}

TEST(ChromeJsonRobust, MillionDeepNestingInSkippedTopLevelValue) {
  const size_t depth = 1000000;
  std::string doc = "{\"otherData\": ";
  doc.append(depth, '[');
  doc += "\"]\"";
  doc.append(depth, ']');
  doc += ", \"deep\": ";
  for (size_t i = 0; i < depth / 10; ++i) doc += "{\"a\":";
  doc += "1";
  doc.append(depth / 10, '}');
  doc += R"(, "traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]})";
  for (size_t chunk : {0, 4096}) {
    auto r = import_json(doc, chunk);
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_EQ(r.store->events.size(), 1u);
    EXPECT_TRUE(r.store->errors.empty());
  }
}

TEST(ChromeJsonRobust, MillionDeepNestingInsideAnEvent) {
  const size_t depth = 1000000;
  std::string doc = R"([{"ph":"X","name":"deep","pid":1,"tid":1,"ts":1,"dur":1,"args":{"x":)";
  doc.append(depth, '[');
  doc.append(depth, ']');
  doc += R"(}},{"ph":"X","name":"after","pid":1,"tid":1,"ts":5,"dur":1}])";
  for (size_t chunk : {0, 65536}) {
    auto r = import_json(doc, chunk);
    ASSERT_FALSE(r.failed) << r.failure;
    ASSERT_EQ(r.store->events.size(), 1u);
    EXPECT_GE(find_event(*r.store, "after"), 0);
    ASSERT_EQ(r.store->errors.size(), 1u);
    EXPECT_NE(r.store->errors[0].find("nesting deeper than 256 levels"), std::string::npos);
  }
}

TEST(ChromeJsonRobust, HugeStrings) {
  // A 2 MB name is loaded as is (split across chunks).
  std::string big(2 << 20, 'n');
  std::string doc = R"([{"ph":"X","name":")" + big + R"(","pid":1,"tid":1,"ts":1,"dur":1}])";
  auto r = import_json(doc, 100000);
  ASSERT_FALSE(r.failed);
  ASSERT_EQ(r.store->events.size(), 1u);
  EXPECT_EQ(r.store->strings.get(r.store->events.name[0]).size(), big.size());

  // An event over 64 MiB is dropped without being buffered; the next one still loads.
  std::string hostile = R"([{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":")";
  hostile.append(70u << 20, 'x');
  hostile += R"("},{"ph":"X","name":"after","pid":1,"tid":1,"ts":2,"dur":1}])";
  auto h = import_json(hostile, 1 << 20);
  ASSERT_FALSE(h.failed);
  ASSERT_EQ(h.store->events.size(), 1u);
  EXPECT_GE(find_event(*h.store, "after"), 0);
  ASSERT_EQ(h.store->errors.size(), 1u);
  EXPECT_EQ(h.store->errors[0],
            "1 malformed events skipped (first at byte 1: the event is larger than 64 MiB)");
  // An unterminated huge string at the end is a truncation, not an out-of-memory.
  std::string cut = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},{"name":")";
  cut.append(70u << 20, 'y');
  auto c = import_json(cut, 1 << 20);
  ASSERT_FALSE(c.failed);
  EXPECT_EQ(c.store->events.size(), 1u);
  ASSERT_EQ(c.store->errors.size(), 2u);
  EXPECT_NE(c.store->errors[0].find("cut off at byte " + std::to_string(cut.size())),
            std::string::npos);
}

TEST(ChromeJsonRobust, LenientAboutCommonProducerQuirks) {
  // Trailing comma, NaN counter values (Python json.dumps), raw tab in a string.
  auto r = import_json(
      "[{\"ph\":\"C\",\"name\":\"c\",\"pid\":1,\"ts\":1,\"args\":{\"v\":NaN,\"w\":2}},"
      "{\"ph\":\"X\",\"name\":\"a\tb\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},]");
  ASSERT_FALSE(r.failed) << r.failure;
  EXPECT_TRUE(r.store->errors.empty()) << r.store->errors[0];
  EXPECT_EQ(r.store->events.size(), 1u);
  EXPECT_EQ(r.store->samples.size(), 2u);
}

}  // namespace
}  // namespace strata
