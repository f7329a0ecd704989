// Replays the inputs the libFuzzer targets crashed on, kept as regression tests, in the normal
// test build (ASan). tests/fuzz/corpus_regressions/<target>/ holds those of one target: each is
// run through that target's own body (tests/fuzz/<target>_fuzz.cc, compiled in by
// tests/fuzz/replay.cmake). The Chrome JSON ones (and its hand-written seeds) are also imported
// here split exactly as chrome_json_fuzz.cc splits them, and whole, and the two stores compared.
// Passing = no crash, no trap, no sanitizer report, a store whose layout keeps its invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "../fuzz/fuzz_target.h"
#include "core/query/flows.h"
#include "import_test_util.h"

namespace strata {
namespace {

std::vector<std::string> inputs() {
  std::vector<std::string> files;
  for (const char* dir : {"corpus_regressions", "corpus_regressions/chrome_json", "seeds"}) {
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

// The targets replay.cmake compiles in (a missing line there would skip a target's inputs).
TEST(FuzzRegressions, EveryTargetIsCompiledIn) {
  for (const char* name :
       {"chrome_json", "xplane", "hlo_text", "hlo_proto", "ascend_csv", "training_log",
        "compressed", "runs", "perfetto", "sqlite", "loss_jsonl", "loss_csv", "tfevents"})
    EXPECT_NE(fuzz::find_target(name), nullptr) << name;
}

// corpus_regressions/<target>/ and the committed seeds/<target>/ (tests/fuzz/make_seeds.sh's
// output, so every target runs here even before it has found anything).
TEST(FuzzRegressions, EveryTargetReplaysItsInputs) {
  std::vector<std::filesystem::path> dirs;
  for (const char* sub : {"corpus_regressions", "seeds"}) {
    std::filesystem::path root = std::filesystem::path(STRATA_FUZZ_DIR) / sub;
    if (!std::filesystem::is_directory(root)) continue;
    for (const auto& e : std::filesystem::directory_iterator(root))
      if (e.is_directory()) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  ASSERT_FALSE(dirs.empty()) << "no per-target inputs under " << STRATA_FUZZ_DIR;
  for (const std::filesystem::path& dir : dirs) {
    const std::string target = dir.filename().string();
    fuzz::FuzzBody body = fuzz::find_target(target);
    ASSERT_NE(body, nullptr) << dir.string()
                             << " names no target compiled in by tests/fuzz/replay.cmake";
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& path : files) {
      SCOPED_TRACE(path);
      std::string data;
      ASSERT_TRUE(testing::read_file(path, &data));
      // Replayed from a heap copy of its exact size, as libFuzzer hands it, so ASan sees a
      // read one past the end.
      std::vector<uint8_t> bytes(data.begin(), data.end());
      body(bytes.data(), bytes.size());
    }
  }
}

}  // namespace
}  // namespace strata
