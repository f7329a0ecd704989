// Replays every input under tests/fuzz/corpus_regressions/ (crashes the libFuzzer target found,
// kept as regression tests) and the hand-written seeds through the importer, split exactly as
// tests/fuzz/chrome_json_fuzz.cc splits them, and whole. Passing = no crash, no sanitizer
// report, a store whose layout keeps its invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/query/flows.h"
#include "import_test_util.h"

namespace strata {
namespace {

std::vector<std::string> inputs() {
  std::vector<std::string> files;
  for (const char* dir : {"corpus_regressions", "seeds"}) {
    std::filesystem::path p = std::filesystem::path(STRATA_FUZZ_DIR) / dir;
    if (!std::filesystem::is_directory(p)) continue;
    for (const auto& e : std::filesystem::directory_iterator(p))
      if (e.is_regular_file()) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void check(const TraceStore& s) {
  testing::expect_valid_layout(s);
  for (size_t i = 0; i < s.flows.size(); ++i) {
    ASSERT_LT(s.flows.from[i], s.events.size());
    ASSERT_LT(s.flows.to[i], s.events.size());
  }
  for (size_t i = 0; i < s.events.size() && i < 64; ++i)
    for (const FlowNeighbour& f : flows_of(s, static_cast<uint32_t>(i)))
      ASSERT_LT(f.event, s.events.size());
  for (uint32_t parent : s.frames.parent) {
    if (parent != kNone) {
      ASSERT_LT(parent, s.frames.size());
    }
  }
}

TEST(FuzzRegressions, EveryInputImportsWithoutCrashing) {
  std::vector<std::string> files = inputs();
  ASSERT_FALSE(files.empty()) << "no inputs under " << STRATA_FUZZ_DIR;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    std::string data;
    ASSERT_TRUE(testing::read_file(path, &data));
    if (data.size() < 2) continue;
    // The fuzz target's split: bytes 0 and 1 pick two cut points in the rest.
    std::string_view body = std::string_view(data).substr(2);
    const size_t n = body.size();
    size_t a = n ? static_cast<uint8_t>(data[0]) % (n + 1) : 0;
    size_t b = n ? static_cast<uint8_t>(data[1]) % (n + 1) : 0;
    if (a > b) std::swap(a, b);
    TraceStore split;
    auto imp = make_chrome_json_importer(&split);
    auto* p = reinterpret_cast<const uint8_t*>(body.data());
    imp->feed(p, a);
    imp->feed(p + a, b - a);
    imp->feed(p + b, n - b);
    imp->finish();
    check(split);
    auto whole = testing::import_json(body);
    check(*whole.store);
    testing::expect_same_store(*whole.store, split);
  }
}

}  // namespace
}  // namespace strata
