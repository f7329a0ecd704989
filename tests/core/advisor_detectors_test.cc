// The advisor's detectors on inputs written here: the HLO graph detectors over a module opened
// beside a trace (big unfused data movement, layout-only copies, bf16 → f32 upcasts feeding only
// a reduce) and a module where none of them applies; the low-precision share, debug prints and
// barrier cores from a TPU xplane's XLA Ops; slow DataLoader fetches and GC pauses from a
// trace's events; and rules whose `applies` condition keeps them off other profiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/advisor/advisor.h"
#include "engine/engine.h"
#include "engine/graph_session.h"
#include "engine_test_util.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::load_trace;
using testing::PlaneWriter;
namespace pb = testing::pb;

constexpr const char* kTinyTrace = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"step","cat":"cpu_op"}])";

// 2048 × 2048 f32 = 16 MiB: over the 10 MiB line. A transpose and a layout-only copy outside any
// fusion feed a dot; a bf16 → f32 convert feeds only a reduce.
constexpr const char* kBadModule =
    R"(HloModule bad, entry_computation_layout={(f32[2048,2048]{1,0})->f32[]}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}

ENTRY %main (p: f32[2048,2048]) -> f32[] {
  %p = f32[2048,2048]{1,0} parameter(0)
  %t = f32[2048,2048]{1,0} transpose(f32[2048,2048]{1,0} %p), dimensions={1,0}
  %c = f32[2048,2048]{0,1} copy(f32[2048,2048]{1,0} %p)
  %d = f32[2048,2048]{1,0} dot(f32[2048,2048]{1,0} %t, f32[2048,2048]{0,1} %c), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %h = bf16[2048,2048]{1,0} convert(f32[2048,2048]{1,0} %d)
  %u = f32[2048,2048]{1,0} convert(bf16[2048,2048]{1,0} %h)
  %z = f32[] constant(0)
  ROOT %r = f32[] reduce(f32[2048,2048]{1,0} %u, f32[] %z), dimensions={0,1}, to_apply=%add
}
)";

// The same shapes done right: the transpose is small or inside a fusion (no memory traffic), the
// copy keeps its layout and feeds no dot, the upcast feeds an add before the reduce.
constexpr const char* kGoodModule =
    R"(HloModule good, entry_computation_layout={(f32[2048,2048]{1,0})->f32[]}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}

%fused (fp: f32[2048,2048]) -> f32[2048,2048] {
  %fp = f32[2048,2048]{1,0} parameter(0)
  ROOT %ft = f32[2048,2048]{1,0} transpose(f32[2048,2048]{1,0} %fp), dimensions={1,0}
}

ENTRY %main (p: f32[2048,2048], q: f32[8,8]) -> f32[] {
  %p = f32[2048,2048]{1,0} parameter(0)
  %q = f32[8,8]{1,0} parameter(1)
  %small = f32[8,8]{1,0} transpose(f32[8,8]{1,0} %q), dimensions={1,0}
  %sd = f32[8,8]{1,0} dot(f32[8,8]{1,0} %small, f32[8,8]{1,0} %q), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %f = f32[2048,2048]{1,0} fusion(f32[2048,2048]{1,0} %p), kind=kLoop, calls=%fused
  %d = f32[2048,2048]{1,0} dot(f32[2048,2048]{1,0} %f, f32[2048,2048]{1,0} %p), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %c = f32[2048,2048]{1,0} copy(f32[2048,2048]{1,0} %d)
  %h = bf16[2048,2048]{1,0} convert(f32[2048,2048]{1,0} %c)
  %u = f32[2048,2048]{1,0} convert(bf16[2048,2048]{1,0} %h)
  %e = f32[2048,2048]{1,0} add(f32[2048,2048]{1,0} %u, f32[2048,2048]{1,0} %u)
  %z = f32[] constant(0)
  ROOT %r = f32[] reduce(f32[2048,2048]{1,0} %e, f32[] %z), dimensions={0,1}, to_apply=%add
}
)";

void open_module(Engine* e, const std::string& text) {
  GraphSession& g = e->graph_session();
  std::memcpy(g.buffer(text.size()), text.data(), text.size());
  ASSERT_EQ(g.add(1, "m.hlo", false, -1), 1) << g.error();
}

const AdvisorFinding* finding(const AdvisorReport& r, const std::string& id) {
  for (const AdvisorFinding& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

const AdvisorUnchecked* unchecked(const AdvisorReport& r, const std::string& id) {
  for (const AdvisorUnchecked& u : r.not_checked)
    if (u.id == id) return &u;
  return nullptr;
}

bool passed(const AdvisorReport& r, const std::string& id) {
  return std::find(r.passed.begin(), r.passed.end(), id) != r.passed.end();
}

AdvisorReport report_of(const Engine& e, const AdvisorFigureSet& f) {
  return advise(advisor_default_rules(), f, e.store()->files[0].format);
}

TEST(AdvisorHloGraph, FindsUnfusedMoversLayoutCopiesAndUpcastsWithGraphLinks) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTinyTrace));
  open_module(&e, kBadModule);
  const AdvisorFigureSet f = advisor_figures(e);
  ASSERT_TRUE(f.find("hlo_graph.unfused_movers_count"));
  // The transpose and the copy are 16 MiB each and feed the dot; the two converts are 8 and
  // 16 MiB but feed a convert and a reduce (only the second is a mover into a reduce).
  EXPECT_EQ(f.find("hlo_graph.unfused_movers_count")->value, 3);
  EXPECT_EQ(f.find("hlo_graph.layout_copies_count")->value, 1);
  EXPECT_EQ(f.find("hlo_graph.upcast_reduces_count")->value, 1);
  EXPECT_EQ(f.find("hlo_graph.layout_copies_bytes")->value, 16 << 20);
  const AdvisorReport r = report_of(e, f);
  const AdvisorFinding* movers = finding(r, "unfused_data_movement");
  ASSERT_TRUE(movers);
  EXPECT_EQ(movers->priority, 1);
  ASSERT_EQ(movers->evidence.size(), 3u);
  std::vector<std::string> ops;
  for (const AdvisorEvidence& ev : movers->evidence) {
    EXPECT_EQ(ev.link.module, "bad");
    EXPECT_TRUE(ev.link.name.empty()) << "the trace did not run it: nothing to select";
    ops.push_back(ev.link.op);
  }
  std::sort(ops.begin(), ops.end());
  EXPECT_EQ(ops, (std::vector<std::string>{"c", "t", "u"}));
  const AdvisorFinding* layout = finding(r, "layout_copies");
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout->evidence.size(), 1u);
  EXPECT_EQ(layout->evidence[0].link.op, "c");
  EXPECT_NE(layout->evidence[0].label.find("{1,0} to {0,1}"), std::string::npos)
      << layout->evidence[0].label;
  const AdvisorFinding* upcast = finding(r, "upcast_reduce");
  ASSERT_TRUE(upcast);
  EXPECT_EQ(upcast->evidence[0].link.op, "u");
  EXPECT_NE(upcast->text.find("16.0 MiB"), std::string::npos) << upcast->text;
  // The Report's table row links open the instruction in the Graph tab.
  const std::string t = e.query_json("analysis", R"({"name":"advisor"})");
  EXPECT_NE(t.find(R"("module":"bad")"), std::string::npos);
}

TEST(AdvisorHloGraph, AModuleWithoutThePatternsPasses) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTinyTrace));
  open_module(&e, kGoodModule);
  const AdvisorFigureSet f = advisor_figures(e);
  EXPECT_EQ(f.find("hlo_graph.unfused_movers_count")->value, 0);
  EXPECT_EQ(f.find("hlo_graph.layout_copies_count")->value, 0);
  EXPECT_EQ(f.find("hlo_graph.upcast_reduces_count")->value, 0);
  const AdvisorReport r = report_of(e, f);
  for (const char* id : {"unfused_data_movement", "layout_copies", "upcast_reduce"}) {
    EXPECT_FALSE(finding(r, id)) << id;
    EXPECT_TRUE(passed(r, id)) << id;
  }
}

// A copy whose direct operand already has its layout, but whose data was laid out otherwise two
// ops back (a bitcast re-views the {0,1} parameter as {1,0}): XProf follows the chain. Six ops
// back is past its five hops.
constexpr const char* kChainModule =
    R"(HloModule chain, entry_computation_layout={(f32[64,64]{0,1})->f32[64,64]{1,0}}

ENTRY %main (p: f32[64,64]) -> f32[64,64] {
  %p = f32[64,64]{0,1} parameter(0)
  %b = f32[64,64]{1,0} bitcast(f32[64,64]{0,1} %p)
  ROOT %c = f32[64,64]{1,0} copy(f32[64,64]{1,0} %b)
}
)";
constexpr const char* kLongChainModule =
    R"(HloModule long, entry_computation_layout={(f32[64,64]{0,1})->f32[64,64]{1,0}}

ENTRY %main (p: f32[64,64]) -> f32[64,64] {
  %p = f32[64,64]{0,1} parameter(0)
  %b1 = f32[64,64]{1,0} bitcast(f32[64,64]{0,1} %p)
  %b2 = f32[64,64]{1,0} bitcast(f32[64,64]{1,0} %b1)
  %b3 = f32[64,64]{1,0} bitcast(f32[64,64]{1,0} %b2)
  %b4 = f32[64,64]{1,0} bitcast(f32[64,64]{1,0} %b3)
  %b5 = f32[64,64]{1,0} bitcast(f32[64,64]{1,0} %b4)
  ROOT %c = f32[64,64]{1,0} copy(f32[64,64]{1,0} %b5)
}
)";

TEST(AdvisorHloGraph, LayoutCopiesFollowACopyChainUpToFiveHops) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTinyTrace));
  open_module(&e, kChainModule);
  const AdvisorFigureSet f = advisor_figures(e);
  ASSERT_TRUE(f.find("hlo_graph.layout_copies_count"));
  EXPECT_EQ(f.find("hlo_graph.layout_copies_count")->value, 1);
  const AdvisorReport r = report_of(e, f);
  const AdvisorFinding* layout = finding(r, "layout_copies");
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout->evidence.size(), 1u);
  EXPECT_EQ(layout->evidence[0].link.op, "c");
  EXPECT_NE(layout->evidence[0].label.find("{0,1} to {1,0}"), std::string::npos)
      << layout->evidence[0].label;
  EXPECT_NE(layout->evidence[0].label.find("from p 2 ops back"), std::string::npos)
      << layout->evidence[0].label;

  Engine far;
  ASSERT_TRUE(load_trace(&far, "t.json", kTinyTrace));
  open_module(&far, kLongChainModule);
  const AdvisorFigureSet g = advisor_figures(far);
  ASSERT_TRUE(g.find("hlo_graph.layout_copies_count"));
  EXPECT_EQ(g.find("hlo_graph.layout_copies_count")->value, 0);
}

TEST(AdvisorHloGraph, NoModuleIsNotChecked) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTinyTrace));
  const AdvisorReport r = report_of(e, advisor_figures(e));
  for (const char* id : {"unfused_data_movement", "layout_copies", "upcast_reduce"}) {
    const AdvisorUnchecked* u = unchecked(r, id);
    ASSERT_TRUE(u) << id;
    EXPECT_NE(unchecked_text(*u).find("not checked: needs HLO modules"), std::string::npos)
        << unchecked_text(*u);
  }
}

constexpr int64_t kUs = 1000 * 1000;  // ps

struct TpuOp {
  const char* name;
  const char* category;
  const char* type;  // the result type in its long_name
  int64_t dur_us;
};

// One TPU core's XLA Ops row, ops back to back.
std::string tpu_space(const std::vector<TpuOp>& ops) {
  pb::XSpace space;
  PlaneWriter w(&space, "/device:TPU:0", 1);
  for (const TpuOp& o : ops) {
    pb::XEventMetadata* m = w.meta(o.name);
    w.stat_ref(m, "hlo_category", o.category);
    w.stat_str(m, "long_name", std::string("%") + o.name + " = " + o.type + "[8,128]{1,0} op()");
    w.stat_uint(m, "program_id", 7);
  }
  int64_t total = 0;
  for (const TpuOp& o : ops) total += o.dur_us;
  pb::XLine* modules = w.line(1, "XLA Modules", 1000);
  w.event(modules, "jit_step(7)", 0, total * kUs);
  pb::XLine* line = w.line(2, "XLA Ops", 1000);
  int64_t at = 0;
  for (const TpuOp& o : ops) {
    w.event(line, o.name, at * kUs, o.dur_us * kUs);
    at += o.dur_us;
  }
  return testing::serialize(space);
}

TEST(AdvisorXlaOps, F32HeavyProgramWithPrintsAndBarriers) {
  Engine e;
  ASSERT_TRUE(
      testing::engine_load(&e, tpu_space({{"fusion.1", "convolution fusion", "f32", 80},
                                          {"fusion.2", "loop fusion", "bf16", 5},
                                          {"outfeed.3", "outfeed", "token", 5},
                                          {"barrier-cores.4", "barrier-cores", "u32", 10}})));
  const AdvisorFigureSet f = advisor_figures(e);
  ASSERT_TRUE(f.find("precision.low_pct"));
  EXPECT_NEAR(f.find("precision.low_pct")->value, 100.0 * 5 / 85, 1e-9);
  EXPECT_NEAR(f.find("hlo.debug_print_pct")->value, 5, 1e-9);
  EXPECT_NEAR(f.find("hlo.barrier_pct")->value, 10, 1e-9);
  const AdvisorReport r = report_of(e, f);
  const AdvisorFinding* low = finding(r, "low_precision_share");
  ASSERT_TRUE(low);
  ASSERT_FALSE(low->evidence.empty());
  EXPECT_EQ(low->evidence[0].link.name, "fusion.1");
  const AdvisorFinding* print = finding(r, "debug_print_bound");
  ASSERT_TRUE(print);
  EXPECT_EQ(print->evidence[0].link.name, "outfeed.3");
  EXPECT_DOUBLE_EQ(print->stake_ns, 5000);
  const AdvisorFinding* barrier = finding(r, "barrier_cores_bound");
  ASSERT_TRUE(barrier);
  EXPECT_EQ(barrier->evidence[0].link.name, "barrier-cores.4");
}

TEST(AdvisorXlaOps, Bf16ProgramWithoutPrintsPasses) {
  Engine e;
  ASSERT_TRUE(testing::engine_load(&e, tpu_space({{"fusion.1", "convolution fusion", "bf16", 80},
                                                  {"fusion.2", "loop fusion", "f32", 15},
                                                  {"copy.3", "data formatting", "bf16", 5}})));
  const AdvisorReport r = report_of(e, advisor_figures(e));
  for (const char* id : {"low_precision_share", "debug_print_bound", "barrier_cores_bound"}) {
    EXPECT_FALSE(finding(r, id)) << id;
    EXPECT_TRUE(passed(r, id)) << id;
  }
}

TEST(AdvisorXlaOps, ATraceWithoutXlaOpsIsNotChecked) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kTinyTrace));
  const AdvisorReport r = advise(advisor_default_rules(), advisor_figures(e), "xplane");
  for (const char* id : {"low_precision_share", "debug_print_bound", "barrier_cores_bound"}) {
    const AdvisorUnchecked* u = unchecked(r, id);
    ASSERT_TRUE(u) << id;
    EXPECT_FALSE(u->why.empty()) << id;
  }
}

// Times in µs: a 15 ms DataLoader fetch and a 2 ms GC in the step; then the same under the lines.
constexpr const char* kSlowLoader = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":40000,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":15000,"name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":16000,"dur":2000,"name":"GC","cat":"GC"},
  {"ph":"X","pid":1,"tid":1,"ts":20000,"dur":20000,"name":"aten::mm","cat":"cpu_op"}])";
constexpr const char* kFastLoader = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":40000,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":9000,"name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":16000,"dur":900,"name":"GC","cat":"GC"},
  {"ph":"X","pid":1,"tid":1,"ts":20000,"dur":20000,"name":"aten::mm","cat":"cpu_op"}])";

TEST(AdvisorEvents, SlowDataloaderAndGcPauses) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kSlowLoader));
  const AdvisorReport r = report_of(e, advisor_figures(e));
  const AdvisorFinding* loader = finding(r, "slow_dataloader");
  ASSERT_TRUE(loader);
  EXPECT_NE(loader->text.find("15.00 ms"), std::string::npos) << loader->text;
  ASSERT_EQ(loader->evidence.size(), 1u);
  EXPECT_EQ(loader->evidence[0].link.name,
            "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  const AdvisorFinding* gc = finding(r, "gc_pauses");
  ASSERT_TRUE(gc);
  EXPECT_DOUBLE_EQ(gc->stake_ns, 2e6);
  EXPECT_EQ(gc->evidence[0].link.name, "GC");
  // 15 of the 40 ms is input, all of it on the host.
  EXPECT_TRUE(finding(r, "host_processing_bound"));
  EXPECT_FALSE(finding(r, "data_transfer_bound"));

  Engine quiet;
  ASSERT_TRUE(load_trace(&quiet, "t.json", kFastLoader));
  const AdvisorReport q = report_of(quiet, advisor_figures(quiet));
  EXPECT_TRUE(passed(q, "slow_dataloader"));
  EXPECT_TRUE(passed(q, "gc_pauses"));

  Engine none;
  ASSERT_TRUE(load_trace(&none, "t.json", kTinyTrace));
  const AdvisorReport n = report_of(none, advisor_figures(none));
  ASSERT_TRUE(unchecked(n, "slow_dataloader"));
  ASSERT_TRUE(unchecked(n, "gc_pauses"));
  EXPECT_NE(unchecked(n, "gc_pauses")->why.find("garbage-collection events"), std::string::npos);
}

constexpr const char* kAscendTrace = R"([
  {"ph":"M","pid":7,"name":"process_name","args":{"name":"Ascend Hardware"}},
  {"ph":"X","pid":7,"tid":1,"ts":0,"dur":10,"name":"MatMul"}])";

TEST(AdvisorEvents, AscendRulesApplyOnlyToAscendProfiles) {
  Engine gpu;
  ASSERT_TRUE(load_trace(&gpu, "t.json", kTinyTrace));
  const AdvisorReport g = report_of(gpu, advisor_figures(gpu));
  for (const char* id : {"aicpu_tasks", "slow_link", "small_packets", "unaligned_packets"}) {
    EXPECT_NE(std::find(g.not_applicable.begin(), g.not_applicable.end(), id),
              g.not_applicable.end())
        << id;
    EXPECT_FALSE(unchecked(g, id)) << id;
  }
  Engine npu;
  ASSERT_TRUE(load_trace(&npu, "t.json", kAscendTrace));
  const AdvisorReport a = report_of(npu, advisor_figures(npu));
  const AdvisorUnchecked* aicpu = unchecked(a, "aicpu_tasks");
  ASSERT_TRUE(aicpu);
  EXPECT_NE(aicpu->why.find("Task Type"), std::string::npos) << aicpu->why;
  ASSERT_TRUE(unchecked(a, "slow_link"));
  EXPECT_NE(unchecked(a, "slow_link")->why.find("size(Byte)"), std::string::npos);
}

TEST(AdvisorRules, AppliesConditionIsParsedAndChecked) {
  const AdvisorRuleSet set = parse_advisor_rules(R"({"rules":[
    {"id":"npu","applies":"a.npu > 0","when":"a.x > 0","priority":"P1","text":"t"},
    {"id":"bad","applies":"a.npu >","when":"a.x > 0","priority":"P1","text":"t"}]})");
  ASSERT_EQ(set.rules.size(), 1u);
  ASSERT_EQ(set.errors.size(), 1u);
  EXPECT_NE(set.errors[0].find("bad: applies"), std::string::npos);
  AdvisorFigureSet on;
  on.figures.reserve(2);
  on.add("a.npu", 1, AnalysisUnit::kCount, "timeline", "npu");
  on.add("a.x", 1, AnalysisUnit::kCount, "timeline", "x");
  EXPECT_EQ(advise(set, on, "chrome-json").findings.size(), 1u);
  AdvisorFigureSet off;
  off.figures.reserve(2);
  off.add("a.npu", 0, AnalysisUnit::kCount, "timeline", "npu");
  off.add("a.x", 1, AnalysisUnit::kCount, "timeline", "x");
  EXPECT_EQ(advise(set, off, "chrome-json").not_applicable, (std::vector<std::string>{"npu"}));
}

}  // namespace
}  // namespace strata
