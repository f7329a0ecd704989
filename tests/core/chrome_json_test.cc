// Chrome JSON importer: containers, fields, time conversion and every imported phase.
#include <gtest/gtest.h>

#include <string>

#include "import_test_util.h"

namespace strata {
namespace {

using testing::expect_valid_layout;
using testing::find_event;
using testing::import_json;
using testing::name_of;

// ---- containers ----------------------------------------------------------------------------

TEST(ChromeJson, ArrayFormCompleteEvents) {
  std::string doc =
      R"([{"ph":"X","name":"outer","cat":"c1","pid":1,"tid":2,"ts":10,"dur":100},
{"ph":"X","name":"inner","cat":"c2","pid":1,"tid":2,"ts":20,"dur":30}])";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_TRUE(s.errors.empty());
  EXPECT_TRUE(s.warnings.empty());
  int64_t o = find_event(s, "outer"), i = find_event(s, "inner");
  ASSERT_GE(o, 0);
  ASSERT_GE(i, 0);
  EXPECT_EQ(s.events.start[o], 10000);
  EXPECT_EQ(s.events.dur[o], 100000);
  EXPECT_EQ(s.events.depth[o], 0u);
  EXPECT_EQ(s.events.depth[i], 1u);
  EXPECT_EQ(s.events.phase[o], 'X');
  EXPECT_EQ(name_of(s, s.events.cat[i]), "c2");
  // The source span is exactly the event's object.
  EXPECT_EQ(s.events.src_offset[o], 1u);
  EXPECT_EQ(doc.substr(s.events.src_offset[o], s.events.src_len[o]),
            R"({"ph":"X","name":"outer","cat":"c1","pid":1,"tid":2,"ts":10,"dur":100})");
  EXPECT_EQ(doc.substr(s.events.src_offset[i], s.events.src_len[i]),
            R"({"ph":"X","name":"inner","cat":"c2","pid":1,"tid":2,"ts":20,"dur":30})");
  EXPECT_TRUE(s.has_time);
  EXPECT_EQ(s.start_ns, 10000);
  EXPECT_EQ(s.end_ns, 110000);
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(name_of(s, s.processes[0].name), "Process 1");
  EXPECT_EQ(s.processes[0].pid, 1);
  ASSERT_EQ(s.tracks.size(), 1u);
  EXPECT_EQ(name_of(s, s.tracks[0].name), "Thread 2");
  EXPECT_EQ(s.tracks[0].tid, 2);
  EXPECT_EQ(s.phase_counts['X'], 2u);
  EXPECT_EQ(r.records, 2u);
  ASSERT_EQ(s.files.size(), 1u);
  EXPECT_EQ(s.files[0].bytes, doc.size());
  EXPECT_EQ(s.files[0].format, "chrome-json");
  expect_valid_layout(s);
}

TEST(ChromeJson, ArrayFormWithoutClosingBracketIsLegal) {
  auto r = import_json(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2},
  {"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":2},
)");
  ASSERT_FALSE(r.failed) << r.failure;
  EXPECT_EQ(r.store->events.size(), 2u);
  EXPECT_TRUE(r.store->errors.empty());
  EXPECT_TRUE(r.store->warnings.empty());
}

TEST(ChromeJson, ObjectFormSkipsOtherMembers) {
  // Members before and after traceEvents, of every JSON type, with tricky strings.
  auto r = import_json(R"({
  "schemaVersion": 1, "flag": true, "nothing": null, "neg": -1.5e-3,
  "otherData": {"version": "x \"}]{[ y", "nested": [[{"a": [1, 2, {"b": "}"}]}]]},
  "stackFrames": {"1": {"name": "f", "parent": "0"}},
  "systemTraceEvents": "# tracer: nop\n  <idle>-0 [000] ...\n",
  "traceEvents": [
    {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}
  ],
  "displayTimeUnit": "ns",
  "samples": [{"cpu": 0, "tid": 1, "ts": 3, "sf": 1}],
  "powerTraceAsString": ""
})");
  ASSERT_FALSE(r.failed) << r.failure;
  // The "samples" entry is drawn as a sample named after its frame (stackFrames "1").
  ASSERT_EQ(r.store->events.size(), 2u);
  int64_t f = find_event(*r.store, "f");
  ASSERT_GE(f, 0);
  EXPECT_EQ(r.store->events.phase[f], 'P');
  EXPECT_EQ(r.store->frames.size(), 1u);
  EXPECT_EQ(r.store->display_time_unit, "ns");
  EXPECT_TRUE(r.store->errors.empty());
  EXPECT_TRUE(r.store->warnings.empty());
  EXPECT_EQ(r.records, 1u);  // "samples" entries are not trace events
}

TEST(ChromeJson, ObjectFormCutAfterEventsWarns) {
  auto r = import_json(R"({"traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}],
  "otherData": {"a": )");
  ASSERT_FALSE(r.failed) << r.failure;
  EXPECT_EQ(r.store->events.size(), 1u);
  EXPECT_TRUE(r.store->errors.empty());
  ASSERT_EQ(r.store->warnings.size(), 1u);
  EXPECT_NE(r.store->warnings[0].find("closing '}'"), std::string::npos) << r.store->warnings[0];

  auto r2 =
      import_json(R"({"traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2},)");
  ASSERT_FALSE(r2.failed);
  ASSERT_EQ(r2.store->warnings.size(), 1u);
  EXPECT_NE(r2.store->warnings[0].find("inside the traceEvents array"), std::string::npos);
}

TEST(ChromeJson, Utf8BomIsSkipped) {
  std::string doc = "\xEF\xBB\xBF  [{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":4}]";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  ASSERT_EQ(r.store->events.size(), 1u);
  EXPECT_EQ(r.store->events.src_offset[0], 6u);  // offsets count the BOM bytes
  for (size_t chunk : {1, 2, 3, 4, 5}) {
    auto c = import_json(doc, chunk);
    ASSERT_FALSE(c.failed) << chunk;
    testing::expect_same_store(*r.store, *c.store);
  }
}

TEST(ChromeJson, EmptyTraceIsNotAFailure) {
  auto r = import_json(R"({"traceEvents": []})");
  EXPECT_FALSE(r.failed);
  EXPECT_FALSE(r.store->has_time);
  EXPECT_EQ(r.store->events.size(), 0u);
  auto r2 = import_json("[]");
  EXPECT_FALSE(r2.failed);
}

// ---- field values -------------------------------------------------------------------------

int64_t ts_of(const std::string& ts_json) {
  auto r = import_json(R"([{"ph":"i","name":"a","pid":1,"tid":1,"ts":)" + ts_json + "}]");
  EXPECT_FALSE(r.failed) << r.failure;
  EXPECT_EQ(r.store->events.size(), 1u) << ts_json;
  return r.store->events.size() ? r.store->events.start[0] : INT64_MIN;
}

TEST(ChromeJson, MicrosecondsToNanosecondsExactly) {
  EXPECT_EQ(ts_of("0"), 0);
  EXPECT_EQ(ts_of("7"), 7000);
  EXPECT_EQ(ts_of("-7"), -7000);
  EXPECT_EQ(ts_of("1.5"), 1500);
  EXPECT_EQ(ts_of("1.234567"), 1235);  // rounds at the ns digit
  EXPECT_EQ(ts_of("1.2344"), 1234);
  EXPECT_EQ(ts_of("1.2345"), 1235);  // half away from zero
  EXPECT_EQ(ts_of("-1.2345"), -1235);
  EXPECT_EQ(ts_of("0.0005"), 1);
  EXPECT_EQ(ts_of("0.00049999"), 0);
  EXPECT_EQ(ts_of("1.5e3"), 1500000);
  EXPECT_EQ(ts_of("1.5E+3"), 1500000);
  EXPECT_EQ(ts_of("25e-4"), 3);  // 2.5 ns
  EXPECT_EQ(ts_of("1e-9"), 0);
  EXPECT_EQ(ts_of("0.1"), 100);  // no binary floating point drift
  EXPECT_EQ(ts_of("\"42\""), 42000);
  EXPECT_EQ(ts_of("\"1736405443863674.400\""), 1736405443863674400);
  EXPECT_EQ(ts_of("1623143566756123.456"), 1623143566756123456);
  EXPECT_EQ(ts_of("1623143566756123.4565"), 1623143566756123457);
  EXPECT_EQ(ts_of("1.623143566756123456e15"), 1623143566756123456);
  EXPECT_EQ(ts_of("9223372036854775.807"), INT64_MAX);
}

TEST(ChromeJson, InvalidOrMissingTsSkipsTheEvent) {
  auto r = import_json(R"([{"ph":"X","name":"a","pid":1,"tid":1,"dur":1},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":"soon","dur":1},
{"ph":"X","name":"c","pid":1,"tid":1,"ts":1e30,"dur":1},
{"ph":"X","name":"d","pid":1,"tid":1,"ts":[1],"dur":1},
{"ph":"X","name":"ok","pid":1,"tid":1,"ts":1,"dur":1}])");
  ASSERT_FALSE(r.failed);
  ASSERT_EQ(r.store->events.size(), 1u);
  EXPECT_EQ(r.store->phase_counts['X'], 5u);
  ASSERT_EQ(r.store->errors.size(), 1u);
  EXPECT_EQ(r.store->errors[0], "4 events without a valid \"ts\" skipped (first at byte 1)");
}

TEST(ChromeJson, PidAndTidAsNumbersOrStrings) {
  auto r = import_json(R"([{"ph":"X","name":"a","pid":12,"tid":"34","ts":1,"dur":1},
{"ph":"X","name":"b","pid":"12","tid":34,"ts":5,"dur":1},
{"ph":"X","name":"c","pid":"gpu","tid":"stream 7","ts":5,"dur":1}])");
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.processes.size(), 2u);
  ASSERT_EQ(s.tracks.size(), 2u);
  // "12" and 12 are the same process; numeric pids sort before the string one (pid 0) only by
  // value: pid 0 < 12, so "gpu" comes first.
  EXPECT_EQ(s.processes[0].key, "gpu");
  EXPECT_EQ(s.processes[0].pid, 0);
  EXPECT_EQ(name_of(s, s.processes[0].name), "Process gpu");
  EXPECT_EQ(name_of(s, s.tracks[0].name), "Thread stream 7");
  EXPECT_EQ(s.processes[1].key, "12");
  EXPECT_EQ(s.processes[1].pid, 12);
  EXPECT_EQ(s.tracks[1].tid, 34);
  EXPECT_EQ(s.tracks[1].event_count, 2u);
}

TEST(ChromeJson, EscapedStringsAndUnknownKeys) {
  auto r = import_json(
      R"([{"ph":"X","na\u006de":"tab\there \"q\" \u00e9 \ud83d\ude00","cat":"a\/b","pid":1,)"
      R"("tid":1,"ts":1,"dur":1,"sf":7,"esf":8,"bind_id":"0x1","flow_in":true,"x":{"y":[null]}}])");
  ASSERT_FALSE(r.failed) << r.failure;
  ASSERT_EQ(r.store->events.size(), 1u);
  EXPECT_EQ(name_of(*r.store, r.store->events.name[0]),
            "tab\there \"q\" \xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(name_of(*r.store, r.store->events.cat[0]), "a/b");
}

// ---- phases --------------------------------------------------------------------------------

TEST(ChromeJson, EveryRecordIsCountedByPhase) {
  auto r = import_json(R"([
{"ph":"b","cat":"c","id":1,"name":"a","pid":1,"tid":1,"ts":1},
{"ph":"e","cat":"c","id":1,"name":"a","pid":1,"tid":1,"ts":2},
{"ph":"s","id":1,"name":"f","pid":1,"tid":1,"ts":1},
{"ph":"f","id":1,"name":"f","pid":1,"tid":1,"ts":2,"bp":"e"},
{"ph":"P","name":"sample","pid":1,"tid":1,"ts":3},
{"ph":"N","id":"0x1","name":"obj","pid":1,"tid":1,"ts":3},
{"ph":"Z","name":"future phase","pid":1,"tid":1,"ts":3},
{"name":"no phase","pid":1,"tid":1,"ts":3},
{"ph":"(","pid":1,"tid":1,"ts":3}])");
  ASSERT_FALSE(r.failed) << r.failure;
  const auto& pc = r.store->phase_counts;
  EXPECT_EQ(pc['b'], 1u);
  EXPECT_EQ(pc['e'], 1u);
  EXPECT_EQ(pc['s'], 1u);
  EXPECT_EQ(pc['f'], 1u);
  EXPECT_EQ(pc['P'], 1u);
  EXPECT_EQ(pc['N'], 1u);
  EXPECT_EQ(pc['Z'], 1u);
  EXPECT_EQ(pc['('], 1u);
  EXPECT_EQ(pc[0], 1u);
  EXPECT_EQ(r.records, 9u);
  // Every known phase is imported now (an async slice, a sample, an object; the flow finds no
  // slice to bind to); unknown ones and records without ph are reported in one warning.
  EXPECT_EQ(r.store->events.size(), 3u);
  EXPECT_TRUE(r.store->errors.empty());
  bool unknown_reported = false;
  for (const std::string& w : r.store->warnings)
    unknown_reported |= w.find("2 records of unknown phases ('Z', none)") != std::string::npos;
  EXPECT_TRUE(unknown_reported) << ::testing::PrintToString(r.store->warnings);
  expect_valid_layout(*r.store);
}

TEST(ChromeJson, BeginEndMatchedPerThreadInTimestampOrder) {
  // Written out of order: E before its B in the file, and two threads interleaved.
  auto r = import_json(R"([
{"ph":"E","pid":1,"tid":1,"ts":50},
{"ph":"B","name":"outer","cat":"k","pid":1,"tid":1,"ts":10,"args":{"x":1}},
{"ph":"B","name":"other","pid":1,"tid":2,"ts":15},
{"ph":"E","pid":1,"tid":1,"ts":40},
{"ph":"B","name":"inner","pid":1,"tid":1,"ts":20},
{"ph":"E","pid":1,"tid":2,"ts":16}])");
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 3u);
  int64_t o = find_event(s, "outer"), in = find_event(s, "inner"), ot = find_event(s, "other");
  EXPECT_EQ(s.events.start[o], 10000);
  EXPECT_EQ(s.events.dur[o], 40000);  // closed by the E at 50 (the later one)
  EXPECT_EQ(s.events.start[in], 20000);
  EXPECT_EQ(s.events.dur[in], 20000);  // E at 40 closes the most recent B
  EXPECT_EQ(s.events.depth[o], 0u);
  EXPECT_EQ(s.events.depth[in], 1u);
  EXPECT_EQ(s.events.phase[o], 'B');
  EXPECT_EQ(name_of(s, s.events.cat[o]), "k");
  EXPECT_EQ(s.events.dur[ot], 1000);
  EXPECT_NE(s.events.track[ot], s.events.track[o]);
  // The slice points at its B record.
  EXPECT_EQ(
      s.events.src_len[o],
      std::string(R"({"ph":"B","name":"outer","cat":"k","pid":1,"tid":1,"ts":10,"args":{"x":1}})")
          .size());
  EXPECT_TRUE(s.warnings.empty());
  expect_valid_layout(s);
}

TEST(ChromeJson, UnmatchedEndDroppedAndOpenBeginClosedAtTraceEnd) {
  auto r = import_json(R"([
{"ph":"E","name":"stray","pid":1,"tid":1,"ts":5},
{"ph":"B","name":"never closed","pid":1,"tid":1,"ts":10},
{"ph":"X","name":"child","pid":1,"tid":1,"ts":20,"dur":5},
{"ph":"X","name":"last","pid":2,"tid":1,"ts":90,"dur":10}])");
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 3u);
  int64_t open = find_event(s, "never closed");
  ASSERT_GE(open, 0);
  EXPECT_EQ(s.events.start[open], 10000);
  EXPECT_EQ(s.events.start[open] + s.events.dur[open], 100000);  // the trace's end
  EXPECT_EQ(s.events.depth[find_event(s, "child")], 1u);
  EXPECT_EQ(s.end_ns, 100000);
  EXPECT_EQ(s.start_ns, 5000);  // every timed record spans the trace, the dropped E too
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_EQ(s.warnings[0], "1 E (end) event without a matching B was dropped");
  EXPECT_EQ(s.warnings[1], "1 B (begin) event was never closed; it ends at the end of the trace");
  expect_valid_layout(s);
}

TEST(ChromeJson, BeginEndTiesFollowFileOrder) {
  // E and B at the same ts: file order decides, so these are two siblings, not nested.
  auto r = import_json(R"([
{"ph":"B","name":"a","pid":1,"tid":1,"ts":0},
{"ph":"E","pid":1,"tid":1,"ts":5},
{"ph":"B","name":"b","pid":1,"tid":1,"ts":5},
{"ph":"E","pid":1,"tid":1,"ts":9}])");
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events.depth[0], 0u);
  EXPECT_EQ(s.events.depth[1], 0u);
  EXPECT_EQ(s.tracks[0].max_depth, 0u);
  EXPECT_TRUE(s.warnings.empty());
}

TEST(ChromeJson, InstantsBothSpellings) {
  auto r = import_json(R"([
{"ph":"X","name":"slice","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"i","name":"thread i","s":"t","pid":1,"tid":1,"ts":5},
{"ph":"I","name":"old I","pid":1,"tid":1,"ts":6},
{"ph":"i","name":"global","s":"g","ts":7}])");
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 4u);
  int64_t a = find_event(s, "thread i"), b = find_event(s, "old I");
  EXPECT_EQ(s.events.phase[a], 'i');
  EXPECT_EQ(s.events.phase[b], 'i');
  EXPECT_EQ(s.events.dur[b], 0);
  EXPECT_EQ(s.events.depth[a], 1u);  // inside the slice
  EXPECT_EQ(s.events.depth[b], 1u);  // instants do not nest under each other
  EXPECT_EQ(s.phase_counts['i'], 2u);
  EXPECT_EQ(s.phase_counts['I'], 1u);
  // The global instant goes to the Global track of the synthetic first process.
  int64_t g = find_event(s, "global");
  const Track& gt = s.tracks[s.events.track[g]];
  EXPECT_EQ(gt.process, 0u);
  EXPECT_TRUE(s.processes[0].global);
  EXPECT_EQ(gt.kind, TrackKind::kInstant);
  EXPECT_EQ(name_of(s, s.processes[gt.process].name), "Global");
  EXPECT_EQ(name_of(s, gt.name), "Global");
  expect_valid_layout(s);
}

TEST(ChromeJson, CountersWithSeveralSeriesAndIds) {
  auto r = import_json(R"([
{"ph":"C","name":"mem","pid":1,"tid":9,"ts":30,"args":{"alloc":3,"reserved":"8.5"}},
{"ph":"C","name":"mem","pid":1,"ts":10,"args":{"alloc":1,"reserved":4,"device":"cuda"}},
{"ph":"C","name":"mem","pid":1,"ts":20,"args":{"alloc":2}},
{"ph":"C","name":"ctr","id":"7","pid":1,"ts":5,"args":{"value":-1e3}},
{"ph":"C","name":"ctr","pid":1,"ts":6,"args":{"value":1}},
{"ph":"C","name":"nothing","pid":1,"ts":6,"args":{"label":"x"}},
{"ph":"C","name":"ctr","pid":2,"ts":6,"args":{"value":2}},
{"ph":"X","name":"work","pid":1,"tid":9,"ts":0,"dur":1}])");
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  expect_valid_layout(s);
  ASSERT_EQ(s.processes.size(), 2u);
  const Process& p1 = s.processes[0];
  // Counter tracks first, by name, then the thread.
  ASSERT_EQ(p1.tracks.size(), 4u);
  EXPECT_EQ(s.tracks[p1.tracks[0]].key, "ctr");
  EXPECT_EQ(s.tracks[p1.tracks[1]].key, "ctr 7");
  EXPECT_EQ(s.tracks[p1.tracks[2]].key, "mem");
  EXPECT_EQ(s.tracks[p1.tracks[3]].kind, TrackKind::kThread);
  const Track& mem = s.tracks[p1.tracks[2]];
  EXPECT_EQ(mem.kind, TrackKind::kCounter);
  EXPECT_EQ(name_of(s, mem.name), "mem");
  ASSERT_EQ(mem.series_count, 2u);
  const CounterSeries& alloc = s.series[mem.first_series];
  const CounterSeries& reserved = s.series[mem.first_series + 1];
  EXPECT_EQ(name_of(s, alloc.name), "alloc");
  EXPECT_EQ(name_of(s, reserved.name), "reserved");
  ASSERT_EQ(alloc.sample_count, 3u);
  EXPECT_EQ(s.samples.ts[alloc.first_sample], 10000);  // sorted by time
  EXPECT_EQ(s.samples.value[alloc.first_sample], 1.0);
  EXPECT_EQ(s.samples.value[alloc.first_sample + 2], 3.0);
  ASSERT_EQ(reserved.sample_count, 2u);
  EXPECT_EQ(s.samples.value[reserved.first_sample + 1], 8.5);  // numeric string
  const Track& ctr7 = s.tracks[p1.tracks[1]];
  ASSERT_EQ(ctr7.series_count, 1u);
  EXPECT_EQ(s.samples.value[s.series[ctr7.first_series].first_sample], -1000.0);
  EXPECT_EQ(s.start_ns, 0);
  EXPECT_EQ(s.end_ns, 30000);
  EXPECT_EQ(s.phase_counts['C'], 7u);
}

TEST(ChromeJson, MetadataNamesSortIndicesAndLabels) {
  auto r = import_json(R"([
{"ph":"M","name":"process_name","pid":10,"args":{"name":"trainer"}},
{"ph":"M","name":"process_name","pid":20,"args":{"name":"GPU 0"}},
{"ph":"M","name":"process_sort_index","pid":20,"args":{"sort_index":-5}},
{"ph":"M","name":"process_labels","pid":10,"args":{"labels":"rank 0, host a ,,"}},
{"ph":"M","name":"thread_name","pid":10,"tid":2,"args":{"name":"dataloader"}},
{"ph":"M","name":"thread_name","pid":10,"tid":1,"args":{"name":"python main"}},
{"ph":"M","name":"thread_sort_index","pid":10,"tid":2,"args":{"sort_index":"-1"}},
{"ph":"M","name":"process_uptime_seconds","pid":10,"args":{"uptime":5}},
{"ph":"X","name":"step","pid":10,"tid":1,"ts":1,"dur":1},
{"ph":"X","name":"load","pid":10,"tid":2,"ts":1,"dur":1},
{"ph":"X","name":"load","pid":10,"tid":3,"ts":1,"dur":1},
{"ph":"X","name":"kernel","pid":20,"tid":7,"ts":1,"dur":1},
{"ph":"X","name":"x","pid":5,"tid":1,"ts":1,"dur":1}])");
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  expect_valid_layout(s);
  ASSERT_EQ(s.processes.size(), 3u);
  // Sort index first, then pid.
  EXPECT_EQ(name_of(s, s.processes[0].name), "GPU 0");
  EXPECT_TRUE(s.processes[0].has_sort_index);
  EXPECT_EQ(s.processes[0].sort_index, -5);
  EXPECT_EQ(name_of(s, s.processes[1].name), "Process 5");
  EXPECT_EQ(name_of(s, s.processes[2].name), "trainer");
  ASSERT_EQ(s.processes[2].labels.size(), 2u);
  EXPECT_EQ(name_of(s, s.processes[2].labels[0]), "rank 0");
  EXPECT_EQ(name_of(s, s.processes[2].labels[1]), "host a");
  // Threads by (sort index, tid): dataloader has -1, then tid 1, tid 3.
  const auto& tr = s.processes[2].tracks;
  ASSERT_EQ(tr.size(), 3u);
  EXPECT_EQ(name_of(s, s.tracks[tr[0]].name), "dataloader");
  EXPECT_EQ(s.tracks[tr[0]].sort_index, -1);
  EXPECT_EQ(name_of(s, s.tracks[tr[1]].name), "python main");
  EXPECT_EQ(name_of(s, s.tracks[tr[2]].name), "Thread 3");
  EXPECT_EQ(s.phase_counts['M'], 8u);
  // Metadata is not timed: the range is the X events only.
  EXPECT_EQ(s.start_ns, 1000);
  EXPECT_EQ(s.end_ns, 2000);
}

TEST(ChromeJson, ThreadNamedOnlyByMetadataStillExists) {
  auto r =
      import_json(R"([{"ph":"M","name":"thread_name","pid":1,"tid":4,"args":{"name":"idle"}}])");
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.tracks.size(), 1u);
  EXPECT_EQ(s.tracks[0].event_count, 0u);
  EXPECT_EQ(s.tracks[0].rows.size(), 2u);
  EXPECT_FALSE(s.has_time);
  expect_valid_layout(s);
}

TEST(ChromeJson, NegativeDurationBecomesZero) {
  auto r = import_json(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":10,"dur":-3},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":10,"dur":"2.5"}])");
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  EXPECT_EQ(s.events.dur[find_event(s, "a")], 0);
  EXPECT_EQ(s.events.dur[find_event(s, "b")], 2500);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], "1 event had a negative dur, set to 0");
  expect_valid_layout(s);
}

}  // namespace
}  // namespace strata
