// The Runs tab's fetching is decided in the UI (ui/runs/runs_fetch): for a folder, a selection,
// strata.stats() and a Diff it hands the page one step at a time (open input N, post this
// runsStats message with these files, let a frame draw, done with this answer), keeps the
// replies, and knows which profile's trace the engine holds. These tests play the page.
#include "ui/runs/runs_fetch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "core/runs/json_members.h"
#include "core/runs/run_plan.h"
#include "ui/runs/runs_view.h"

namespace strata::testing {
namespace {

// Two Ascend ranks (rank0 lacks nothing; rank1 has no kernel_details.csv), one path per line.
const char* kAscend =
    "f/run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv\n"   // 0
    "f/run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv\n"     // 1
    "f/run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv\n"    // 2
    "f/run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json\n"        // 3
    "f/run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv\n"      // 4
    "f/run/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv\n"   // 5
    "f/run/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv\n"    // 6
    "./f/run/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json\n";  // 7

// One Kineto run of two workers of one span, and another run of one.
const char* kKineto =
    "tb/a/worker0.111.pt.trace.json.gz\n"  // 0
    "tb/a/worker1.111.pt.trace.json.gz\n"  // 1
    "tb/b/worker0.pt.trace.json\n";        // 2

struct Step {
  std::string kind;
  int entry = -1;
  std::vector<JsonLine> message;  // the runsStats message's fields
  std::vector<std::pair<std::string, int>> files;
  std::string answer;
  bool show_profile_tab = false;
};

Step parse(const RunsNextStep& next) {
  Step s;
  s.show_profile_tab = next.show_profile_tab;
  std::vector<JsonMember> m;
  EXPECT_TRUE(json_object_members(next.json, &m)) << next.json;
  std::vector<JsonLine> lines;
  std::string error;
  EXPECT_TRUE(json_flatten(json_member(m, "step", "null"), &lines, &error));
  s.kind = lines.empty() ? "" : lines[0].value;
  s.answer = std::string(json_member(m, "answer", ""));
  const std::string entry(json_member(m, "entry", "-1"));
  s.entry = std::stoi(entry);
  const std::string_view message = json_member(m, "message", "");
  if (!message.empty()) {
    EXPECT_TRUE(json_flatten(message, &s.message, &error)) << error;
  }
  std::vector<JsonLine> files;
  const std::string_view f = json_member(m, "files", "");
  if (!f.empty()) {
    EXPECT_TRUE(json_flatten(f, &files, &error));
  }
  for (const JsonLine& l : files) s.files.emplace_back(l.key, std::stoi(l.value));
  return s;
}

std::string field(const Step& s, const std::string& key) {
  for (const JsonLine& l : s.message)
    if (l.depth == 0 && l.key == key) return l.value;
  return "<none>";
}

// The page's side: performs every step, answering requests with `reply(step)`, and records them.
template <typename Reply>
std::string perform(RunsView* v, std::vector<Step>* log, Reply reply) {
  std::string last;
  for (int guard = 0; guard < 100; ++guard) {
    const Step s = parse(runs_fetch_next(v, last));
    log->push_back(s);
    last.clear();
    if (s.kind == "done") return s.answer;
    if (s.kind == "request") last = reply(s);
  }
  ADD_FAILURE() << "no done step";
  return "";
}

std::string ops_reply(const std::string& name) {
  return "{\"ok\":true,\"operators\":[{\"name\":\"" + name +
         "\",\"calls\":2,\"hostSelfUs\":1,\"hostTotalUs\":3,\"deviceSelfUs\":1,"
         "\"deviceTotalUs\":1}],\"kernels\":[{\"name\":\"k\",\"count\":1,\"totalUs\":4}],"
         "\"kernelCoreTypes\":[],\"errors\":[]}";
}

TEST(RunsFetch, AscendFolderFetchesTheFirstProfilesOperators) {
  RunsView v;
  runs_view_set_folder(&v, kAscend);
  EXPECT_EQ(v.paths[7], "f/run/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json");
  runs_fetch_folder(&v);
  std::vector<Step> log;
  const std::string answer = perform(&v, &log, [](const Step&) { return ops_reply("MatMul"); });
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].kind, "frames");
  EXPECT_EQ(log[1].kind, "request");
  EXPECT_EQ(field(log[1], "type"), "runsStats");
  EXPECT_EQ(field(log[1], "kind"), "ascend");
  EXPECT_EQ(field(log[1], "groupByShape"), "false");
  EXPECT_EQ(log[1].files,
            (std::vector<std::pair<std::string, int>>{{"a/operator_details.csv", 0}}));
  EXPECT_EQ(answer,
            "{\"runs\":[{\"name\":\"run\",\"workers\":[{\"name\":\"rank0\",\"spans\":[\"\"]},"
            "{\"name\":\"rank1\",\"spans\":[\"\"]}]}]}");
  ASSERT_TRUE(v.has_ops);  // the reply reached the table
  ASSERT_EQ(v.ops.size(), 1u);
  EXPECT_EQ(v.ops[0].name, "MatMul");
}

TEST(RunsFetch, SelectResolvesNamesAndKeepsReplies) {
  RunsView v;
  runs_view_set_folder(&v, kAscend);
  runs_fetch_folder(&v);
  std::vector<Step> log;
  perform(&v, &log, [](const Step&) { return ops_reply("MatMul"); });

  // rank1 has no kernel_details.csv: its Kernel view is disabled, so nothing is fetched.
  runs_fetch_select(&v, "{\"worker\":\"rank1\",\"view\":\"kernel\"}");
  log.clear();
  EXPECT_EQ(perform(&v, &log, [](const Step&) { return std::string("{}"); }),
            "{\"run\":\"run\",\"worker\":\"rank1\",\"span\":\"\",\"view\":\"Kernel\"}");
  EXPECT_EQ(log.size(), 1u);
  EXPECT_EQ(v.profile, 1);
  EXPECT_EQ(v.view, static_cast<int>(RunView::kKernel));

  runs_fetch_select(&v, "{\"worker\":\"rank7\"}");
  log.clear();
  EXPECT_EQ(perform(&v, &log, [](const Step&) { return std::string("{}"); }), "null");
  EXPECT_EQ(v.profile, 1);  // unchanged

  // Back on rank0's Operator view: its reply is kept, so no request.
  runs_fetch_select(&v, "{\"worker\":\"rank0\",\"view\":\"Operator\"}");
  log.clear();
  perform(&v, &log, [](const Step&) { return std::string("{}"); });
  EXPECT_EQ(log.size(), 1u);
  EXPECT_TRUE(v.has_ops);

  // Grouped by shape is another table: fetched again, with the grouping in the message.
  runs_fetch_select(&v, "{\"groupByShape\":true}");
  log.clear();
  perform(&v, &log, [](const Step&) { return ops_reply("MatMul"); });
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(field(log[0], "groupByShape"), "true");
}

TEST(RunsFetch, StatsFetchesEveryEnabledTableAndAnswersFromTheReplies) {
  RunsView v;
  runs_view_set_folder(&v, kAscend);
  runs_fetch_folder(&v);
  std::vector<Step> log;
  perform(&v, &log, [](const Step&) { return ops_reply("MatMul"); });
  runs_fetch_stats(&v);
  log.clear();
  const std::string answer = perform(&v, &log, [](const Step& s) {
    if (s.files.size() > 2)
      return std::string("{\"distributed\":[{\"card\":0},{\"card\":1}],\"errors\":[\"late\"]}");
    return ops_reply("Kern");
  });
  ASSERT_EQ(log.size(), 3u);  // kernels, distributed (operators are kept)
  EXPECT_EQ(log[0].files, (std::vector<std::pair<std::string, int>>{{"a/kernel_details.csv", 1}}));
  EXPECT_EQ(log[1].files,
            (std::vector<std::pair<std::string, int>>{{"card0/step_trace_time.csv", 2},
                                                      {"card1/step_trace_time.csv", 6},
                                                      {"card1/communication.json", 7}}));
  EXPECT_EQ(field(log[1], "cards"), "2");
  std::vector<JsonMember> m;
  ASSERT_TRUE(json_object_members(answer, &m)) << answer;
  EXPECT_EQ(json_member(m, "selection", ""),
            "{\"run\":\"run\",\"worker\":\"rank0\",\"span\":\"\",\"view\":\"Operator\"}");
  EXPECT_NE(json_member(m, "operators", "").find("MatMul"), std::string_view::npos);
  EXPECT_EQ(json_member(m, "kernels", ""), "[{\"name\":\"k\",\"count\":1,\"totalUs\":4}]");
  EXPECT_EQ(json_member(m, "distributed", ""), "[{\"card\":0},{\"card\":1}]");
  EXPECT_EQ(json_member(m, "errors", ""), "[\"late\"]");
  EXPECT_NE(json_member(m, "views", "").find("\"Kernel\":{\"enabled\":true"),
            std::string_view::npos);
}

TEST(RunsFetch, KinetoDistributedLoadsEachWorkersTraceInTurn) {
  RunsView v;
  runs_view_set_folder(&v, kKineto);
  ASSERT_EQ(v.discovery.runs.size(), 2u);
  runs_fetch_folder(&v);
  std::vector<Step> log;
  perform(&v, &log, [](const Step&) { return ops_reply("aten::mm"); });
  // frames, open worker0's trace, its one request (operators and kernels both), done.
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[1].kind, "open");
  EXPECT_EQ(log[1].entry, 0);
  EXPECT_EQ(field(log[2], "kind"), "trace");
  EXPECT_EQ(field(log[2], "card"), "0");
  EXPECT_EQ(v.fetch.loaded_key, "0/0");
  EXPECT_EQ(v.status, "");

  // Kernel: the same pass answered it.
  runs_fetch_select(&v, "{\"view\":\"Kernel\"}");
  log.clear();
  perform(&v, &log, [](const Step&) { return std::string("{}"); });
  EXPECT_EQ(log.size(), 1u);
  EXPECT_TRUE(v.has_kernels);

  // Distributed: worker0 is loaded; worker1 is opened, and the rows of both join.
  runs_fetch_select(&v, "{\"view\":\"Distributed\"}");
  log.clear();
  int card = 0;
  perform(&v, &log, [&](const Step& s) {
    return "{\"distributed\":[{\"card\":" + field(s, "card") +
           "}],\"errors\":[],\"n\":" + std::to_string(card++) + "}";
  });
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(field(log[0], "card"), "0");
  EXPECT_EQ(log[1].kind, "open");
  EXPECT_EQ(log[1].entry, 1);
  EXPECT_EQ(field(log[2], "card"), "1");
  ASSERT_EQ(v.cards.size(), 2u);
  EXPECT_EQ(v.cards[1].card, 1);
  EXPECT_EQ(v.fetch.loaded_key, "0/1");
}

TEST(RunsFetch, TraceViewOpensTheProfileThenShowsItsTab) {
  RunsView v;
  runs_view_set_folder(&v, kAscend);
  runs_fetch_select(&v, "{\"view\":\"trace\"}");
  std::vector<Step> log;
  perform(&v, &log, [](const Step&) { return std::string("{}"); });
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[0].entry, 3);  // trace_view.json, then the memory CSV with it
  EXPECT_EQ(log[1].entry, 4);
  EXPECT_EQ(log[2].kind, "frames");
  EXPECT_TRUE(log[2].show_profile_tab);
  // Memory of the same profile: the engine holds it already.
  runs_fetch_select(&v, "{\"view\":\"memory\"}");
  log.clear();
  perform(&v, &log, [](const Step&) { return std::string("{}"); });
  EXPECT_EQ(log.size(), 2u);
}

TEST(RunsFetch, DiffSidesAnswerAndFailures) {
  RunsView v;
  runs_view_set_folder(&v, kKineto);
  std::vector<Step> log;
  runs_fetch_diff(
      &v, "{\"a\":{\"run\":0,\"profile\":1},\"b\":{\"run\":1,\"profile\":0},\"step\":\"3\"}");
  const std::string answer = perform(&v, &log, [](const Step& s) {
    return field(s, "kind") == "diff" ? std::string("{\"operatorDiff\":[],\"errors\":[]}")
                                      : std::string("{\"errors\":[]}");
  });
  // open a side, keep it as "a"; open b, keep it as "b"; the diff at step 3.
  ASSERT_EQ(log.size(), 6u);
  EXPECT_EQ(log[0].entry, 1);
  EXPECT_EQ(field(log[1], "slot"), "a");
  EXPECT_EQ(log[2].entry, 2);
  EXPECT_EQ(field(log[3], "slot"), "b");
  EXPECT_EQ(field(log[4], "step"), "3");
  EXPECT_EQ(answer,
            "{\"operatorDiff\":[],\"errors\":[],\"a\":{\"run\":0,\"profile\":1},"
            "\"b\":{\"run\":1,\"profile\":0}}");
  EXPECT_TRUE(v.has_diff);
  EXPECT_EQ(v.diff_a, 1);
  EXPECT_EQ(v.diff_b, 2);

  runs_fetch_diff(&v, "{\"a\":{\"run\":4,\"profile\":0}}");
  log.clear();
  EXPECT_NE(perform(&v, &log, [](const Step&) { return std::string("{}"); })
                .find("runsDiff: no such profile"),
            std::string::npos);

  // A step that fails ends the goal; the status line says why.
  runs_fetch_diff(&v, "");  // the selected profile (0, 0) against the next (0, 1)
  const Step first = parse(runs_fetch_next(&v, ""));
  EXPECT_EQ(first.kind, "open");
  EXPECT_EQ(first.entry, 0);
  EXPECT_NE(runs_fetch_failed(&v, "gone").find("[\"gone\"]"), std::string::npos);
  EXPECT_EQ(v.status, "gone");
  EXPECT_EQ(parse(runs_fetch_next(&v, "")).answer, "null");
}

TEST(RunsFetch, NoFolderAnswersEmpty) {
  RunsView v;
  runs_fetch_stats(&v);
  EXPECT_EQ(parse(runs_fetch_next(&v, "")).answer,
            "{\"runs\":[],\"selection\":null,\"operators\":[],\"kernels\":[],\"distributed\":[]}");
  runs_fetch_select(&v, "{}");
  EXPECT_EQ(parse(runs_fetch_next(&v, "")).answer, "null");
  runs_view_set_folder(&v, "readme.md\n");
  runs_fetch_folder(&v);
  EXPECT_EQ(parse(runs_fetch_next(&v, "")).answer, "{\"runs\":[]}");
  EXPECT_NE(v.status.find("No profiler runs"), std::string::npos);
}

// A folder of files that hold no runs (no profiler folders, no JSON traces whose heads could
// name ranks) leaves the Runs tab's folder, selection and fetched tables as they were; its
// answer says there are no runs, so the page opens the files as files.
TEST(RunsFetch, AFolderWithoutRunsLeavesTheTabAsItWas) {
  EXPECT_TRUE(runs_view_folder_may_hold_runs(kAscend));
  EXPECT_TRUE(runs_view_folder_may_hold_runs(kKineto));
  EXPECT_TRUE(runs_view_folder_may_hold_runs("job/trace.json\n"));  // its head may name a rank
  const std::string shots = "shots/plot.png\nshots/archive.zip\n";
  EXPECT_FALSE(runs_view_folder_may_hold_runs(shots));
  RunsView v;
  runs_view_set_folder(&v, kAscend);
  runs_view_select(&v, 0, 1, 0);
  const std::vector<std::string> paths = v.paths;
  const std::string status = v.status;
  runs_fetch_no_runs(&v);
  EXPECT_EQ(parse(runs_fetch_next(&v, "")).answer, "{\"runs\":[]}");
  EXPECT_EQ(v.paths, paths);
  EXPECT_EQ(v.discovery.runs.size(), 1u);
  EXPECT_EQ(v.profile, 1);
  EXPECT_EQ(v.status, status);
}

TEST(RunPlan, ResolveCardsAndPaths) {
  const RunDiscovery d =
      discover_runs({"tb/a/worker0.1.pt.trace.json", "tb/a/worker0.2.pt.trace.json",
                     "tb/a/host.1.pt.trace.json", "tb/b/rank3.pt.trace.json"});
  ASSERT_EQ(d.runs.size(), 2u);
  RunsSelection s;
  RunsQuery q;
  q.has_run = q.run_by_name = true;
  q.run_name = "b";
  ASSERT_TRUE(runs_resolve(d, {}, q, &s));
  EXPECT_EQ(s.run, 1);
  EXPECT_EQ(s.profile, 0);
  q = RunsQuery{};
  q.has_worker = true;
  q.worker = "worker0";
  ASSERT_TRUE(runs_resolve(d, {}, q, &s));  // the worker's first span
  EXPECT_EQ(d.runs[0].profiles[static_cast<size_t>(s.profile)].span, "1");
  q.has_span = true;
  q.span = "2";
  ASSERT_TRUE(runs_resolve(d, {}, q, &s));
  EXPECT_EQ(d.runs[0].profiles[static_cast<size_t>(s.profile)].span, "2");
  q.span = "9";
  EXPECT_FALSE(runs_resolve(d, {}, q, &s));
  q = RunsQuery{};
  q.has_view = true;
  q.view = "DISTRIBUTED";
  ASSERT_TRUE(runs_resolve(d, {}, q, &s));
  EXPECT_EQ(s.view, static_cast<int>(RunView::kDistributed));
  q.view = "overview";
  EXPECT_FALSE(runs_resolve(d, {}, q, &s));

  EXPECT_EQ(runs_card_of(d.runs[1], d.runs[1].profiles[0]), 3);  // rank3
  const DiscoveredRun& a = d.runs[0];
  for (const DiscoveredProfile& p : a.profiles)
    if (p.worker == "host") {
      EXPECT_EQ(runs_card_of(a, p), 0);  // no digits: its place ("host" < "worker0")
    }

  RunsProfileRef x, y;
  runs_default_diff_pair(d, RunsSelection{1, 0, 0}, &x, &y);  // the last: wraps to the first
  EXPECT_EQ(x.run, 1);
  EXPECT_EQ(y.run, 0);
  EXPECT_EQ(y.profile, 0);

  EXPECT_EQ(runs_normal_path(".\\a\\b"), "a/b");
  EXPECT_EQ(runs_normal_path("//a/b"), "a/b");
  EXPECT_EQ(runs_normal_path(".a/b"), ".a/b");
}

TEST(JsonMembers, SplitsAnObjectAndJoinsArrays) {
  std::vector<JsonMember> m;
  ASSERT_TRUE(
      json_object_members(" { \"a\" : [1, {\"x\":\"]\"}], \"b\":\"s\\\"}\" ,\"c\":-2.5e3 } ", &m));
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].value, "[1, {\"x\":\"]\"}]");
  EXPECT_EQ(m[1].value, "\"s\\\"}\"");
  EXPECT_EQ(m[2].value, "-2.5e3");
  EXPECT_EQ(json_member(m, "z", "none"), "none");
  EXPECT_FALSE(json_object_members("[1]", &m));
  EXPECT_FALSE(json_object_members("{\"a\":", &m));
  EXPECT_TRUE(json_object_members("{}", &m));
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(json_array_concat("[1]", " [ 2,3 ] "), "[1,2,3]");
  EXPECT_EQ(json_array_concat("[]", "[2]"), "[2]");
  EXPECT_EQ(json_array_concat("null", "[]"), "[]");
}

// JSON traces whose names say nothing: their heads are read first (one head request each),
// the runs found again with the ranks the replies give, then the first rank's trace opens.
TEST(RunsFetch, FolderReadsTheHeadsOfUnnamedTracesForTheirRanks) {
  RunsView v;
  runs_view_set_folder(&v, "job/first.json.gz\njob/second.json.gz\njob/notes.txt\n");
  EXPECT_TRUE(v.discovery.runs.empty());
  runs_fetch_folder(&v);
  std::vector<Step> log;
  const std::string answer = perform(&v, &log, [](const Step& s) {
    if (field(s, "kind") == "head")
      return std::string(s.files[0].second == 0 ? R"({"rank":1,"worldSize":2,"errors":[]})"
                                                : R"({"rank":0,"worldSize":2,"errors":[]})");
    return ops_reply("aten::mm");
  });
  ASSERT_GE(log.size(), 4u);
  EXPECT_EQ(field(log[0], "kind"), "head");
  EXPECT_EQ(log[0].files, (std::vector<std::pair<std::string, int>>{{"head", 0}}));
  EXPECT_EQ(log[1].files, (std::vector<std::pair<std::string, int>>{{"head", 1}}));
  EXPECT_EQ(log[2].kind, "frames");
  EXPECT_EQ(log[3].kind, "open");
  EXPECT_EQ(log[3].entry, 1);  // rank0's trace is the second file
  ASSERT_EQ(v.discovery.runs.size(), 1u);
  EXPECT_EQ(v.discovery.runs[0].workers, (std::vector<std::string>{"rank0", "rank1"}));
  EXPECT_NE(answer.find(R"({"name":"rank0","spans":[""]})"), std::string::npos) << answer;
}

}  // namespace
}  // namespace strata::testing
