// Chrome JSON importer: the phases beyond X/B/E/i/C/M (instant scopes, nestable and legacy
// async, flows, samples and stack frames, objects, marks, clock syncs, memory dumps,
// contexts) and the side containers, on traces the tests write themselves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/query/flows.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::expect_same_store;
using testing::expect_valid_layout;
using testing::find_event;
using testing::import_json;
using testing::name_of;

const Track& track_of(const TraceStore& s, int64_t ev) { return s.tracks[s.events.track[ev]]; }

bool has_warning(const TraceStore& s, const std::string& text) {
  for (const std::string& w : s.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

// Flow edges as "from->to" event names, in store order.
std::vector<std::string> edges(const TraceStore& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.flows.size(); ++i)
    out.push_back(name_of(s, s.events.name[s.flows.from[i]]) + "->" +
                  name_of(s, s.events.name[s.flows.to[i]]));
  return out;
}

// Same store at every chunking, flows and side tables included.
void expect_chunking_invariant(const std::string& doc) {
  auto whole = import_json(doc);
  for (size_t chunk : {1, 2, 3, 7, 64}) {
    SCOPED_TRACE(chunk);
    auto c = import_json(doc, chunk);
    expect_same_store(*whole.store, *c.store);
    EXPECT_EQ(whole.store->flows.from, c.store->flows.from);
    EXPECT_EQ(whole.store->flows.to, c.store->flows.to);
    EXPECT_EQ(whole.store->frames.parent, c.store->frames.parent);
    EXPECT_EQ(whole.store->memory_dumps, c.store->memory_dumps);
  }
}

// ---- instants ------------------------------------------------------------------------------

TEST(ChromeJsonPhases, InstantScopes) {
  std::string doc = R"([
{"ph":"X","name":"slice","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"i","name":"thread","s":"t","pid":1,"tid":1,"ts":1},
{"ph":"i","name":"default","pid":1,"tid":1,"ts":2},
{"ph":"i","name":"process","s":"p","pid":1,"tid":1,"ts":3},
{"ph":"I","name":"global","s":"g","pid":1,"tid":1,"ts":4},
{"ph":"i","name":"Iteration Start: PyTorch Profiler","s":"g","pid":"Spans","tid":"x","ts":5}])";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  EXPECT_EQ(track_of(s, find_event(s, "thread")).kind, TrackKind::kThread);
  EXPECT_EQ(track_of(s, find_event(s, "default")).kind, TrackKind::kThread);
  const Track& p = track_of(s, find_event(s, "process"));
  EXPECT_EQ(p.kind, TrackKind::kInstant);
  EXPECT_EQ(s.processes[p.process].key, "1");
  EXPECT_EQ(name_of(s, p.name), "Process instants");
  const Track& g = track_of(s, find_event(s, "global"));
  EXPECT_EQ(g.kind, TrackKind::kInstant);
  EXPECT_EQ(g.process, 0u);  // the Global process is shown first
  EXPECT_TRUE(s.processes[0].global);
  EXPECT_EQ(name_of(s, s.processes[0].name), "Global");
  // Kineto's Iteration Start marker shares the one Global track.
  EXPECT_EQ(s.events.track[find_event(s, "Iteration Start: PyTorch Profiler")],
            s.events.track[find_event(s, "global")]);
  // Process tracks come before thread tracks of their process.
  EXPECT_EQ(s.processes[p.process].tracks.front(), s.events.track[find_event(s, "process")]);
  EXPECT_TRUE(s.warnings.empty());
  expect_valid_layout(s);
  expect_chunking_invariant(doc);
}

// ---- nestable async ------------------------------------------------------------------------

TEST(ChromeJsonPhases, NestableAsyncPairsNestsAndGroupsByRootName) {
  std::string doc = R"([
{"ph":"b","cat":"net","id":"0x1","name":"Request","pid":1,"tid":1,"ts":10},
{"ph":"b","cat":"net","id":"0x1","name":"Connect","pid":1,"tid":2,"ts":20},
{"ph":"n","cat":"net","id":"0x1","name":"DNS done","pid":1,"tid":1,"ts":25},
{"ph":"e","cat":"net","id":"0x1","name":"Connect","pid":1,"tid":1,"ts":30},
{"ph":"e","cat":"net","id":"0x1","pid":1,"tid":1,"ts":50},
{"ph":"b","cat":"other","id":"0x1","name":"Request","pid":1,"tid":1,"ts":40},
{"ph":"e","cat":"other","id":"0x1","name":"Request","pid":1,"tid":1,"ts":45},
{"ph":"b","cat":"net","id":"0x1","name":"Request","pid":2,"tid":1,"ts":12},
{"ph":"e","cat":"net","id":"0x1","name":"Request","pid":2,"tid":1,"ts":14}])";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 5u);  // 3 slices of pid 1 (two cats), 1 of pid 2, 1 instant
  int64_t req = -1, other = -1;
  for (size_t i = 0; i < s.events.size(); ++i) {
    if (name_of(s, s.events.name[i]) != "Request") continue;
    if (name_of(s, s.events.cat[i]) == "other")
      other = static_cast<int64_t>(i);
    else if (s.processes[track_of(s, i).process].key == "1")
      req = static_cast<int64_t>(i);
  }
  ASSERT_GE(req, 0);
  ASSERT_GE(other, 0);
  int64_t con = find_event(s, "Connect"), dns = find_event(s, "DNS done");
  EXPECT_EQ(s.events.phase[req], 'b');
  EXPECT_EQ(s.events.start[req], 10000);
  EXPECT_EQ(s.events.dur[req], 40000);  // the nameless e closes the innermost open slice
  EXPECT_EQ(s.events.dur[con], 10000);
  EXPECT_EQ(s.events.phase[dns], 'n');
  EXPECT_EQ(s.events.dur[dns], 0);
  // One async track per root name: Connect and the instant nest under Request.
  const Track& t = track_of(s, req);
  EXPECT_EQ(t.kind, TrackKind::kAsync);
  EXPECT_EQ(name_of(s, t.name), "Request");
  EXPECT_EQ(s.events.track[con], s.events.track[req]);
  EXPECT_EQ(s.events.track[dns], s.events.track[req]);
  EXPECT_EQ(s.events.depth[con], s.events.depth[req] + 1);
  EXPECT_EQ(s.events.depth[dns], s.events.depth[con] + 1);
  // Another category is another id space; it overlaps the first tree so it takes a lane below.
  EXPECT_EQ(s.events.track[other], s.events.track[req]);
  EXPECT_GT(s.events.depth[other], s.events.depth[dns]);
  // A plain id is scoped by its process: pid 2's Request is its own slice on pid 2's track.
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  expect_valid_layout(s);
  expect_chunking_invariant(doc);
}

TEST(ChromeJsonPhases, Id2LocalAndGlobal) {
  auto r = import_json(R"([
{"ph":"b","cat":"c","id2":{"global":"0x9"},"name":"Cross","pid":1,"tid":1,"ts":1},
{"ph":"e","cat":"c","id2":{"global":"0x9"},"name":"Cross","pid":2,"tid":1,"ts":5},
{"ph":"b","cat":"c","id2":{"local":"0x9"},"name":"Local","pid":1,"tid":1,"ts":1},
{"ph":"e","cat":"c","id2":{"local":"0x9"},"name":"Local","pid":2,"tid":1,"ts":5}])");
  const TraceStore& s = *r.store;
  int64_t cross = find_event(s, "Cross"), local = find_event(s, "Local");
  EXPECT_EQ(s.events.dur[cross], 4000);                         // global ids pair across processes
  EXPECT_EQ(s.processes[track_of(s, cross).process].key, "1");  // drawn in the root's process
  // The local end in pid 2 has no begin there; the local begin in pid 1 never ends.
  EXPECT_TRUE(has_warning(s, "1 async or object end (e/F/D) without an open begin was dropped"));
  EXPECT_TRUE(has_warning(s, "1 async slice or object (b/S/N) was never closed"));
  EXPECT_EQ(s.events.start[local] + s.events.dur[local], s.end_ns);
  expect_valid_layout(s);
}

TEST(ChromeJsonPhases, AsyncOverlappingOperationsStackSequentialOnesShareARow) {
  auto r = import_json(R"([
{"ph":"b","cat":"c","id":1,"name":"Load","pid":1,"tid":1,"ts":0},
{"ph":"b","cat":"c","id":2,"name":"Load","pid":1,"tid":1,"ts":5},
{"ph":"b","cat":"c","id":2,"name":"Parse","pid":1,"tid":1,"ts":6},
{"ph":"e","cat":"c","id":1,"name":"Load","pid":1,"tid":1,"ts":10},
{"ph":"e","cat":"c","id":2,"name":"Parse","pid":1,"tid":1,"ts":7},
{"ph":"e","cat":"c","id":2,"name":"Load","pid":1,"tid":1,"ts":20},
{"ph":"b","cat":"c","id":3,"name":"Load","pid":1,"tid":1,"ts":20},
{"ph":"n","cat":"c","id":3,"name":"mark","pid":1,"tid":1,"ts":20},
{"ph":"e","cat":"c","id":3,"name":"Load","pid":1,"tid":1,"ts":30},
{"ph":"b","cat":"c","id":4,"name":"Load","pid":1,"tid":1,"ts":30},
{"ph":"e","cat":"c","id":4,"name":"Load","pid":1,"tid":1,"ts":30},
{"ph":"b","cat":"c","id":5,"name":"Load","pid":1,"tid":1,"ts":30},
{"ph":"e","cat":"c","id":5,"name":"Load","pid":1,"tid":1,"ts":31}])");
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.tracks.size(), 1u);
  std::vector<std::pair<TimeNs, uint32_t>> loads;  // (start, depth) of each Load
  for (size_t i = 0; i < s.events.size(); ++i)
    if (name_of(s, s.events.name[i]) == "Load")
      loads.emplace_back(s.events.start[i], s.events.depth[i]);
  std::sort(loads.begin(), loads.end());
  ASSERT_EQ(loads.size(), 5u);
  EXPECT_EQ(loads[0].second, 0u);  // id 1 [0, 10]
  EXPECT_EQ(loads[1].second, 1u);  // id 2 [5, 20] overlaps id 1: next lane (Parse below it)
  EXPECT_EQ(loads[2].second, 0u);  // id 3 [20, 30] starts after id 1 ended: back to lane 0
  // id 4 [30, 30] touches id 3 and shares its lane; id 5 starts where id 4's zero-length
  // slice sits, so it moves down (a marker and a slice starting together would break the row).
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  expect_valid_layout(s);
}

TEST(ChromeJsonPhases, AsyncRepairs) {
  auto r = import_json(R"([
{"ph":"e","cat":"c","id":1,"name":"A","pid":1,"tid":1,"ts":1},
{"ph":"b","cat":"c","id":1,"name":"A","pid":1,"tid":1,"ts":2},
{"ph":"b","cat":"c","id":1,"name":"Inner","pid":1,"tid":1,"ts":3},
{"ph":"e","cat":"c","id":1,"name":"A","pid":1,"tid":1,"ts":4},
{"ph":"b","cat":"c","id":2,"name":"Open","pid":1,"tid":1,"ts":5},
{"ph":"X","name":"x","pid":1,"tid":1,"ts":0,"dur":9}])");
  const TraceStore& s = *r.store;
  EXPECT_TRUE(has_warning(s, "1 async or object end (e/F/D) without an open begin was dropped"));
  EXPECT_TRUE(has_warning(s, "1 async slice was not closed before its parent"));
  EXPECT_TRUE(has_warning(s, "1 async slice or object (b/S/N) was never closed"));
  int64_t inner = find_event(s, "Inner"), open = find_event(s, "Open");
  EXPECT_EQ(s.events.start[inner] + s.events.dur[inner], 4000);  // ends with its parent
  EXPECT_EQ(s.events.start[open] + s.events.dur[open], 9000);    // ends with the trace
  expect_valid_layout(s);
}

// ---- legacy async --------------------------------------------------------------------------

TEST(ChromeJsonPhases, LegacyAsyncStartStepFinish) {
  std::string doc = R"([
{"ph":"S","cat":"c","id":"7","name":"Job","pid":1,"tid":1,"ts":10},
{"ph":"T","cat":"c","id":"7","name":"Job","pid":1,"tid":1,"ts":12,"args":{"step":"a"}},
{"ph":"p","cat":"c","id":"7","name":"Job","pid":1,"tid":2,"ts":14,"args":{"step":"b"}},
{"ph":"F","cat":"c","id":"7","name":"Job","pid":1,"tid":3,"ts":20},
{"ph":"b","cat":"c","id":"7","name":"Nestable","pid":1,"tid":1,"ts":11},
{"ph":"e","cat":"c","id":"7","name":"Nestable","pid":1,"tid":1,"ts":13}])";
  auto r = import_json(doc);
  const TraceStore& s = *r.store;
  int64_t job = find_event(s, "Job");
  ASSERT_GE(job, 0);
  EXPECT_EQ(s.events.phase[job], 'S');
  EXPECT_EQ(s.events.dur[job], 10000);
  EXPECT_EQ(track_of(s, job).kind, TrackKind::kAsync);
  int steps = 0;
  for (size_t i = 0; i < s.events.size(); ++i) {
    char ph = s.events.phase[i];
    if (ph != 'T' && ph != 'p') continue;
    ++steps;
    EXPECT_EQ(s.events.track[i], s.events.track[job]);
    EXPECT_EQ(s.events.depth[i], s.events.depth[job] + 1);
  }
  EXPECT_EQ(steps, 2);
  // S/F and b/e with the same cat and id do not pair with each other.
  EXPECT_EQ(s.events.dur[find_event(s, "Nestable")], 2000);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  expect_valid_layout(s);
  expect_chunking_invariant(doc);
}

// ---- flows ---------------------------------------------------------------------------------

TEST(ChromeJsonPhases, FlowsBindPerSpec) {
  std::string doc = R"([
{"ph":"X","name":"outer","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","name":"launch","pid":1,"tid":1,"ts":10,"dur":5},
{"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":1,"tid":1,"ts":10},
{"ph":"X","name":"kernel","pid":0,"tid":"stream 7","ts":30,"dur":5},
{"ph":"f","cat":"ac2g","name":"ac2g","id":1,"bp":"e","pid":0,"tid":"stream 7","ts":30},
{"ph":"s","cat":"ipc","name":"msg","id":"a","pid":1,"tid":1,"ts":50},
{"ph":"X","name":"handler","pid":2,"tid":1,"ts":60,"dur":10},
{"ph":"X","name":"relay","pid":3,"tid":1,"ts":40,"dur":30},
{"ph":"t","cat":"ipc","name":"msg","id":"a","pid":3,"tid":1,"ts":55},
{"ph":"f","cat":"ipc","name":"msg","id":"a","pid":2,"tid":1,"ts":58},
{"ph":"f","cat":"ipc","name":"msg","id":"zz","pid":2,"tid":1,"ts":58},
{"ph":"s","cat":"ipc","name":"msg","id":"nowhere","pid":9,"tid":9,"ts":58}])";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  // s binds to the deepest enclosing slice; f with bp "e" to its enclosing slice; t to the
  // enclosing slice of its thread; f without bp to the next slice starting on its thread.
  std::vector<std::string> e = edges(s);
  std::sort(e.begin(), e.end());
  EXPECT_EQ(e, (std::vector<std::string>{"launch->kernel", "outer->relay", "relay->handler"}));
  EXPECT_TRUE(has_warning(s, "1 flow step (t/f) without a start (s) was ignored"));
  EXPECT_TRUE(has_warning(s, "1 flow event found no slice to bind to on its thread"));
  ASSERT_EQ(s.flows.kinds.size(), 2u);

  int64_t relay = find_event(s, "relay");
  std::vector<FlowNeighbour> n = flows_of(s, static_cast<uint32_t>(relay));
  ASSERT_EQ(n.size(), 2u);
  EXPECT_TRUE(n[0].incoming);
  EXPECT_EQ(name_of(s, s.events.name[n[0].event]), "outer");
  EXPECT_FALSE(n[1].incoming);
  EXPECT_EQ(name_of(s, s.events.name[n[1].event]), "handler");
  const FlowColumns::Kind& k = s.flows.kinds[s.flows.kind[n[1].flow]];
  EXPECT_EQ(name_of(s, k.name), "msg");
  EXPECT_EQ(name_of(s, k.cat), "ipc");
  EXPECT_TRUE(flows_of(s, static_cast<uint32_t>(find_event(s, "outer"))).size() == 1u);
  expect_valid_layout(s);
  expect_chunking_invariant(doc);
}

TEST(ChromeJsonPhases, FlowIdReusedStartsANewChain) {
  auto r = import_json(R"([
{"ph":"X","name":"a1","pid":1,"tid":1,"ts":0,"dur":5},
{"ph":"X","name":"b1","pid":1,"tid":2,"ts":10,"dur":5},
{"ph":"X","name":"a2","pid":1,"tid":1,"ts":20,"dur":5},
{"ph":"X","name":"b2","pid":1,"tid":2,"ts":30,"dur":5},
{"ph":"f","name":"fl","id":1,"pid":1,"tid":2,"ts":30},
{"ph":"s","name":"fl","id":1,"pid":1,"tid":1,"ts":20},
{"ph":"f","name":"fl","id":1,"pid":1,"tid":2,"ts":10},
{"ph":"s","name":"fl","id":1,"pid":1,"tid":1,"ts":0}])");
  std::vector<std::string> e = edges(*r.store);
  EXPECT_EQ(e, (std::vector<std::string>{"a1->b1", "a2->b2"}));
  EXPECT_TRUE(r.store->warnings.empty()) << r.store->warnings[0];
}

// ---- samples and stack frames --------------------------------------------------------------

TEST(ChromeJsonPhases, SamplesAndStackFrames) {
  std::string doc = R"({"stackFrames": {
  "1": {"category": "m", "name": "main"},
  "2": {"name": "run", "parent": "1"},
  "3": {"name": "leaf \u00e9", "parent": 2},
  "c1": {"name": "loopA", "parent": "c2"},
  "c2": {"name": "loopB", "parent": "c1"}},
"traceEvents": [
  {"ph":"X","name":"work","pid":1,"tid":1,"ts":0,"dur":10,"sf":"2"},
  {"ph":"P","name":"cpu","pid":1,"tid":1,"ts":3,"sf":3},
  {"ph":"P","name":"cpu","pid":1,"tid":1,"ts":4,"sf":"404"},
  {"ph":"P","pid":1,"tid":1,"ts":5,"stack":["0x1","0x2"]}],
"samples": [{"cpu": 0, "tid": 1, "ts": 6, "name": "cycles:HG", "sf": "1", "weight": 1}]})";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.frames.size(), 5u);
  uint32_t leaf = s.frames.find(s.strings, "3");
  ASSERT_NE(leaf, kNone);
  EXPECT_EQ(name_of(s, s.frames.name[leaf]), "leaf \xC3\xA9");
  uint32_t run = s.frames.parent[leaf];
  ASSERT_NE(run, kNone);
  EXPECT_EQ(name_of(s, s.frames.name[run]), "run");
  uint32_t main_frame = s.frames.parent[run];
  EXPECT_EQ(name_of(s, s.frames.name[main_frame]), "main");
  EXPECT_EQ(s.frames.parent[main_frame], kNone);
  EXPECT_EQ(s.frames.find(s.strings, "404"), kNone);
  // A parent cycle is cut so every walk ends.
  EXPECT_TRUE(has_warning(s, "1 cycle in stackFrames parents was cut"));
  uint32_t c1 = s.frames.find(s.strings, "c1");
  int steps = 0;
  for (uint32_t f = c1; f != kNone && steps < 10; f = s.frames.parent[f]) ++steps;
  EXPECT_LT(steps, 10);

  // Samples sit on the thread's sample track, right after the thread, named by leaf frame.
  int64_t sample = find_event(s, "leaf \xC3\xA9");
  ASSERT_GE(sample, 0);
  EXPECT_EQ(s.events.phase[sample], 'P');
  const Track& st = track_of(s, sample);
  EXPECT_EQ(st.kind, TrackKind::kSample);
  EXPECT_EQ(name_of(s, st.name), "Thread 1 samples");
  const Process& p = s.processes[st.process];
  ASSERT_EQ(p.tracks.size(), 2u);  // thread 1 and its samples (the pid-less entry: own process)
  EXPECT_EQ(s.tracks[p.tracks[0]].kind, TrackKind::kThread);
  EXPECT_EQ(p.tracks[1], s.events.track[sample]);
  EXPECT_GE(find_event(s, "cpu"), 0);     // unknown frame: keeps its own name
  EXPECT_GE(find_event(s, "Sample"), 0);  // no name, no sf
  EXPECT_GE(find_event(s, "main"), 0);    // the samples-container entry (no pid)
  EXPECT_EQ(r.records, 4u);
  EXPECT_TRUE(s.errors.empty());
  expect_valid_layout(s);
  expect_chunking_invariant(doc);
}

// ---- objects -------------------------------------------------------------------------------

TEST(ChromeJsonPhases, ObjectLifetimesAndSnapshots) {
  std::string doc = R"([
{"ph":"N","cat":"o","id":"0x1","name":"Layer","pid":1,"tid":1,"ts":10},
{"ph":"O","cat":"o","id":"0x1","name":"Layer","pid":1,"tid":1,"ts":12,"args":{"snapshot":{"w":3}}},
{"ph":"D","cat":"o","id":"0x1","name":"Layer","pid":1,"tid":1,"ts":20},
{"ph":"N","cat":"o","id":"0x2","name":"Layer","pid":1,"tid":1,"ts":15},
{"ph":"N","cat":"o","id":"0x2","name":"Layer","pid":1,"tid":1,"ts":25},
{"ph":"D","cat":"o","id":"0x2","name":"Layer","pid":1,"tid":1,"ts":30},
{"ph":"O","cat":"o","id":"0x3","name":"Lonely","pid":1,"tid":1,"ts":5}])";
  auto r = import_json(doc);
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.tracks.size(), 1u);
  EXPECT_EQ(s.tracks[0].kind, TrackKind::kObject);
  EXPECT_EQ(name_of(s, s.tracks[0].name), "Objects");
  int lifetimes = 0, snapshots = 0;
  for (size_t i = 0; i < s.events.size(); ++i) {
    lifetimes += s.events.phase[i] == 'N';
    snapshots += s.events.phase[i] == 'O';
  }
  EXPECT_EQ(lifetimes, 3);  // 0x1, and 0x2 twice (re-created while alive: repaired)
  EXPECT_EQ(snapshots, 2);  // one inside 0x1, one standalone
  EXPECT_TRUE(has_warning(s, "1 object was created again (N) while alive"));
  expect_valid_layout(s);
  expect_chunking_invariant(doc);
}

// ---- marks, clock sync, memory dumps, contexts, devices -------------------------------------

TEST(ChromeJsonPhases, MarksClockSyncMemoryDumpsContextsDevices) {
  std::string doc = R"J({"deviceProperties": [{"id": 0, "name": "GPU A"}, {"id": 1}],
"traceEvents": [
{"ph":"R","cat":"blink.user_timing","name":"navigationStart","pid":1,"tid":1,"ts":100},
{"ph":"c","name":"clock_sync","pid":1,"tid":1,"ts":200,"args":{"sync_id":"abc","issue_ts":150.5}},
{"ph":"c","name":"clock_sync","pid":1,"tid":1,"ts":120,"args":{"sync_id":"def"}},
{"ph":"v","name":"periodic_interval","pid":1,"tid":1,"ts":300,"id":"0x1","args":{"dumps":{}}},
{"ph":"V","name":"global","pid":1,"tid":1,"ts":250,"id":"0x1"},
{"ph":"(","cat":"c","name":"ctx","pid":1,"tid":1,"ts":90,"id":"0x5"},
{"ph":")","cat":"c","name":"ctx","pid":1,"tid":1,"ts":400,"id":"0x5"}]})J";
  auto r = import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  int64_t mark = find_event(s, "navigationStart");
  ASSERT_GE(mark, 0);
  EXPECT_EQ(s.events.phase[mark], 'R');
  EXPECT_TRUE(s.processes[track_of(s, mark).process].global);
  ASSERT_EQ(s.clock_syncs.size(), 2u);  // sorted by ts
  EXPECT_EQ(name_of(s, s.clock_syncs[0].sync_id), "def");
  EXPECT_FALSE(s.clock_syncs[0].has_issue_ts);
  EXPECT_EQ(name_of(s, s.clock_syncs[1].sync_id), "abc");
  EXPECT_EQ(s.clock_syncs[1].issue_ts, 150500);
  EXPECT_EQ(s.memory_dumps, (std::vector<TimeNs>{250000, 300000}));
  EXPECT_EQ(s.device_count, 2u);
  EXPECT_EQ(s.start_ns, 90000);  // contexts span the trace
  EXPECT_EQ(s.end_ns, 400000);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  EXPECT_TRUE(s.errors.empty());
  expect_chunking_invariant(doc);
}

// ---- Kineto specifics ----------------------------------------------------------------------

TEST(ChromeJsonPhases, GpuStreamsInNaturalOrder) {
  auto r = import_json(R"([
{"ph":"X","name":"k","pid":0,"tid":"stream 10","ts":1,"dur":1},
{"ph":"X","name":"k","pid":0,"tid":"stream 7","ts":1,"dur":1},
{"ph":"X","name":"k","pid":0,"tid":"stream 7 ","ts":1,"dur":1},
{"ph":"X","name":"k","pid":0,"tid":"stream 100","ts":1,"dur":1},
{"ph":"i","name":"[memory]","pid":0,"tid":"stream 8","ts":1,"args":{"Bytes":512}}])");
  const TraceStore& s = *r.store;
  std::vector<std::string> keys;
  for (uint32_t t : s.processes[0].tracks) keys.push_back(s.tracks[t].key);
  EXPECT_EQ(keys, (std::vector<std::string>{"stream 7", "stream 7 ", "stream 8", "stream 10",
                                            "stream 100"}));
  expect_valid_layout(s);
}

// ---- hostile inputs ------------------------------------------------------------------------

TEST(ChromeJsonPhases, InvalidDurationsAreRepairedAndCounted) {
  auto r = import_json(R"([
{"ph":"X","name":"nan string","pid":1,"tid":1,"ts":1,"dur":"nan"},
{"ph":"X","name":"nan literal","pid":1,"tid":1,"ts":2,"dur":NaN},
{"ph":"X","name":"missing","pid":1,"tid":1,"ts":3},
{"ph":"X","name":"negative","pid":1,"tid":1,"ts":4,"dur":-5},
{"ph":"X","name":"huge","pid":1,"tid":1,"ts":5,"dur":1e300}])");
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  ASSERT_EQ(s.events.size(), 5u);
  for (size_t i = 0; i < s.events.size(); ++i) EXPECT_EQ(s.events.dur[i], 0);
  EXPECT_TRUE(has_warning(s, "4 X events without a valid \"dur\" were given duration 0"));
  EXPECT_TRUE(has_warning(s, "1 event had a negative dur, set to 0"));
  expect_valid_layout(s);
}

TEST(ChromeJsonPhases, DeepAsyncNestingAndManyOverlappingOperations) {
  // 100k nested b's of one id, then 20k overlapping operations of one name: linear-ish time,
  // bounded lanes search, valid rows.
  std::string doc = "[";
  const int kDeep = 100000, kWide = 20000;
  for (int i = 0; i < kDeep; ++i)
    doc += R"({"ph":"b","cat":"c","id":1,"name":"d","pid":1,"tid":1,"ts":)" + std::to_string(i) +
           "},\n";
  for (int i = 0; i < kWide; ++i)
    doc += R"({"ph":"b","cat":"w","id":)" + std::to_string(i) +
           R"(,"name":"w","pid":1,"tid":1,"ts":)" + std::to_string(i) + "},\n";
  doc += R"({"ph":"X","name":"end","pid":1,"tid":1,"ts":1000000,"dur":1}])";
  auto r = import_json(doc, 1 << 20);
  ASSERT_FALSE(r.failed);
  const TraceStore& s = *r.store;
  EXPECT_EQ(s.events.size(), static_cast<size_t>(kDeep + kWide + 1));
  EXPECT_TRUE(has_warning(s, std::to_string(kDeep + kWide) + " async slices or objects"));
  expect_valid_layout(s);
}

TEST(ChromeJsonPhases, FlowsOnADeepTrackStayFast) {
  // 50k nested B/E and 50k flow steps into the middle of it: binding walks the nesting at
  // each step only as deep as the slices enclosing it.
  std::string doc = "[";
  const int kDeep = 50000;
  for (int i = 0; i < kDeep; ++i)
    doc += R"({"ph":"B","name":"n","pid":1,"tid":1,"ts":)" + std::to_string(i) + "},";
  for (int i = 0; i < kDeep; ++i)
    doc += R"({"ph":"E","pid":1,"tid":1,"ts":)" + std::to_string(2 * kDeep - i) + "},";
  for (int i = 0; i < kDeep; ++i)
    doc += R"({"ph":"s","name":"f","id":)" + std::to_string(i) + R"(,"pid":1,"tid":1,"ts":)" +
           std::to_string(i) + R"(},{"ph":"f","name":"f","id":)" + std::to_string(i) +
           R"(,"pid":1,"tid":1,"ts":)" + std::to_string(i + 1) + "},";
  doc += R"({"ph":"X","name":"end","pid":1,"tid":2,"ts":0,"dur":1}])";
  auto r = import_json(doc, 1 << 20);
  ASSERT_FALSE(r.failed);
  EXPECT_EQ(r.store->flows.size(), static_cast<size_t>(kDeep - 1));
  expect_valid_layout(*r.store);
}

}  // namespace
}  // namespace strata
