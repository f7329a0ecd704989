// The advisor: its condition language, the rule file's format, every rule of rules/advisor.json
// triggered by figures that cross its threshold and not by figures that do not, and whole
// traces written here run through the `advisor` analysis (findings, not-checked rules, the HTML).
#include "engine/advisor/advisor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "engine/advisor/condition.h"
#include "engine/advisor/report_html.h"
#include "engine/advisor/rules.h"
#include "engine/engine.h"
#include "engine_test_util.h"

namespace strata {
namespace {

using testing::load_trace;

bool eval(const std::string& text, const std::map<std::string, double>& v) {
  std::string err;
  auto c = parse_condition(text, &err);
  EXPECT_TRUE(c) << text << ": " << err;
  if (!c) return false;
  return evaluate_condition(*c, [&](const std::string& n) { return v.at(n); });
}

TEST(AdvisorCondition, ComparisonsAndOrNotWithPrecedence) {
  const std::map<std::string, double> v = {{"a.x", 10}, {"b_y", 3}};
  EXPECT_TRUE(eval("a.x > 5", v));
  EXPECT_FALSE(eval("a.x <= 5", v));
  EXPECT_TRUE(eval("a.x > 5 and b_y == 3", v));
  EXPECT_TRUE(eval("a.x < 5 or b_y != 4", v));
  // and binds tighter than or
  EXPECT_TRUE(eval("a.x > 100 and b_y > 100 or a.x >= 10", v));
  EXPECT_FALSE(eval("a.x > 100 and (b_y > 100 or a.x >= 10)", v));
  EXPECT_TRUE(eval("not a.x < 5", v));
  EXPECT_TRUE(eval("b_y < a.x", v));
  EXPECT_TRUE(eval("-1 < 0.5", v));
  std::string err;
  auto c = parse_condition("(a.x > 1 or b_y > 2) and a.x < 20", &err);
  ASSERT_TRUE(c);
  EXPECT_EQ(condition_figures(*c), (std::vector<std::string>{"a.x", "b_y"}));
}

TEST(AdvisorCondition, RejectsAnythingElse) {
  std::string err;
  for (const char* bad : {"", "a.x", "a.x >", "a.x = 3", "a.x > 3 and", "(a.x > 3", "a.x > 3)",
                          "f(a.x) > 3", "a.x + 1 > 3", "a.x > 'x'", "a.x > 3 ; rm"}) {
    EXPECT_FALSE(parse_condition(bad, &err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
  // Deep nesting is an error, not a stack overflow.
  EXPECT_FALSE(parse_condition(std::string(10000, '(') + "a > 1" + std::string(10000, ')'), &err));
  EXPECT_FALSE(parse_condition(std::string(10000, 'n') + "ot a > 1", &err));
}

TEST(AdvisorRules, TheRepositoryFileParsesWhole) {
  const AdvisorRuleSet& r = advisor_default_rules();
  EXPECT_TRUE(r.errors.empty()) << r.errors[0];
  EXPECT_GE(r.rules.size(), 15u);
  for (const AdvisorRule& rule : r.rules) {
    EXPECT_FALSE(rule.title.empty()) << rule.id;
    EXPECT_FALSE(rule.fix.empty()) << rule.id;
    EXPECT_FALSE(rule.needs.empty()) << rule.id;
  }
}

TEST(AdvisorRules, BadRulesAreLeftOutByName) {
  const AdvisorRuleSet r = parse_advisor_rules(R"({"rules":[
    {"id":"good","when":"a.x > 1","priority":"P1","text":"x is {a.x}","evidence":["a.x"]},
    {"id":"bad_priority","when":"a.x > 1","priority":"P7","text":"t"},
    {"id":"bad_when","when":"a.x >> 1","priority":"P0","text":"t"},
    {"when":"a.x > 1","priority":"P0","text":"t"}]})");
  ASSERT_EQ(r.rules.size(), 1u);
  EXPECT_EQ(r.rules[0].id, "good");
  EXPECT_EQ(r.rules[0].formats, (std::vector<std::string>{"any"}));
  EXPECT_EQ(r.rules[0].evidence, (std::vector<std::string>{"a.x"}));
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_NE(r.errors[0].find("bad_priority"), std::string::npos);
  EXPECT_NE(r.errors[1].find("bad_when"), std::string::npos);
  EXPECT_FALSE(parse_advisor_rules("not json").errors.empty());
}

TEST(AdvisorRules, TemplatesFillFigures) {
  EXPECT_EQ(template_figures("{a} and {b.c}, {a}"), (std::vector<std::string>{"a", "b.c"}));
  EXPECT_EQ(fill_template("x={a}, y={b}!", [](const std::string& n) { return "<" + n + ">"; }),
            "x=<a>, y=<b>!");
}

// Figures for one rule: every figure it reads at 0, then `values`.
AdvisorFigureSet figures_for(const AdvisorRule& rule, const std::map<std::string, double>& values) {
  AdvisorFigureSet f;
  f.figures.reserve(rule.needs.size() + values.size());
  for (const std::string& n : rule.needs) {
    auto it = values.find(n);
    f.add(n, it == values.end() ? 0 : it->second, AnalysisUnit::kPercent, "overview", n);
  }
  for (const auto& [n, v] : values)
    if (!f.find(n)) f.add(n, v, AnalysisUnit::kPercent, "overview", n);
  return f;
}

struct RuleCase {
  const char* id;
  std::map<std::string, double> fires, quiet;
};

// Each rule of the repository's file just over and just under its threshold.
const RuleCase kCases[] = {
    {"input_bound_high", {{"step.input_pct", 21}}, {{"step.input_pct", 20}}},
    {"input_bound_moderate", {{"step.input_pct", 6}}, {{"step.input_pct", 4}}},
    {"launch_bound_high", {{"step.launch_pct", 16}}, {{"step.launch_pct", 15}}},
    {"launch_bound_moderate", {{"step.launch_pct", 4}}, {{"step.launch_pct", 3}}},
    {"collective_bound", {{"step.collectives_pct", 30}}, {{"step.collectives_pct", 29}}},
    {"collectives_high", {{"step.collectives_pct", 16}}, {{"step.collectives_pct", 31}}},
    {"exposed_communication", {{"gpu.exposed_comm_pct", 35}}, {{"gpu.exposed_comm_pct", 10}}},
    {"all_other_high", {{"step.all_other_pct", 16}}, {{"step.all_other_pct", 14}}},
    {"device_idle", {{"gpu.idle_pct", 11}}, {{"gpu.idle_pct", 9}}},
    {"host_wait", {{"gpu.host_wait_pct", 12}}, {{"gpu.host_wait_pct", 2}}},
    {"late_launches",
     {{"launch.late_count", 5}, {"launch.late_pct", 2}},
     {{"launch.late_count", 0}, {"launch.late_pct", 0}}},
    {"short_kernels", {{"launch.short_pct", 25}}, {{"launch.short_pct", 5}}},
    {"slow_runtime_calls", {{"launch.slow_runtime_pct", 6}}, {{"launch.slow_runtime_pct", 1}}},
    {"full_queues", {{"queue.at_stall_ns", 1000}}, {{"queue.at_stall_ns", 0}}},
    {"stragglers", {{"ranks.stragglers", 1}}, {{"ranks.stragglers", 0}}},
    {"slow_rank_spread", {{"ranks.compute_spread_pct", 6}}, {{"ranks.compute_spread_pct", 4}}},
    {"memory_bound", {{"roofline.hbm_bound_pct", 80}}, {{"roofline.hbm_bound_pct", 40}}},
    {"compute_bound", {{"roofline.compute_bound_pct", 75}}, {{"roofline.compute_bound_pct", 60}}},
    {"data_shuffle_bound", {{"hlo.data_shuffle_pct", 30}}, {{"hlo.data_shuffle_pct", 29}}},
    {"hlo_collective_bound", {{"hlo.collectives_pct", 45}}, {{"hlo.collectives_pct", 5}}},
    {"oom_risk_high", {{"memory.peak_pct", 97}}, {{"memory.peak_pct", 90}}},
    {"oom_risk", {{"memory.peak_pct", 90}}, {{"memory.peak_pct", 80}}},
    {"unfused_data_movement",
     {{"hlo_graph.unfused_movers_count", 1}},
     {{"hlo_graph.unfused_movers_count", 0}}},
    {"layout_copies",
     {{"hlo_graph.layout_copies_count", 2}},
     {{"hlo_graph.layout_copies_count", 0}}},
    {"upcast_reduce",
     {{"hlo_graph.upcast_reduces_count", 1}},
     {{"hlo_graph.upcast_reduces_count", 0}}},
    {"low_precision_share", {{"precision.low_pct", 9}}, {{"precision.low_pct", 10}}},
    {"debug_print_bound", {{"hlo.debug_print_pct", 5}}, {{"hlo.debug_print_pct", 4.9}}},
    {"barrier_cores_bound", {{"hlo.barrier_pct", 10}}, {{"hlo.barrier_pct", 9.9}}},
    {"host_processing_bound",
     {{"step.input_pct", 11}, {"step.input_host_share_pct", 50}},
     {{"step.input_pct", 11}, {"step.input_host_share_pct", 49}}},
    {"data_transfer_bound",
     {{"step.input_pct", 11}, {"step.input_transfer_share_pct", 30}},
     {{"step.input_pct", 10}, {"step.input_transfer_share_pct", 90}}},
    {"slow_dataloader", {{"dataloader.max_ns", 10.1e6}}, {{"dataloader.max_ns", 10e6}}},
    {"gc_pauses", {{"gc.max_ns", 1.1e6}}, {{"gc.max_ns", 1e6}}},
    {"aicpu_tasks",
     {{"ascend.profile", 1}, {"ascend.aicpu_slow_count", 3}},
     {{"ascend.profile", 1}, {"ascend.aicpu_slow_count", 0}}},
    {"slow_link",
     {{"ascend.profile", 1}, {"ascend.comm_link_spread_pct", 6}},
     {{"ascend.profile", 1}, {"ascend.comm_link_spread_pct", 4}}},
    {"small_packets",
     {{"ascend.profile", 1}, {"ascend.comm_small_packet_pct", 21}},
     {{"ascend.profile", 1}, {"ascend.comm_small_packet_pct", 19}}},
    {"unaligned_packets",
     {{"ascend.profile", 1}, {"ascend.comm_unaligned_count", 1}},
     {{"ascend.profile", 1}, {"ascend.comm_unaligned_count", 0}}},
};

TEST(AdvisorRules, EveryRuleFiresOverItsThresholdAndNotUnder) {
  const AdvisorRuleSet& all = advisor_default_rules();
  size_t covered = 0;
  for (const AdvisorRule& rule : all.rules) {
    const RuleCase* c = nullptr;
    for (const RuleCase& k : kCases)
      if (rule.id == k.id) c = &k;
    ASSERT_TRUE(c) << "no test case for rule " << rule.id;
    ++covered;
    AdvisorRuleSet one;
    one.rules.push_back(rule);
    const AdvisorFigureSet on = figures_for(rule, c->fires);
    const AdvisorReport fired = advise(one, on, "chrome-json");
    ASSERT_EQ(fired.findings.size(), 1u) << rule.id;
    EXPECT_EQ(fired.findings[0].id, rule.id);
    EXPECT_EQ(fired.findings[0].text.find('{'), std::string::npos) << fired.findings[0].text;
    EXPECT_EQ(fired.needs_attention, rule.priority <= 1) << rule.id;
    const AdvisorFigureSet off = figures_for(rule, c->quiet);
    const AdvisorReport quiet = advise(one, off, "chrome-json");
    EXPECT_TRUE(quiet.findings.empty()) << rule.id;
    EXPECT_EQ(quiet.passed, (std::vector<std::string>{rule.id}));
    EXPECT_FALSE(quiet.needs_attention);
    // Without its figures: not checked, saying what it needs.
    AdvisorFigureSet none;
    none.figures.reserve(c->fires.size());
    // A rule's `applies` figures stay: without them it would be not applicable instead.
    for (const auto& [n, v] : c->fires)
      if (std::find(rule.needs.begin(), rule.needs.end(), n) == rule.needs.end())
        none.add(n, v, AnalysisUnit::kCount, "timeline", n);
    none.set_missing("step", "steps (ProfilerStep#N slices)");
    const AdvisorReport unchecked = advise(one, none, "chrome-json");
    ASSERT_EQ(unchecked.not_checked.size(), 1u) << rule.id;
    EXPECT_EQ(unchecked.not_checked[0].needs.front(), rule.needs.front());
    EXPECT_FALSE(unchecked.not_checked[0].why.empty());
  }
  EXPECT_EQ(covered, std::size(kCases));
}

TEST(AdvisorRules, FormatsAndOrder) {
  const AdvisorRuleSet set = parse_advisor_rules(R"({"rules":[
    {"id":"p2","when":"a.x > 0","priority":"P2","stake":"a.ns","text":"t"},
    {"id":"p0_small","when":"a.x > 0","priority":"P0","stake":"a.small","text":"t"},
    {"id":"p0_big","when":"a.x > 0","priority":"P0","stake":"a.ns","text":"t"},
    {"id":"xla_only","formats":["xplane"],"when":"a.x > 0","priority":"P0","text":"t"}]})");
  AdvisorFigureSet f;
  f.figures.reserve(4);
  f.add("a.x", 1, AnalysisUnit::kCount, "overview", "x");
  f.add("a.ns", 5000, AnalysisUnit::kNs, "overview", "ns");
  f.add("a.small", 10, AnalysisUnit::kNs, "overview", "small");
  const AdvisorReport r = advise(set, f, "chrome-json");
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].id, "p0_big");
  EXPECT_EQ(r.findings[1].id, "p0_small");
  EXPECT_EQ(r.findings[2].id, "p2");
  EXPECT_EQ(r.not_applicable, (std::vector<std::string>{"xla_only"}));
  EXPECT_TRUE(r.needs_attention);
  EXPECT_GE(r.summary.size(), 2u);
}

// A CPU-only step: 30 % input wait (XProf: highly input bound).
constexpr const char* kInputBound = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":100,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":30,"name":"enumerate(DataLoader)#x.__next__","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":40,"dur":50,"name":"aten::mm","cat":"cpu_op"}])";
// The same step with 2 µs of input wait.
constexpr const char* kNotInputBound = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":100,"name":"ProfilerStep#1","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":2,"name":"enumerate(DataLoader)#x.__next__","cat":"user_annotation"},
  {"ph":"X","pid":1,"tid":1,"ts":2,"dur":98,"name":"aten::mm","cat":"cpu_op"}])";

TEST(AdvisorTrace, InputBoundStepIsAP0WithItsStepAsEvidence) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kInputBound));
  const AdvisorFigureSet f = advisor_figures(e);
  ASSERT_TRUE(f.find("step.input_pct"));
  EXPECT_NEAR(f.find("step.input_pct")->value, 30, 1e-9);
  const AdvisorReport r = advise(advisor_default_rules(), f, "chrome-json");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "input_bound_high");
  EXPECT_TRUE(r.needs_attention);
  EXPECT_NE(r.findings[0].text.find("30.0 %"), std::string::npos) << r.findings[0].text;
  EXPECT_DOUBLE_EQ(r.findings[0].stake_ns, 30000);
  ASSERT_FALSE(r.findings[0].evidence.empty());
  EXPECT_EQ(r.findings[0].evidence[0].link.part, "input_wait");
  const uint32_t step = r.findings[0].evidence[0].link.step_event;
  ASSERT_LT(step, e.store()->events.size());
  EXPECT_EQ(e.store()->strings.get(e.store()->events.name[step]), "ProfilerStep#1");
  // No GPU in the file: the GPU rules say what they need instead of passing.
  bool idle_unchecked = false;
  for (const AdvisorUnchecked& u : r.not_checked)
    if (u.id == "device_idle") idle_unchecked = !u.why.empty();
  EXPECT_TRUE(idle_unchecked);

  const std::string t = e.query_json("analysis", R"({"name":"advisor"})");
  EXPECT_NE(t.find(R"("status":"NEEDS_ATTENTION")"), std::string::npos) << t;
  EXPECT_NE(t.find(R"("cells":["Highly input bound","P0",30000)"), std::string::npos) << t;
  EXPECT_NE(t.find(R"("part":"input_wait")"), std::string::npos) << t;
  EXPECT_NE(t.find("not checked: "), std::string::npos) << t;
}

TEST(AdvisorTrace, StepWithLittleInputPassesTheInputRules) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kNotInputBound));
  const AdvisorFigureSet f = advisor_figures(e);
  const AdvisorReport r = advise(advisor_default_rules(), f, "chrome-json");
  for (const AdvisorFinding& x : r.findings) {
    EXPECT_NE(x.id, "input_bound_high");
    EXPECT_NE(x.id, "input_bound_moderate");
  }
  EXPECT_NE(std::find(r.passed.begin(), r.passed.end(), "input_bound_high"), r.passed.end());
}

// Times in µs: a 60 µs launch call whose kernel starts 220 µs after it returned (late, and
// shorter than its launch), with a fast one beside it.
constexpr const char* kLateLaunch = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":20,"dur":60,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":0,"tid":7,"ts":12,"dur":20,"name":"gemm","cat":"kernel"},
  {"ph":"X","pid":0,"tid":7,"ts":300,"dur":5,"name":"tiny","cat":"kernel"},
  {"ph":"s","id":1,"pid":1,"tid":1,"ts":1,"cat":"ac2g","name":"f"},
  {"ph":"f","id":1,"pid":0,"tid":7,"ts":12,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":2,"pid":1,"tid":1,"ts":21,"cat":"ac2g","name":"f"},
  {"ph":"f","id":2,"pid":0,"tid":7,"ts":300,"cat":"ac2g","name":"f","bp":"e"}])";
// Both kernels start right after their launch and run longer than it.
constexpr const char* kPromptLaunch = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":20,"dur":10,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":0,"tid":7,"ts":12,"dur":20,"name":"gemm","cat":"kernel"},
  {"ph":"X","pid":0,"tid":7,"ts":32,"dur":50,"name":"big","cat":"kernel"},
  {"ph":"s","id":1,"pid":1,"tid":1,"ts":1,"cat":"ac2g","name":"f"},
  {"ph":"f","id":1,"pid":0,"tid":7,"ts":12,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":2,"pid":1,"tid":1,"ts":21,"cat":"ac2g","name":"f"},
  {"ph":"f","id":2,"pid":0,"tid":7,"ts":32,"cat":"ac2g","name":"f","bp":"e"}])";

const AdvisorFinding* finding(const AdvisorReport& r, const std::string& id) {
  for (const AdvisorFinding& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

TEST(AdvisorTrace, LateAndShortKernelsLinkTheirKernel) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kLateLaunch));
  const AdvisorFigureSet f = advisor_figures(e);
  const AdvisorReport r = advise(advisor_default_rules(), f, "chrome-json");
  const AdvisorFinding* late = finding(r, "late_launches");
  ASSERT_TRUE(late);
  ASSERT_FALSE(late->evidence.empty());
  EXPECT_EQ(late->evidence[0].link.name, "tiny");
  EXPECT_DOUBLE_EQ(late->stake_ns, 222000);  // all launch delay: 2 µs (gemm) + 220 µs (tiny)
  EXPECT_TRUE(finding(r, "short_kernels"));
  EXPECT_TRUE(finding(r, "slow_runtime_calls"));
  EXPECT_TRUE(finding(r, "device_idle"));  // idle between the kernels: most of the span

  Engine quiet;
  ASSERT_TRUE(load_trace(&quiet, "t.json", kPromptLaunch));
  const AdvisorFigureSet g = advisor_figures(quiet);
  const AdvisorReport q = advise(advisor_default_rules(), g, "chrome-json");
  EXPECT_FALSE(finding(q, "late_launches"));
  EXPECT_FALSE(finding(q, "short_kernels"));
  EXPECT_FALSE(finding(q, "slow_runtime_calls"));
  EXPECT_FALSE(finding(q, "device_idle"));
}

TEST(AdvisorHtml, SelfContainedAndEscaped) {
  Engine e;
  ASSERT_TRUE(load_trace(&e, "t.json", kInputBound));
  AdvisorFigureSet f = advisor_figures(e);
  AdvisorReport r = advise(advisor_default_rules(), f, "chrome-json");
  r.findings[0].title = "<script>alert('x')</script> & co";
  const std::string h = advisor_report_html(r, f);
  EXPECT_EQ(h.find("<script"), std::string::npos);
  EXPECT_NE(h.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"), std::string::npos);
  EXPECT_EQ(h.find("src="), std::string::npos);
  EXPECT_EQ(h.find("href="), std::string::npos);
  EXPECT_EQ(h.find("url("), std::string::npos);
  EXPECT_NE(h.find("<svg"), std::string::npos);
  EXPECT_NE(h.find("Status: NEEDS_ATTENTION"), std::string::npos);
  // The trace's events are not in it beyond what the findings cite.
  EXPECT_EQ(h.find("aten::mm"), std::string::npos);
}

}  // namespace
}  // namespace strata
