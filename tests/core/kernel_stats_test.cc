// Kernel Stats and Framework Op Stats (engine/analysis) on real Kineto traces: every kernel's
// count and total equal a sum over the trace's kernel events done here; launch parameters
// equal each kernel record's args; every framework op's device time equals the time of the
// device events whose "correlation" id is that of a runtime call nested in the op, matched
// here from the records' args (not through the flows the analysis follows).
#include "engine/analysis/kernel_stats.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "core/query/hierarchy.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/engine.h"
#include "import_test_util.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

bool import_shared_gz(const char* rel, std::string* json, testing::ImportResult* r) {
  std::string gz;
  if (!testing::read_shared(rel, &gz)) return false;
  EXPECT_TRUE(testing::gunzip(gz, json));
  *r = testing::import_json(*json);
  EXPECT_FALSE(r->failed) << r->failure;
  return true;
}

// The record's args, flattened: key → line (depth-1 members of "args"), arrays as "a,b,c".
std::map<std::string, std::string> record_args(const TraceStore& s, const std::string& json,
                                               uint32_t e) {
  std::vector<JsonLine> lines;
  std::string error;
  std::map<std::string, std::string> out;
  if (!json_flatten(std::string_view(json).substr(s.events.src_offset[e], s.events.src_len[e]),
                    &lines, &error))
    return out;
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (keys.size() < 1 || keys[0] != "args") return;
    if (l.depth == 1 && l.kind != 'a' && l.kind != 'o') out[l.key] = l.value;
    if (l.depth == 2 && keys.size() >= 2) {
      std::string& v = out[keys[1]];
      v += (v.empty() ? "" : ",") + l.value;
    }
  });
  return out;
}

size_t column(const AnalysisTable& t, const std::string& key) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == key) return i;
  ADD_FAILURE() << "no column " << key;
  return 0;
}

double number(const AnalysisRow& r, size_t c) {
  EXPECT_EQ(r.cells[c].kind, AnalysisCell::Kind::kNumber) << r.cells[0].text;
  return r.cells[c].number;
}

constexpr const char* kBert =
    "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz";
constexpr const char* kResnet =
    "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz";

void check_kernel_totals(const TraceStore& s, const std::string& json, const char* kernel_cat,
                         bool has_launch_args) {
  // Independently: the kernel events by name.
  struct Sum {
    uint64_t count = 0;
    TimeNs total = 0, min = INT64_MAX, max = 0;
    std::set<std::string> grids, regs;
  };
  std::map<std::string, Sum> want;
  TimeNs all = 0;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    if (testing::name_of(s, s.events.cat[e]) != kernel_cat) continue;
    Sum& w = want[testing::name_of(s, s.events.name[e])];
    const TimeNs d = s.events.dur[e];
    ++w.count, w.total += d, all += d;
    w.min = std::min(w.min, d), w.max = std::max(w.max, d);
    if (has_launch_args) {
      auto args = record_args(s, json, e);
      w.grids.insert(args["grid"]);
      w.regs.insert(args["registers per thread"]);
    }
  }
  ASSERT_FALSE(want.empty());
  const AnalysisTable t = kernel_stats_table(s);
  EXPECT_TRUE(t.errors.empty());
  const size_t c_count = column(t, "count"), c_total = column(t, "total"), c_min = column(t, "min"),
               c_max = column(t, "max"), c_pct = column(t, "pct"), c_grid = column(t, "grid"),
               c_regs = column(t, "registers");
  size_t tops = 0;
  double pct_sum = 0, prev_total = 1e300;
  std::map<size_t, std::pair<double, double>> child_sums;  // parent row → (count, total)
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const AnalysisRow& r = t.rows[i];
    if (r.parent >= 0) {
      auto& cs = child_sums[static_cast<size_t>(r.parent)];
      cs.first += number(r, c_count), cs.second += number(r, c_total);
      continue;
    }
    ++tops;
    const std::string name = r.cells[0].text;
    ASSERT_TRUE(want.count(name)) << name;
    const Sum& w = want[name];
    EXPECT_EQ(number(r, c_count), static_cast<double>(w.count)) << name;
    EXPECT_EQ(number(r, c_total), static_cast<double>(w.total)) << name;
    EXPECT_EQ(number(r, c_min), static_cast<double>(w.min)) << name;
    EXPECT_EQ(number(r, c_max), static_cast<double>(w.max)) << name;
    EXPECT_LE(number(r, c_total), prev_total);  // largest first
    prev_total = number(r, c_total);
    pct_sum += number(r, c_pct);
    EXPECT_EQ(r.link.name, name);
    if (has_launch_args && w.grids.size() == 1 && !w.grids.begin()->empty()) {
      // One configuration: the cell shows it ("564×1×1" for [564, 1, 1]).
      std::string g = *w.grids.begin();
      for (size_t p; (p = g.find(',')) != std::string::npos;) g.replace(p, 1, "\xC3\x97");
      EXPECT_EQ(r.cells[c_grid].text, g) << name;
      EXPECT_EQ(number(r, c_regs), std::stod(*w.regs.begin())) << name;
    } else if (has_launch_args && w.grids.size() > 1) {
      EXPECT_EQ(r.cells[c_grid].kind, AnalysisCell::Kind::kEmpty) << name;
      EXPECT_FALSE(r.cells[c_grid].why.empty());
    }
  }
  EXPECT_EQ(tops, want.size());
  EXPECT_NEAR(pct_sum, 100.0, 1e-6);
  // The rows beneath a kernel split it: their counts and totals add up to the kernel's.
  for (const auto& [parent, cs] : child_sums) {
    EXPECT_EQ(cs.first, number(t.rows[parent], c_count));
    EXPECT_EQ(cs.second, number(t.rows[parent], c_total));
  }
}

TEST(KernelStats, TotalsAndLaunchParametersOfARealKinetoTrace) {
  std::string json;
  testing::ImportResult r;
  if (!import_shared_gz(kBert, &json, &r)) GTEST_SKIP();
  EXPECT_GT(r.store->kernel_launches.rows.size(), 0u);
  check_kernel_totals(*r.store, json, "kernel", true);
}

TEST(KernelStats, OlderKinetoCategories) {
  std::string json;
  testing::ImportResult r;
  if (!import_shared_gz(kResnet, &json, &r)) GTEST_SKIP();
  check_kernel_totals(*r.store, json, "Kernel", false);
}

TEST(KernelStats, TensorCoreHeuristicAndLaunchArgsFromASmallTrace) {
  const std::string doc = R"({"traceEvents":[
    {"ph":"X","cat":"kernel","name":"volta_h884gemm_64x64","pid":0,"tid":7,"ts":10,"dur":4,
     "args":{"grid":[8,2,1],"block":[256,1,1],"registers per thread":96,"shared memory":49152,
             "est. achieved occupancy %":25}},
    {"ph":"X","cat":"kernel","name":"volta_h884gemm_64x64","pid":0,"tid":7,"ts":20,"dur":12,
     "args":{"grid":[8,2,1],"block":[256,1,1],"registers per thread":96,"shared memory":49152,
             "est. achieved occupancy %":50}},
    {"ph":"X","cat":"kernel","name":"elementwise","pid":0,"tid":7,"ts":40,"dur":2,
     "args":{"grid":[1,1,1]}},
    {"ph":"X","cat":"kernel","name":"elementwise","pid":0,"tid":7,"ts":50,"dur":2,
     "args":{"grid":[2,1,1]}}
  ]})";
  testing::ImportResult r = testing::import_json(doc);
  ASSERT_FALSE(r.failed);
  EXPECT_EQ(r.store->kernel_launches.rows.size(), 4u);
  const AnalysisTable t = kernel_stats_table(*r.store);
  ASSERT_EQ(t.rows.size(), 2u);  // no framework ops: nothing beneath
  const AnalysisRow& gemm = t.rows[0];
  EXPECT_EQ(gemm.cells[0].text, "volta_h884gemm_64x64");
  EXPECT_EQ(gemm.cells[column(t, "grid")].text,
            "8\xC3\x97"
            "2\xC3\x97"
            "1");
  EXPECT_EQ(gemm.cells[column(t, "block")].text,
            "256\xC3\x97"
            "1\xC3\x97"
            "1");
  EXPECT_EQ(number(gemm, column(t, "registers")), 96);
  EXPECT_EQ(number(gemm, column(t, "shared_memory")), 49152);
  EXPECT_DOUBLE_EQ(number(gemm, column(t, "occupancy")), (4 * 25.0 + 12 * 50.0) / 16);
  EXPECT_EQ(gemm.cells[column(t, "tensor_core")].text, "yes");
  EXPECT_NE(t.columns[column(t, "tensor_core")].tip.find("heuristic"), std::string::npos);
  const AnalysisRow& ew = t.rows[1];
  EXPECT_EQ(ew.cells[column(t, "tensor_core")].text, "no");
  EXPECT_EQ(ew.cells[column(t, "grid")].kind, AnalysisCell::Kind::kEmpty);  // 1×1×1 and 2×1×1
  EXPECT_EQ(ew.cells[column(t, "registers")].kind, AnalysisCell::Kind::kEmpty);
  EXPECT_FALSE(ew.cells[column(t, "registers")].why.empty());
  EXPECT_TRUE(kernel_name_uses_tensor_cores("sm80_xmma_gemm_f16f16_f16f32"));
  EXPECT_FALSE(kernel_name_uses_tensor_cores("vectorized_elementwise_kernel"));
}

// XPlane GPUs: a device plane's compute stream lines are its kernels (not its memcpy streams);
// every kernel row adds up those lines' events of its name.
TEST(KernelStats, XplaneGpuStreams) {
  std::string bytes;
  if (!testing::read_shared("xplane/xprof/34.83.195.179_6003.xplane.pb", &bytes)) GTEST_SKIP();
  Engine engine;
  ASSERT_TRUE(testing::engine_load(&engine, bytes));
  const TraceStore& s = *engine.store();
  std::map<std::string, std::pair<uint64_t, TimeNs>> want;
  for (const Track& t : s.tracks) {
    const std::string plane = testing::name_of(s, s.processes[t.process].name);
    const std::string line = testing::name_of(s, t.name);
    if (plane.find("/device:GPU:") == std::string::npos || line.rfind("Stream #", 0) != 0 ||
        line.find("Memcpy") != std::string::npos)
      continue;
    for (uint32_t e = t.first_event; e < t.first_event + t.event_count; ++e) {
      auto& w = want[testing::name_of(s, s.events.name[e])];
      ++w.first, w.second += s.events.dur[e];
    }
  }
  ASSERT_FALSE(want.empty());
  std::string why;
  EXPECT_TRUE(kernel_stats_available(engine, &why)) << why;
  const AnalysisTable t = kernel_stats_table(s);
  size_t tops = 0;
  for (const AnalysisRow& r : t.rows) {
    if (r.parent >= 0) continue;
    ++tops;
    const auto& w = want[r.cells[0].text];
    EXPECT_EQ(number(r, column(t, "count")), static_cast<double>(w.first)) << r.cells[0].text;
    EXPECT_EQ(number(r, column(t, "total")), static_cast<double>(w.second)) << r.cells[0].text;
    // Launch parameters come from the kernels' kernel_details stat: a count where the file
    // gives a plausible one, else empty with the reason.
    const AnalysisCell& regs = r.cells[column(t, "registers")];
    if (regs.kind == AnalysisCell::Kind::kNumber)
      EXPECT_LE(regs.number, 512) << r.cells[0].text;
    else
      EXPECT_FALSE(regs.why.empty());
  }
  EXPECT_EQ(tops, want.size());
}

// The runtime call's innermost enclosing framework op (walking parents), or kNone.
uint32_t enclosing_op(const TraceStore& s, uint32_t e, const std::string& op_cat) {
  for (uint32_t p = parent_of(s, e); p != kNone; p = parent_of(s, p))
    if (testing::name_of(s, s.events.cat[p]) == op_cat) return p;
  return kNone;
}

void check_framework_device_time(const TraceStore& s, const std::string& json,
                                 const std::string& op_cat,
                                 const std::set<std::string>& runtime_cats,
                                 const std::set<std::string>& device_cats) {
  std::map<std::string, TimeNs> device_by_corr;
  std::map<std::string, std::vector<uint32_t>> runtimes_by_corr;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    const std::string cat = testing::name_of(s, s.events.cat[e]);
    if (device_cats.count(cat)) {
      const std::string c = record_args(s, json, e)["correlation"];
      if (!c.empty()) device_by_corr[c] += s.events.dur[e];
    } else if (runtime_cats.count(cat)) {
      const std::string c = record_args(s, json, e)["correlation"];
      if (!c.empty()) runtimes_by_corr[c].push_back(e);
    }
  }
  std::map<std::string, TimeNs> want_total, want_self;
  TimeNs launched = 0;
  for (const auto& [corr, runtimes] : runtimes_by_corr) {
    auto d = device_by_corr.find(corr);
    if (d == device_by_corr.end()) continue;
    ASSERT_EQ(runtimes.size(), 1u) << corr;
    const uint32_t inner = enclosing_op(s, runtimes[0], op_cat);
    if (inner == kNone) continue;
    launched += d->second;
    want_self[testing::name_of(s, s.events.name[inner])] += d->second;
    for (uint32_t p = inner; p != kNone; p = enclosing_op(s, p, op_cat))
      want_total[testing::name_of(s, s.events.name[p])] += d->second;
  }
  ASSERT_GT(launched, 0);
  const AnalysisTable t = framework_op_stats_table(s);
  const size_t c_total = column(t, "device_total"), c_self = column(t, "device_self"),
               c_count = column(t, "count"), c_host = column(t, "host_total"),
               c_host_self = column(t, "host_self");
  std::map<std::string, std::pair<uint64_t, TimeNs>> host;  // name → (count, host total)
  for (uint32_t e = 0; e < s.events.size(); ++e)
    if (testing::name_of(s, s.events.cat[e]) == op_cat) {
      auto& h = host[testing::name_of(s, s.events.name[e])];
      ++h.first, h.second += s.events.dur[e];
    }
  EXPECT_EQ(t.rows.size(), host.size());
  size_t with_device = 0;
  for (const AnalysisRow& r : t.rows) {
    const std::string name = r.cells[0].text;
    EXPECT_EQ(number(r, c_count), static_cast<double>(host[name].first)) << name;
    EXPECT_EQ(number(r, c_host), static_cast<double>(host[name].second)) << name;
    EXPECT_LE(number(r, c_host_self), number(r, c_host)) << name;
    EXPECT_EQ(number(r, c_total), static_cast<double>(want_total[name])) << name;
    EXPECT_EQ(number(r, c_self), static_cast<double>(want_self[name])) << name;
    with_device += want_total[name] > 0;
  }
  EXPECT_GT(with_device, 3u);
}

TEST(FrameworkOpStats, DeviceTimeIsWhatTheOpsRuntimeCallsLaunched) {
  std::string json;
  testing::ImportResult r;
  if (!import_shared_gz(kBert, &json, &r)) GTEST_SKIP();
  check_framework_device_time(*r.store, json, "cpu_op", {"cuda_runtime", "cuda_driver"},
                              {"kernel", "gpu_memcpy", "gpu_memset"});
}

TEST(FrameworkOpStats, OlderKinetoCategories) {
  std::string json;
  testing::ImportResult r;
  if (!import_shared_gz(kResnet, &json, &r)) GTEST_SKIP();
  check_framework_device_time(*r.store, json, "Operator", {"Runtime"},
                              {"Kernel", "Memcpy", "Memset"});
}

}  // namespace
}  // namespace strata
