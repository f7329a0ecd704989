// Chrome JSON importer on real producer output from the shared sample set (skipped when the
// files are absent). Phase counts are checked against the independent counts in SOURCES.md.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/formats/json/json_flat.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::expect_same_store;
using testing::expect_valid_layout;
using testing::import_json;
using testing::read_shared;

const char* kAscend =
    "ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
const char* kKinetoTest = "pytorch_kineto/kineto-tb_plugin-test/gpu_metrics_input.json";

void expect_phases(const TraceStore& s, const std::map<char, uint64_t>& want) {
  uint64_t total = 0;
  for (auto [ph, n] : want) {
    EXPECT_EQ(s.phase_counts[static_cast<uint8_t>(ph)], n) << "phase " << ph;
    total += n;
  }
  uint64_t seen = 0;
  for (uint64_t n : s.phase_counts) seen += n;
  EXPECT_EQ(seen, total) << "records of phases not listed";
}

// Every event's source span is its own JSON object, which the details pane can re-parse.
void expect_source_spans(const TraceStore& s, const std::string& data) {
  std::vector<JsonLine> lines;
  std::string error;
  for (size_t i = 0; i < s.events.size(); i += 1 + s.events.size() / 500) {
    uint64_t off = s.events.src_offset[i];
    uint32_t len = s.events.src_len[i];
    ASSERT_GT(len, 1u);
    ASSERT_LE(off + len, data.size());
    ASSERT_EQ(data[off], '{');
    ASSERT_EQ(data[off + len - 1], '}');
    ASSERT_TRUE(json_flatten(std::string_view(data).substr(off, len), &lines, &error)) << error;
    bool has_ph = false;
    for (const JsonLine& l : lines) has_ph |= (l.depth == 0 && l.key == "ph");
    EXPECT_TRUE(has_ph);
  }
}

TEST(ChromeJsonRealFiles, AscendTraceView) {
  std::string data;
  if (!read_shared(kAscend, &data)) GTEST_SKIP() << "shared data not available";
  auto r = import_json(data, 1 << 16);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  expect_phases(s, {{'C', 3716}, {'X', 3379}, {'f', 611}, {'s', 606}, {'M', 63}});
  EXPECT_EQ(r.records, 8375u);
  EXPECT_EQ(s.events.size(), 3379u);
  EXPECT_TRUE(s.errors.empty()) << s.errors[0];
  EXPECT_TRUE(s.has_time);
  EXPECT_GT(s.samples.size(), 0u);
  // String timestamps such as "1736405443863674.400" are epoch µs: exact ns.
  EXPECT_GT(s.start_ns, 1700000000000000000);
  expect_valid_layout(s);
  expect_source_spans(s, data);
}

TEST(ChromeJsonRealFiles, AscendSameStoreForAnyChunking) {
  std::string data;
  if (!read_shared(kAscend, &data)) GTEST_SKIP() << "shared data not available";
  auto whole = import_json(data);
  ASSERT_FALSE(whole.failed);
  for (size_t chunk : {1, 3, 4096}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    auto part = import_json(data, chunk);
    ASSERT_FALSE(part.failed);
    expect_same_store(*whole.store, *part.store);
  }
}

TEST(ChromeJsonRealFiles, KinetoGpuMetricsInput) {
  std::string data;
  if (!read_shared(kKinetoTest, &data)) GTEST_SKIP() << "shared data not available";
  auto r = import_json(data, 4096);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  expect_phases(s, {{'X', 254}, {'f', 32}, {'s', 32}, {'M', 20}, {'i', 2}});
  EXPECT_EQ(s.events.size(), 256u);
  EXPECT_TRUE(s.errors.empty()) << s.errors[0];
  // Kineto names its processes and GPU streams through M events.
  bool named = false;
  for (const Process& p : s.processes) named |= s.strings.get(p.name).substr(0, 8) != "Process ";
  EXPECT_TRUE(named);
  expect_valid_layout(s);
  expect_source_spans(s, data);
}

TEST(ChromeJsonRealFiles, XprofTraceViewerDemo) {
  std::string data;
  if (!read_shared("chrome_trace/xprof-tf_trace_viewer/trace.json", &data))
    GTEST_SKIP() << "shared data not available";
  auto r = import_json(data, 3);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  expect_phases(s, {{'B', 8}, {'E', 8}, {'I', 6}, {'C', 5}, {'X', 4}, {'P', 3}, {'M', 3}});
  EXPECT_EQ(s.events.size(), 8u + 6u + 4u + 3u);  // B/E slices, I, X, P samples
  EXPECT_EQ(s.samples.size(), 5u);
  expect_valid_layout(s);
  expect_source_spans(s, data);
}

struct CatapultCase {
  const char* file;
  std::map<char, uint64_t> phases;
};

TEST(ChromeJsonRealFiles, CatapultTestData) {
  const CatapultCase cases[] = {
      {"big_trace.json", {{'B', 933}, {'E', 933}}},
      {"flow.json", {{'B', 1625}, {'E', 1622}, {'f', 886}, {'s', 866}, {'M', 18}}},
      {"main_thread_has_unclosed_slices.json", {{'B', 1684}, {'E', 1680}, {'M', 22}}},
      {"multiple_input_latency.json",
       {{'X', 8011},
        {'i', 2803},
        {'t', 2188},
        {'S', 1180},
        {'F', 1149},
        {'s', 902},
        {'T', 902},
        {'f', 871},
        {'M', 17}}},
      {"nanoseconds.json", {{'B', 8}, {'E', 8}}},
      {"tcmalloc_trace.json", {{'B', 2639}, {'E', 2639}, {'O', 13}, {'M', 5}}},
      {"x_event_trace.json",
       {{'X', 2799},
        {'B', 442},
        {'E', 442},
        {'T', 124},
        {'i', 59},
        {'S', 53},
        {'F', 53},
        {'C', 42},
        {'M', 9},
        {'D', 2},
        {'N', 2}}},
      {"instance_counters.json", {{'C', 8}, {'B', 2}, {'E', 2}}},
      {"async_begin_end.json", {{'S', 11}, {'F', 10}, {'T', 7}, {'B', 3}, {'E', 3}, {'b', 1}}},
      {"simple_trace.json", {{'B', 8}, {'E', 8}, {'I', 6}, {'C', 5}, {'X', 4}, {'P', 3}, {'M', 3}}},
  };
  int found = 0;
  for (const CatapultCase& c : cases) {
    std::string data;
    if (!read_shared(std::string("chrome_trace/catapult/") + c.file, &data)) continue;
    ++found;
    SCOPED_TRACE(c.file);
    auto r = import_json(data, 4096);
    ASSERT_FALSE(r.failed) << r.failure;
    expect_phases(*r.store, c.phases);
    expect_valid_layout(*r.store);
    expect_source_spans(*r.store, data);
  }
  if (found == 0) GTEST_SKIP() << "shared data not available";
}

TEST(ChromeJsonRealFiles, CatapultNanosecondsAndCounters) {
  std::string data;
  if (!read_shared("chrome_trace/catapult/nanoseconds.json", &data))
    GTEST_SKIP() << "shared data not available";
  auto r = import_json(data);
  const TraceStore& s = *r.store;
  EXPECT_EQ(s.display_time_unit, "ns");
  // "ns1": B at 3.000 µs, E at 3.011 µs: 11 ns exactly.
  int64_t ns1 = testing::find_event(s, "ns1");
  ASSERT_GE(ns1, 0);
  EXPECT_EQ(s.events.start[ns1], 3000);
  EXPECT_EQ(s.events.dur[ns1], 11);

  if (!read_shared("chrome_trace/catapult/instance_counters.json", &data)) return;
  auto c = import_json(data);
  // Two ids of one counter name: two tracks "counter 123" and "counter b".
  int counters = 0;
  for (const Track& t : c.store->tracks) counters += t.kind == TrackKind::kCounter;
  EXPECT_EQ(counters, 2);
  EXPECT_EQ(c.store->samples.size(), 8u);
}

TEST(ChromeJsonRealFiles, CatapultUnclosedSlices) {
  std::string data;
  if (!read_shared("chrome_trace/catapult/main_thread_has_unclosed_slices.json", &data))
    GTEST_SKIP() << "shared data not available";
  auto r = import_json(data);
  ASSERT_FALSE(r.failed);
  // 1684 B, 1680 E: every E finds its B; 4 B stay open until the end of the trace.
  EXPECT_EQ(r.store->events.size(), 1684u);
  ASSERT_EQ(r.store->warnings.size(), 1u);
  EXPECT_EQ(r.store->warnings[0],
            "4 B (begin) events were never closed; they end at the end of the trace");
}

}  // namespace
}  // namespace strata
