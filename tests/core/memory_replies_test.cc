// The memory chart's replies, read back by the UI: the engine writes each key and the UI's
// parser (ui/memory/memory_replies.cc) reads it through the same protocol constants, so every
// field the chart and its tables show arrives. Expected numbers are written out from the input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "ui/memory/memory_view.h"

namespace strata {
namespace {

void load(Engine* e, const std::string& bytes) {
  ASSERT_TRUE(testing::load_trace(e, "m.json", bytes)) << e->last_error();
  ASSERT_GT(testing::scan_memory(e, bytes), 0u);
}

std::string memory_event(int ts, long long total, long long bytes, const char* addr) {
  return "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":" +
         std::to_string(ts) + ",\"args\":{\"Total Allocated\":" + std::to_string(total) +
         ",\"Total Reserved\":1000000,\"Bytes\":" + std::to_string(bytes) +
         ",\"Device Type\":1,\"Device Id\":0,\"Addr\":" + addr + "}}";
}

// 300 bytes at 10 µs, 200 more at 20 µs (the peak, 500), the 300 freed at 30 µs.
class MemoryReplies : public ::testing::Test {
 protected:
  void SetUp() override {
    load(&engine_, "{\"traceEvents\":[" + memory_event(10, 300, 300, "1") + "," +
                       memory_event(20, 500, 200, "2") + "," + memory_event(30, 200, -300, "1") +
                       "]}");
    view_.summary_query = 1;
    view_.range_query = 2;
    view_.live_query = 3;
    view_.allocs_query = 4;
  }
  void answer(uint32_t id, const char* kind, const std::string& args) {
    const std::string json = engine_.memory_query_json(kind, args);
    ASSERT_TRUE(memory_view_result(&view_, id, json.c_str())) << json;
  }
  Engine engine_;
  MemoryView view_;
};

TEST_F(MemoryReplies, TheSummaryNamesTheDeviceItsPeakAndSeries) {
  answer(1, "memory", "{}");
  ASSERT_TRUE(view_.summary_ready);
  ASSERT_EQ(view_.devices.size(), 1u);
  const MemoryView::Device& d = view_.devices[0];
  EXPECT_EQ(d.name, "GPU 0");
  EXPECT_DOUBLE_EQ(d.peak, 500);
  EXPECT_DOUBLE_EQ(d.peak_t, 10000);  // ns from the trace's start at 10 µs
  EXPECT_FALSE(d.peak_reserved);
  EXPECT_FALSE(d.no_addr);
  EXPECT_DOUBLE_EQ(d.start, 0);
  EXPECT_DOUBLE_EQ(d.end, 20000);
  EXPECT_EQ(d.samples, 3 * static_cast<int>(d.series.size()));
  EXPECT_EQ(d.allocations, 2);
  EXPECT_EQ(d.unreleased, 1);
  ASSERT_FALSE(d.series.empty());
  EXPECT_EQ(d.series[0].samples, 3);
  EXPECT_DOUBLE_EQ(d.series[0].peak_alloc, 500);
  EXPECT_DOUBLE_EQ(d.series[0].peak_alloc_t, 10000);
  EXPECT_FALSE(view_.sources.empty());
}

TEST_F(MemoryReplies, TheRangeHasItsSpanAndBuckets) {
  answer(2, "memory_range", "{\"device\":\"GPU 0\",\"t0\":0,\"t1\":20000,\"px\":4}");
  EXPECT_DOUBLE_EQ(view_.reply_t0, 0);
  EXPECT_DOUBLE_EQ(view_.reply_t1, 20000);
  ASSERT_EQ(view_.lines.size(), 1u);
  const MemoryView::Line& l = view_.lines[0];
  EXPECT_EQ(l.amin.size(), 4u);
  EXPECT_EQ(l.amax.size(), 4u);
  EXPECT_EQ(l.rmin.size(), 4u);
  EXPECT_EQ(l.rmax.size(), 4u);
  float highest = 0;
  for (float v : l.amax)
    if (!std::isnan(v)) highest = std::max(highest, v);
  EXPECT_FLOAT_EQ(highest, 500);
}

TEST_F(MemoryReplies, WhatIsLiveAtThePeakAndEveryAllocation) {
  answer(3, "memory_live", "{\"device\":\"GPU 0\",\"t\":10000}");
  EXPECT_DOUBLE_EQ(view_.live_bytes, 500);
  EXPECT_EQ(view_.live_count, 2);
  ASSERT_EQ(view_.live_top.size(), 2u);
  EXPECT_DOUBLE_EQ(view_.live_top[0].bytes, 300);  // largest first
  EXPECT_DOUBLE_EQ(view_.live_top[0].alloc_t, 0);
  EXPECT_DOUBLE_EQ(view_.live_top[0].release_t, 20000);
  ASSERT_FALSE(view_.live_groups.empty());
  double shares = 0;
  int buffers = 0;
  for (const MemoryView::Group& g : view_.live_groups) {
    EXPECT_FALSE(g.key.empty());
    EXPECT_FALSE(g.before_trace);
    shares += g.share, buffers += g.count;
  }
  EXPECT_NEAR(shares, 1, 1e-9);
  EXPECT_EQ(buffers, 2);

  answer(4, "memory_allocs", "{\"device\":\"GPU 0\"}");
  ASSERT_EQ(view_.allocs.size(), 2u);
  EXPECT_DOUBLE_EQ(view_.allocs[0].bytes + view_.allocs[1].bytes, 500);
  EXPECT_EQ(std::isnan(view_.allocs[0].release_t) + std::isnan(view_.allocs[1].release_t), 1);
}

}  // namespace
}  // namespace strata
