// The protocol's tables (src/protocol/) compile and hold what the page relies on; that
// web/shared/protocol.js mirrors them is tests/e2e/protocol.test.mjs's check.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "protocol/reply_keys.h"
#include "protocol/view_messages.h"
#include "protocol/worker_messages.h"

namespace strata::protocol {
namespace {

TEST(Protocol, EveryWorkerMessageHasANameAndFields) {
  std::set<std::string> to_worker, to_page;
  for (const WorkerMessage& m : kWorkerMessages) {
    EXPECT_FALSE(m.name.empty());
    EXPECT_FALSE(m.fields.empty()) << m.name;
    auto& names = m.direction == Direction::kToWorker ? to_worker : to_page;
    EXPECT_TRUE(names.insert(std::string(m.name)).second) << m.name;
  }
  // Every load ends in one of these; the page resolves its requests with them.
  for (const char* n : {"loaded", "loadFailed", "reply", "workerError", "ready"})
    EXPECT_EQ(to_page.count(n), 1u) << n;
  for (const char* n : {"open", "view", "details", "graphNode"})
    EXPECT_EQ(to_worker.count(n), 1u) << n;
}

TEST(Protocol, ReplyKeysAreUniquePerReply) {
  std::set<std::string_view> keys(std::begin(kSummaryKeys), std::end(kSummaryKeys));
  EXPECT_EQ(keys.size(), std::size(kSummaryKeys));
  std::set<std::string_view> details(std::begin(kDetailsKeys), std::end(kDetailsKeys));
  EXPECT_EQ(details.size(), std::size(kDetailsKeys));
}

// A writer appends a key as `"key":`, after a comma, an opening brace or nothing.
TEST(Protocol, AppendKeyWritesTheKeyAndItsColon) {
  std::string o;
  append_key(&o, keys::find::kCount, '{');
  o += "3";
  append_key(&o, keys::find::kMatches);
  o += "[]}";
  EXPECT_EQ(o, "{\"count\":3,\"matches\":[]}");
  std::string bare;
  append_key(&bare, keys::event::kStartNs, '\0');
  EXPECT_EQ(bare, "\"startNs\":");
}

}  // namespace
}  // namespace strata::protocol
