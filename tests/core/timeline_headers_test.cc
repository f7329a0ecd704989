// The timeline's name column and deep-zoom times: process headers with Kineto's labels and the
// pid (carried by the track list), duplicates told apart, text cut with an ellipsis, counter
// series in bytes, offsets from a base, and exact absolute times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "ui/timeline/headers.h"
#include "ui/timeline/time_labels.h"
#include "ui/trace_data.h"

namespace strata {
namespace {

using testing::load_trace;

// Two processes named alike, told apart by Kineto's labels and pids, as PyTorch writes them.
const char* kKineto = R"json({"traceEvents":[
 {"ph":"M","name":"process_name","pid":19392,"tid":0,"args":{"name":"python3"}},
 {"ph":"M","name":"process_labels","pid":19392,"tid":0,"args":{"labels":"CPU"}},
 {"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":"python3"}},
 {"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}},
 {"ph":"M","name":"process_sort_index","pid":0,"tid":0,"args":{"sort_index":5000000}},
 {"ph":"X","name":"aten::mm","pid":19392,"tid":7,"ts":1695835542513910.123,"dur":5},
 {"ph":"X","name":"gemm","pid":0,"tid":7,"ts":1695835542513912.5,"dur":1.25},
 {"ph":"C","name":"[memory]","pid":19392,"ts":1695835542513911,"args":{"Allocated (MB)":1120}}
]})json";

TEST(TimelineHeaders, ProcessHeadersCarryLabelsAndPid) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kKineto));
  TraceData d;
  std::vector<uint8_t> tl = e.track_list();
  ASSERT_TRUE(d.apply(tl.data(), tl.size()));
  std::vector<std::string> texts = process_header_texts(d);
  std::vector<std::string> want = {"python3 (pid 19392): CPU", "python3 (pid 0): GPU 0"};
  for (const std::string& w : want)
    EXPECT_NE(std::find(texts.begin(), texts.end(), w), texts.end()) << w;
  // The counter named in MB is in bytes, and its track list entry says so.
  bool bytes = false;
  for (const UiSeries& s : d.series)
    if (s.name == "Allocated (MB)") bytes = s.in_bytes && s.max == 1120.0 * 1024 * 1024;
  EXPECT_TRUE(bytes);
  // The origin is exact to the ns (epoch ns do not fit a double).
  EXPECT_EQ(d.origin_ns, 1695835542513910123LL);
}

TEST(TimelineHeaders, SameTextGetsANumberAndThreadsTheirTid) {
  TraceData d;
  d.processes = {
      {5, "worker", 0, 2, "", "5"}, {5, "worker", 2, 1, "", "5"}, {0, "Global", 3, 0, "", ""}};
  d.tracks = {{11, 0, 0, "loader", 1, 1, 0, 0},
              {12, 0, 0, "loader", 1, 1, 0, 0},
              {13, 1, 0, "", 1, 1, 0, 0}};
  std::vector<std::string> p = process_header_texts(d);
  EXPECT_EQ(p[0], "worker (pid 5)");
  EXPECT_EQ(p[1], "worker (pid 5) #2");
  EXPECT_EQ(p[2], "Global");
  std::vector<std::string> t = track_label_texts(d);
  EXPECT_EQ(t[0], "loader (tid 11)");
  EXPECT_EQ(t[1], "loader (tid 12)");
  EXPECT_EQ(t[2], "thread 13");
  UiProcess unnamed{0, "", 0, 0, "", "Spans"};
  EXPECT_EQ(process_header_text(unnamed), "Process Spans");
}

TEST(TimelineHeaders, ElidesToWidthWithAnEllipsis) {
  auto w = [](std::string_view s) { return 7.0f * static_cast<float>(s.size()); };
  bool cut = true;
  EXPECT_EQ(elide_to_width("short", 100, w, &cut), "short");
  EXPECT_FALSE(cut);
  std::string s = elide_to_width("python3 (pid 19392): GPU 0", 70, w, &cut);
  EXPECT_TRUE(cut);
  EXPECT_EQ(s, "python3...");
  EXPECT_LE(w(s), 70);
  EXPECT_EQ(elide_to_width("abcdef", 21, w, &cut), "...");
  EXPECT_EQ(elide_to_width("abcdef", 10, w, &cut), "");
  // Never inside a UTF-8 character.
  s = elide_to_width("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 35, w, &cut);
  EXPECT_EQ(s, "\xc3\xa9...");
}

TEST(TimeLabels, OffsetsFromABase) {
  EXPECT_EQ(format_time_offset(12345, 1), "+12.345 us");
  EXPECT_EQ(format_time_offset(-3, 1), "-3 ns");
  EXPECT_EQ(format_time_offset(-0.0001, 1), "+0 ns");
  EXPECT_EQ(format_time_base(1234567891, 1), "1.234567891 s");
  EXPECT_TRUE(wants_time_base(1.2e9, 10));    // 10 ns ticks a second in: offsets
  EXPECT_FALSE(wants_time_base(1.2e9, 1e6));  // 1 ms ticks: plain times read fine
  TimeView v{0, 1000.5, 1020.5};
  bool mark = true;
  EXPECT_EQ(ruler_base(v, {}, 5, &mark), 1000);
  EXPECT_FALSE(mark);
  EXPECT_EQ(ruler_base(v, {{1003.25, 1004}, {5000, 5001}}, 5, &mark), 1003.25);
  EXPECT_TRUE(mark);
}

TEST(TimeLabels, AbsoluteNsParseExactly) {
  const TimeNs origin = 1695835542513910123LL;
  double rel = -1;
  ASSERT_TRUE(parse_absolute_ns("1695835542513910126", origin, &rel));
  EXPECT_EQ(rel, 3);
  ASSERT_TRUE(parse_absolute_ns("1695835542513910124.5", origin, &rel));
  EXPECT_EQ(rel, 1.5);
  ASSERT_TRUE(parse_absolute_ns("1695835542513910000", origin, &rel));
  EXPECT_EQ(rel, -123);
  EXPECT_FALSE(parse_absolute_ns("12abc", origin, &rel));
  EXPECT_FALSE(parse_absolute_ns("", origin, &rel));
  EXPECT_EQ(origin_ns_text(origin), "1695835542513910123");
}

}  // namespace
}  // namespace strata
