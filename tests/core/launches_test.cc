// launched_by (core/query/launches): what a slice caused on other processes, through the flows
// of it and its nested slices. On a real Kineto trace this must be exactly what the records'
// "External id" args say an operator launched: every kernel, memcpy and memset whose
// "external id" is the operator's. Checked for every operator with no operator nested in it.
#include "core/query/launches.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "core/query/hierarchy.h"
#include "import_test_util.h"

namespace strata {
namespace {

// args["External id"] (operators) or args["external id"] (runtime calls, device events) of
// event e's record; -1 when it has none.
int64_t external_id(const TraceStore& s, const std::string& json, uint32_t e, bool upper) {
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(std::string_view(json).substr(s.events.src_offset[e], s.events.src_len[e]),
                    &lines, &error))
    return -1;
  int64_t id = -1;
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (l.depth == 1 && keys[0] == "args" && l.key == (upper ? "External id" : "external id"))
      id = static_cast<int64_t>(json_number(l));
  });
  return id;
}

struct ExternalIdCheck {
  size_t innermost = 0;  // operators with no operator nested in them
  size_t launching = 0;  // of those, the ones that launched something
};

// Compares launched_by with the records' ids for every innermost operator of a Kineto trace
// (category `op_cat`; device events: categories `device_cats`).
void check_external_ids(const TraceStore& s, const std::string& json, const std::string& op_cat,
                        const std::set<std::string>& device_cats, ExternalIdCheck* out) {
  // Independently of the flows: device events by the id in their records.
  std::map<int64_t, std::set<uint32_t>> device_by_id;
  std::vector<uint32_t> ops;
  std::map<uint32_t, int64_t> op_id;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    const std::string cat = testing::name_of(s, s.events.cat[e]);
    if (device_cats.count(cat)) {
      int64_t id = external_id(s, json, e, false);
      if (id < 0) id = external_id(s, json, e, true);  // newer Kineto: "External id" everywhere
      if (id >= 0) device_by_id[id].insert(e);
    } else if (cat == op_cat) {
      int64_t id = external_id(s, json, e, true);
      if (id >= 0) ops.push_back(e), op_id[e] = id;
    }
  }
  for (uint32_t op : ops) {
    uint64_t n = 0;
    bool has_op_child = false;
    for (uint32_t c : children_of(s, op, SIZE_MAX, &n))
      has_op_child |= testing::name_of(s, s.events.cat[c]) == op_cat;
    if (has_op_child) continue;  // its runtime calls may belong to the nested operators
    ++out->innermost;
    const std::set<uint32_t>& want = device_by_id[op_id[op]];
    const Launched got = launched_by(s, op, SIZE_MAX);
    ASSERT_EQ(std::set<uint32_t>(got.events.begin(), got.events.end()), want)
        << testing::name_of(s, s.events.name[op]) << " External id " << op_id[op];
    ASSERT_EQ(got.count, want.size());
    TimeNs total = 0;
    for (uint32_t d : want) total += s.events.dur[d];
    EXPECT_EQ(got.total_ns, total);
    out->launching += !want.empty();
  }
}

bool import_shared_gz(const char* rel, std::string* json, testing::ImportResult* r) {
  std::string gz;
  if (!testing::read_shared(rel, &gz)) return false;
  EXPECT_TRUE(testing::gunzip(gz, json));
  *r = testing::import_json(*json);
  EXPECT_FALSE(r->failed) << r->failure;
  return true;
}

// 2021 Kineto (tb_plugin's ResNet-50 sample): categories Operator / Kernel / Memcpy / Memset,
// "External id" on operators, "external id" on device events, s/f flows.
TEST(Launches, KinetoOperatorsLaunchWhatTheirExternalIdSays) {
  std::string json;
  testing::ImportResult r;
  if (!import_shared_gz("pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/"
                        "worker0.1623143566756.pt.trace.json.gz",
                        &json, &r))
    GTEST_SKIP();
  ExternalIdCheck c;
  check_external_ids(*r.store, json, "Operator", {"Kernel", "Memcpy", "Memset"}, &c);
  EXPECT_GT(c.innermost, 1000u);
  EXPECT_GT(c.launching, 500u);
  // An outer operator (a training step) gathers its nested operators' launches.
  const int64_t step = testing::find_event(*r.store, "ProfilerStep#16");
  ASSERT_GE(step, 0);
  EXPECT_GT(launched_by(*r.store, static_cast<uint32_t>(step), 10).count, 100u);
}

// 2026 Kineto (a vLLM decode trace): cpu_op / kernel / gpu_memcpy / gpu_memset, "External id"
// everywhere, ac2g flows.
TEST(Launches, NewerKinetoOperatorsToo) {
  std::string json;
  testing::ImportResult r;
  if (!import_shared_gz("pytorch_kineto/tracelens/vllm_decode_full/"
                        "graph_capture_rank_0.1773709742341309550.pt.trace.json.gz",
                        &json, &r))
    GTEST_SKIP();
  ExternalIdCheck c;
  check_external_ids(*r.store, json, "cpu_op", {"kernel", "gpu_memcpy", "gpu_memset"}, &c);
  EXPECT_GT(c.innermost, 1000u);
  EXPECT_GE(c.launching, 3u);
}

TEST(Launches, OnlyFlowsLeavingTheProcessAndEachTargetOnce) {
  // Thread 1 of pid 1: op > two runtime calls, each with a flow to pid 2's kernel; the second
  // also flows to a slice of its own process (a fwd-bwd link), which is not a launch.
  const std::string doc = R"([
    {"ph":"X","name":"op","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","name":"launch1","pid":1,"tid":1,"ts":10,"dur":5},
    {"ph":"X","name":"launch2","pid":1,"tid":1,"ts":20,"dur":5},
    {"ph":"X","name":"bwd","pid":1,"tid":2,"ts":200,"dur":5},
    {"ph":"X","name":"k1","pid":2,"tid":7,"ts":30,"dur":40},
    {"ph":"X","name":"k2","pid":2,"tid":7,"ts":80,"dur":10},
    {"ph":"s","id":1,"pid":1,"tid":1,"ts":11,"cat":"ac2g","name":"f"},
    {"ph":"f","id":1,"pid":2,"tid":7,"ts":30,"cat":"ac2g","name":"f","bp":"e"},
    {"ph":"s","id":2,"pid":1,"tid":1,"ts":21,"cat":"ac2g","name":"f"},
    {"ph":"f","id":2,"pid":2,"tid":7,"ts":80,"cat":"ac2g","name":"f","bp":"e"},
    {"ph":"s","id":3,"pid":1,"tid":1,"ts":22,"cat":"fwdbwd","name":"fb"},
    {"ph":"f","id":3,"pid":1,"tid":2,"ts":200,"cat":"fwdbwd","name":"fb","bp":"e"}
  ])";
  testing::ImportResult r = testing::import_json(doc);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  const Launched op = launched_by(s, testing::find_event(s, "op"), 10);
  ASSERT_EQ(op.count, 2u);
  std::set<std::string> names;
  for (uint32_t e : op.events) names.insert(testing::name_of(s, s.events.name[e]));
  EXPECT_EQ(names, (std::set<std::string>{"k1", "k2"}));
  EXPECT_EQ(op.total_ns, 50'000);  // 40 + 10 us
  EXPECT_EQ(op.first_start, 30'000);
  EXPECT_EQ(op.last_end, 90'000);
  EXPECT_EQ(launched_by(s, testing::find_event(s, "launch1"), 10).count, 1u);
  EXPECT_EQ(launched_by(s, testing::find_event(s, "k1"), 10).count, 0u);         // incoming only
  EXPECT_EQ(launched_by(s, testing::find_event(s, "op"), 1).events.size(), 1u);  // limit
  EXPECT_TRUE(op.complete);
  // At most one nested slice looked at: launch1's kernel only, and it says so.
  const Launched part = launched_by(s, testing::find_event(s, "op"), 10, 1);
  EXPECT_FALSE(part.complete);
  ASSERT_EQ(part.count, 1u);
  EXPECT_EQ(testing::name_of(s, s.events.name[part.events[0]]), "k1");
}

}  // namespace
}  // namespace strata
