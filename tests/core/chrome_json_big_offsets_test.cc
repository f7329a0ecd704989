// Issue 3: no 4 GB wall besides wasm32's address space. A record that starts past the 4 GB
// mark of its file keeps its exact byte offset (args are re-read from the file by it). The
// file here is two events around 4.1 GB of whitespace, fed from one reused 64 MB buffer: the
// importer holds none of it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "import_test_util.h"

namespace strata {
namespace {

TEST(ChromeJsonBigOffsets, ARecordPastFourGigabytesKeepsItsOffset) {
  TraceStore s;
  auto imp = make_chrome_json_importer(&s);
  auto feed = [&](const void* p, size_t n) { imp->feed(static_cast<const uint8_t*>(p), n); };
  const std::string first = R"([{"ph":"X","name":"first","pid":1,"tid":1,"ts":1,"dur":1},)";
  feed(first.data(), first.size());
  uint64_t offset = first.size();
  const std::vector<char> spaces(64u << 20, ' ');
  while (offset < (4ull << 30) + 12345) {
    feed(spaces.data(), spaces.size());
    offset += spaces.size();
  }
  const std::string second = R"({"ph":"X","name":"second","pid":1,"tid":1,"ts":5,"dur":1}])";
  feed(second.data(), second.size());
  imp->finish();
  ASSERT_FALSE(imp->failed()) << imp->failure();
  ASSERT_EQ(s.events.size(), 2u);
  const int64_t e = testing::find_event(s, "second");
  ASSERT_GE(e, 0);
  EXPECT_GT(s.events.src_offset[e], 1ull << 32);
  EXPECT_EQ(s.events.src_offset[e], offset);
  EXPECT_EQ(s.events.src_len[e], second.size() - 1);  // without the closing ']'
  EXPECT_EQ(s.events.start[e], 5000);
}

}  // namespace
}  // namespace strata
