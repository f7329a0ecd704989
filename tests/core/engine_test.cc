// The engine as the worker drives it: chunked load, summary JSON, a bad file that leaves the
// previous trace in place, and the binary protocol read back by the UI's own parser.
#include "engine/engine.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine_test_util.h"
#include "import_test_util.h"
#include "ui/trace_data.h"

namespace strata {
namespace {

const char* kTrace = R"({"traceEvents":[
 {"ph":"M","name":"process_name","pid":1,"args":{"name":"trainer"}},
 {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"main"}},
 {"ph":"X","name":"step","pid":1,"tid":2,"ts":100,"dur":50,"args":{"n":1}},
 {"ph":"X","name":"forward","pid":1,"tid":2,"ts":110,"dur":20},
 {"ph":"B","name":"load","pid":1,"tid":3,"ts":100},
 {"ph":"E","pid":1,"tid":3,"ts":140},
 {"ph":"i","name":"mark","pid":1,"tid":2,"ts":120,"s":"t"},
 {"ph":"C","name":"mem","pid":1,"ts":100,"args":{"used":5,"free":7}},
 {"ph":"C","name":"mem","pid":1,"ts":130,"args":{"used":6,"free":6}}
]})";

using testing::load_trace;

TEST(Engine, LoadsInChunksAndSummarises) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace, 7));
  std::string s = e.summary_json();
  EXPECT_NE(s.find("\"events\":4"), std::string::npos) << s;    // 2 X + 1 B/E + 1 i
  EXPECT_NE(s.find("\"counters\":4"), std::string::npos) << s;  // 2 C × 2 args
  EXPECT_NE(s.find("\"X\":2"), std::string::npos) << s;
  EXPECT_NE(s.find("\"M\":2"), std::string::npos) << s;
  EXPECT_NE(s.find("\"startNs\":100000"), std::string::npos) << s;
  EXPECT_NE(s.find("\"endNs\":150000"), std::string::npos) << s;
  EXPECT_NE(s.find("\"errors\":[]"), std::string::npos) << s;
  EXPECT_EQ(e.generation(), 1u);
}

TEST(Engine, BadFileKeepsThePreviousTrace) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "good.json", kTrace, 4096));
  EXPECT_FALSE(load_trace(&e, "bad.bin", std::string("\x89PNG\r\n\x1a\n", 8), 4096));
  EXPECT_NE(e.last_error().find("bad.bin"), std::string::npos);
  EXPECT_FALSE(load_trace(&e, "empty.json", "", 4096));
  std::string s = e.summary_json();
  EXPECT_NE(s.find("good.json"), std::string::npos);
  EXPECT_NE(s.find("\"events\":4"), std::string::npos);
  EXPECT_NE(s.find("bad.bin"), std::string::npos) << "failed opens are listed in errors";
  EXPECT_NE(s.find("empty"), std::string::npos);
  EXPECT_EQ(e.generation(), 1u);
}

TEST(Engine, ProtocolRoundTripThroughTheUiParser) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace, 4096));
  TraceData d;
  std::vector<uint8_t> tl = e.track_list();
  ASSERT_TRUE(d.apply(tl.data(), tl.size()));
  ASSERT_EQ(d.processes.size(), 1u);
  EXPECT_EQ(d.processes[0].name, "trainer");
  // Counter track first, then threads 2 ("main") and 3.
  ASSERT_EQ(d.tracks.size(), 3u);
  EXPECT_EQ(d.tracks[0].kind, 1u);
  EXPECT_EQ(d.tracks[1].name, "main");
  EXPECT_EQ(d.tracks[1].rows, 3u);  // step > forward > instant "mark"
  EXPECT_EQ(d.series.size(), 2u);
  EXPECT_EQ(d.origin_ns, 100000);

  struct {
    proto::Header h;
    proto::ViewRequestBody b;
  } rq{{proto::MsgType::kViewRequest, sizeof rq, d.generation, 42}, {0, 50000, 1000, 0}};
  std::vector<uint8_t> reply = e.view(reinterpret_cast<const uint8_t*>(&rq), sizeof rq);
  ASSERT_TRUE(d.apply(reply.data(), reply.size()));
  EXPECT_EQ(d.reply.request_id, 42u);
  ASSERT_EQ(d.reply.slices.size(), 4u);
  bool saw_step = false;
  for (const auto& s : d.reply.slices) {
    EXPECT_NE(s.event, kNone);
    if (d.name(s.name) == "step") {
      saw_step = true;
      EXPECT_DOUBLE_EQ(s.start, 0);
      EXPECT_DOUBLE_EQ(s.end, 50000);
      EXPECT_EQ(s.depth, 0u);
    }
  }
  EXPECT_TRUE(saw_step);
  EXPECT_EQ(d.reply.buckets.size(), 4u);
  // Names are sent once: a second reply brings no new strings but still resolves them.
  rq.h.request_id = 43;
  reply = e.view(reinterpret_cast<const uint8_t*>(&rq), sizeof rq);
  ASSERT_TRUE(d.apply(reply.data(), reply.size()));
  for (const auto& s : d.reply.slices) EXPECT_FALSE(d.name(s.name).empty());
  // A truncated message is rejected, not trusted.
  EXPECT_FALSE(d.apply(reply.data(), reply.size() / 2));
}

TEST(Engine, FindLocateAndDetails) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace, 4096));
  std::string f = e.find_json("FOR", 100);
  EXPECT_NE(f.find("\"count\":1"), std::string::npos) << f;
  EXPECT_NE(f.find("\"name\":\"forward\",\"tsNs\":110000,\"durNs\":20000,\"pid\":1,\"tid\":2"),
            std::string::npos)
      << f;
  int64_t ev = e.locate("step", 100000, "1", "2");
  ASSERT_GE(ev, 0);
  uint64_t off = 0;
  uint32_t len = 0;
  ASSERT_TRUE(e.event_source(static_cast<uint32_t>(ev), &off, &len));
  std::string record = std::string(kTrace).substr(off, len);
  EXPECT_EQ(record.front(), '{');
  EXPECT_NE(record.find("\"step\""), std::string::npos);
  std::string d = e.details_json(static_cast<uint32_t>(ev), record);
  EXPECT_NE(d.find("\"name\":\"step\""), std::string::npos);
  EXPECT_NE(d.find("\"args\":{\"n\":1}"), std::string::npos) << d;
  EXPECT_EQ(e.locate("step", 999, "1", "2"), -1);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// The worker's stack is 256 KB (cmake/wasm.cmake) and std::regex parses recursively: a long
// pattern is refused with a message; a pattern within the limit, nested as deep as it allows,
// still works.
TEST(Engine, RegexSearchIsBoundedInLength) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace, 4096));
  std::string nested = std::string(498, '(') + "for" + std::string(498, ')');  // 999 characters
  std::string ok = e.query_json("find", "{\"text\":\"" + nested + "\",\"regex\":true}");
  EXPECT_NE(ok.find("\"count\":1"), std::string::npos) << ok.substr(0, 200);
  std::string too_long = std::string(1001, 'a');
  std::string err = e.query_json("find", "{\"text\":\"" + too_long + "\",\"regex\":true}");
  EXPECT_NE(err.find("the regular expression is too long (at most 1000 characters)"),
            std::string::npos)
      << err.substr(0, 200);
}

// The page's notes for a load (a profiler folder's db read, its text export set aside) are the
// loaded trace's summary().notes; a load that fails drops them with its trace (the trace kept
// keeps its own), and the next load without notes has none.
TEST(Engine, NotesOfALoadAreItsTracesSummaryNotes) {
  Engine e;
  const std::string note =
      "read ascend_pytorch_profiler_0.db; the CSV export beside it was not read";
  e.set_next_load_notes(note + "\nsecond line");
  ASSERT_TRUE(load_trace(&e, "t.json", kTrace, 4096));
  EXPECT_NE(e.summary_json().find("\"notes\":[\"" + note + "\",\"second line\"]"),
            std::string::npos)
      << e.summary_json();
  e.set_next_load_notes("a note of a failed load");
  EXPECT_FALSE(load_trace(&e, "bad.bin", std::string("\x89PNG\r\n\x1a\n", 8), 4096));
  EXPECT_NE(e.summary_json().find("\"notes\":[\"" + note + "\","), std::string::npos);
  EXPECT_EQ(e.summary_json().find("a note of a failed load"), std::string::npos);
  ASSERT_TRUE(load_trace(&e, "t2.json", kTrace, 4096));
  EXPECT_NE(e.summary_json().find("\"notes\":[]"), std::string::npos) << e.summary_json();
}

TEST(Engine, SuccessfulOpenClearsEarlierFailures) {
  Engine e;
  EXPECT_FALSE(load_trace(&e, "bad.bin", "\x89PNG....", 4096));
  ASSERT_TRUE(load_trace(&e, "good.json", kTrace, 4096));
  EXPECT_NE(e.summary_json().find("\"errors\":[]"), std::string::npos) << e.summary_json();
}

TEST(Engine, ArgsOfACompressedTraceAreReadByDecompressingAgain) {
  std::string gz;
  if (!testing::compress_with("gzip -c", kTrace, &gz)) GTEST_SKIP() << "gzip not installed";
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json.gz", gz, 16));
  EXPECT_NE(e.summary_json().find("\"compression\":\"gzip\""), std::string::npos);
  ASSERT_TRUE(e.source_compressed());
  int64_t ev = e.locate("step", 100000, "1", "2");
  ASSERT_GE(ev, 0);
  EXPECT_TRUE(e.cached_record(static_cast<uint32_t>(ev)).empty());
  e.extract_begin(static_cast<uint32_t>(ev));
  bool done = false;
  for (size_t off = 0; off < gz.size() && !done; off += 7)
    done = e.extract_feed(reinterpret_cast<const uint8_t*>(gz.data()) + off,
                          std::min<size_t>(7, gz.size() - off));
  EXPECT_TRUE(done);
  std::string_view rec = e.cached_record(static_cast<uint32_t>(ev));
  ASSERT_FALSE(rec.empty());
  EXPECT_NE(e.details_json(static_cast<uint32_t>(ev), rec).find("\"args\":{\"n\":1}"),
            std::string::npos);
  // Its neighbour is in the same window: no second pass needed.
  int64_t fwd = e.locate("forward", 110000, "1", "2");
  EXPECT_FALSE(e.cached_record(static_cast<uint32_t>(fwd)).empty());
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A trace of `n` back-to-back X events on one thread.
std::string many_events(int n) {
  std::string t = "{\"traceEvents\":[";
  for (int i = 0; i < n; ++i) {
    if (i) t += ",\n";
    t += "{\"ph\":\"X\",\"name\":\"e" + std::to_string(i % 7) +
         "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i * 10) + ",\"dur\":5}";
  }
  return t + "]}";
}

TEST(Engine, BigFilesShowTheirFirstPartWhileLoading) {
  const std::string big = many_events(2000);
  Engine e;
  ASSERT_TRUE(load_trace(&e, "first.json", kTrace, 4096));
  e.set_preview(/*min_file=*/10000, /*bytes=*/big.size() / 4);
  e.load_begin("big.json", big.size());
  uint32_t gen = e.generation();
  size_t off = 0;
  for (; off < big.size() / 2; off += 1000) {
    size_t n = std::min<size_t>(1000, big.size() - off);
    std::memcpy(e.load_buffer(n), big.data() + off, n);
    e.load_commit(n);
  }
  // Past a quarter of the file: the preview is the current trace.
  EXPECT_EQ(e.generation(), gen + 1);
  EXPECT_TRUE(e.showing_preview());
  size_t preview_events = e.store()->events.size();
  EXPECT_GT(preview_events, 100u);
  EXPECT_LT(preview_events, 2000u / 3);
  EXPECT_TRUE(e.store()->errors.empty()) << "the preview's cut is not an error of the file";
  for (; off < big.size(); off += 1000) {
    size_t n = std::min<size_t>(1000, big.size() - off);
    std::memcpy(e.load_buffer(n), big.data() + off, n);
    e.load_commit(n);
  }
  ASSERT_TRUE(e.load_end());
  EXPECT_EQ(e.generation(), gen + 2);
  EXPECT_FALSE(e.showing_preview());
  EXPECT_EQ(e.store()->events.size(), 2000u);
}

TEST(Engine, AFailedLoadAfterItsPreviewBringsThePreviousTraceBack) {
  std::string big = many_events(2000);
  Engine e;
  ASSERT_TRUE(load_trace(&e, "first.json", kTrace, 4096));
  e.set_preview(10000, big.size() / 4);
  e.load_begin("big.json", big.size());
  const uint32_t gen = e.generation();
  std::memcpy(e.load_buffer(big.size() / 2), big.data(), big.size() / 2);
  e.load_commit(big.size() / 2);
  ASSERT_TRUE(e.showing_preview());
  e.load_fail("reading the file failed");
  EXPECT_FALSE(e.showing_preview());
  EXPECT_EQ(e.generation(), gen + 2);
  EXPECT_NE(e.summary_json().find("first.json"), std::string::npos);
  EXPECT_EQ(e.store()->events.size(), 4u);
}

}  // namespace
}  // namespace strata
