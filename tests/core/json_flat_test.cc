// json_flatten: the details pane's view of one event's JSON.
#include "core/formats/json/json_flat.h"

#include <gtest/gtest.h>

#include "core/base/string_table.h"

namespace strata {
namespace {

std::string dump(const std::vector<JsonLine>& lines) {
  std::string s;
  for (const JsonLine& l : lines) {
    s += std::to_string(l.depth) + " " + l.kind + " " + l.key;
    if (!l.value.empty()) s += "=" + l.value;
    s += "\n";
  }
  return s;
}

TEST(JsonFlat, EventWithArgsTree) {
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(R"({"ph":"X","ts":1.5e3,"args":{"shape":[[1,2],[]],"ok":true,)"
                           R"("none":null,"obj":{},"s":"a\"b\u00e9"},"n":-0.25})",
                           &lines, &err))
      << err;
  EXPECT_EQ(dump(lines),
            "0 s ph=X\n"
            "0 n ts=1.5e3\n"
            "0 o args\n"
            "1 a shape\n"
            "2 a [0]\n"
            "3 n [0]=1\n"
            "3 n [1]=2\n"
            "2 a [1]\n"
            "1 b ok=true\n"
            "1 z none=null\n"
            "1 o obj\n"
            "1 s s=a\"b\xC3\xA9\n"
            "0 n n=-0.25\n");
  EXPECT_TRUE(lines[2].value.empty());
}

TEST(JsonFlat, ArrayAndScalarRoots) {
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(" [1, \"x\"] ", &lines, &err)) << err;
  EXPECT_EQ(dump(lines), "0 n [0]=1\n0 s [1]=x\n");
  ASSERT_TRUE(json_flatten("42", &lines, &err)) << err;
  EXPECT_EQ(dump(lines), "0 n =42\n");
  ASSERT_TRUE(json_flatten("{}", &lines, &err));
  EXPECT_TRUE(lines.empty());
}

TEST(JsonFlat, InvalidUtf8AndSurrogatesAreSanitized) {
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(
      "{\"k\xFF\":\"v\xC3\",\"lone\":\"\\ud800x\",\"pair\":\"\\ud83d\\ude00\"}", &lines, &err))
      << err;
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].key, "k\xEF\xBF\xBD");
  EXPECT_EQ(lines[0].value, "v\xEF\xBF\xBD");
  EXPECT_EQ(lines[1].value, "\xEF\xBF\xBDx");
  EXPECT_EQ(lines[2].value, "\xF0\x9F\x98\x80");
  for (const JsonLine& l : lines) EXPECT_TRUE(is_valid_utf8(l.key) && is_valid_utf8(l.value));
}

TEST(JsonFlat, ErrorsNameTheByte) {
  std::vector<JsonLine> lines;
  std::string err;
  EXPECT_FALSE(json_flatten(R"({"a":1 "b":2})", &lines, &err));
  EXPECT_EQ(err, "expected ',' or '}' at byte 7");
  EXPECT_EQ(lines.size(), 1u);  // what came before the problem
  EXPECT_FALSE(json_flatten(R"({"a":[1,2)", &lines, &err));
  EXPECT_EQ(err, "unexpected end of input at byte 9");
  EXPECT_FALSE(json_flatten(R"({"a":"x)", &lines, &err));
  EXPECT_FALSE(json_flatten(R"({"a":tru})", &lines, &err));
  EXPECT_FALSE(json_flatten(R"({"a":1}x)", &lines, &err));
  EXPECT_EQ(err, "unexpected content after the JSON value at byte 7");
  EXPECT_FALSE(json_flatten("", &lines, &err));
  EXPECT_FALSE(json_flatten(R"({"a":"\q"})", &lines, &err));
  EXPECT_FALSE(json_flatten(R"({"a":-})", &lines, &err));
  EXPECT_FALSE(json_flatten(R"({1:2})", &lines, &err));
}

TEST(JsonFlat, DepthLimit) {
  std::vector<JsonLine> lines;
  std::string err;
  // 256 open containers including the root are fine...
  std::string ok(256, '[');
  ok += std::string(256, ']');
  ASSERT_TRUE(json_flatten(ok, &lines, &err)) << err;
  EXPECT_EQ(lines.size(), 255u);
  EXPECT_EQ(lines.back().depth, 254);
  // ...one more is an error, and a million is still just an error (no recursion).
  std::string deep(257, '[');
  deep += std::string(257, ']');
  EXPECT_FALSE(json_flatten(deep, &lines, &err));
  EXPECT_NE(err.find("nesting deeper than 256"), std::string::npos);
  std::string huge = "{\"a\":";
  for (int i = 0; i < 1000000; ++i) huge += "{\"a\":";
  EXPECT_FALSE(json_flatten(huge, &lines, &err));
  EXPECT_NE(err.find("nesting deeper than 256"), std::string::npos);
}

}  // namespace
}  // namespace strata
