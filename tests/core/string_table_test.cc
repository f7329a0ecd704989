// StringTable: interning, ids, stability of views, UTF-8 validation and repair.
#include "core/base/string_table.h"

#include <gtest/gtest.h>

#include <string>

namespace strata {
namespace {

TEST(StringTable, EmptyStringIsIdZero) {
  StringTable t;
  EXPECT_EQ(t.intern(""), 0u);
  EXPECT_EQ(t.get(0), "");
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.find(""), 0u);
}

TEST(StringTable, InternDeduplicatesAndFinds) {
  StringTable t;
  StrId a = t.intern("aten::mm");
  StrId b = t.intern("kernel");
  EXPECT_NE(a, b);
  EXPECT_EQ(t.intern(std::string("aten::") + "mm"), a);
  EXPECT_EQ(t.get(a), "aten::mm");
  EXPECT_EQ(t.find("kernel"), b);
  EXPECT_EQ(t.find("missing"), kNone);
  EXPECT_EQ(t.size(), 3u);
}

TEST(StringTable, ViewsStayValidAsTheTableGrows) {
  StringTable t;
  StrId first = t.intern("first");
  std::string_view v = t.get(first);
  std::string big(100000, 'b');  // larger than a block: gets its own
  StrId bigid = t.intern(big);
  for (int i = 0; i < 200000; ++i) t.intern("name_" + std::to_string(i));
  EXPECT_EQ(v.data(), t.get(first).data());
  EXPECT_EQ(t.get(first), "first");
  EXPECT_EQ(t.get(bigid), big);
  EXPECT_EQ(t.get(t.find("name_12345")), "name_12345");
  EXPECT_EQ(t.size(), 200003u);
  EXPECT_GT(t.memory_bytes(), 200000u * 10);
  StringTable moved = std::move(t);
  EXPECT_EQ(moved.get(first), "first");
  EXPECT_EQ(moved.find("name_7"), moved.intern("name_7"));
}

TEST(StringTable, InvalidUtf8IsReplaced) {
  StringTable t;
  bool bad = false;
  StrId ok = t.intern("caf\xC3\xA9 \xF0\x9F\x98\x80", &bad);
  EXPECT_FALSE(bad);
  EXPECT_EQ(t.get(ok), "caf\xC3\xA9 \xF0\x9F\x98\x80");
  StrId id = t.intern(
      "a\xFF"
      "b",
      &bad);
  EXPECT_TRUE(bad);
  EXPECT_EQ(t.get(id),
            "a\xEF\xBF\xBD"
            "b");
  // The repaired text interns to the same id as the clean spelling.
  EXPECT_EQ(t.intern("a\xEF\xBF\xBD"
                     "b"),
            id);
}

TEST(StringTable, Utf8Validation) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain ascii that is longer than eight bytes"));
  EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));   // U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));      // overlong
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // surrogate
  EXPECT_FALSE(is_valid_utf8("abc\xE2\x82"));       // truncated
  EXPECT_FALSE(is_valid_utf8("\x80"));              // lone continuation
  EXPECT_EQ(utf8_valid_prefix("abc\xE2\x82"), 3u);
  EXPECT_EQ(utf8_valid_prefix("\xC3\xA9\xFF"), 2u);
  EXPECT_EQ(utf8_valid_prefix("ok"), 2u);
}

TEST(StringTable, SanitizeReplacesMaximalSubparts) {
  // One U+FFFD per maximal invalid subpart, as browsers' TextDecoder does.
  EXPECT_EQ(sanitize_utf8("a\xE2\x82"
                          "b"),
            "a\xEF\xBF\xBD"
            "b");  // truncated 3-byte seq
  EXPECT_EQ(sanitize_utf8("\xF0\x9F\x98"), "\xEF\xBF\xBD");
  EXPECT_EQ(sanitize_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(sanitize_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(sanitize_utf8("ok"), "ok");
  EXPECT_TRUE(is_valid_utf8(sanitize_utf8(std::string("\xFF\xFE\x00\x80zz", 6))));
}

}  // namespace
}  // namespace strata
