// Run statistics from Chrome/Kineto traces in the store (core/runs): the tb_plugin's self /
// total definitions on a hand-made trace, and invariants plus independent counts on the real
// tb_plugin and HTA samples.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <regex>
#include <set>

#include "core/runs/run_stats.h"
#include "core/runs/run_stats_json.h"
#include "runs_test_util.h"

namespace strata::testing {
namespace {

using namespace strata::runs;

// A(0..100) > python_function(5..55) > B(10..50) > launch(20..25) → k1 (flow);
// A > launch(60..70) → k2 (paired by "correlation" only); an NCCL kernel and a memcpy with no
// launch. Times in µs.
const char* kTiny = R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"A","pid":1,"tid":1,"ts":0,"dur":100,"args":{"Input Dims":[[2, 3]],"Call stack":"a.py(1): f;b.py(2): g"}},
{"ph":"X","cat":"python_function","name":"py","pid":1,"tid":1,"ts":5,"dur":50},
{"ph":"X","cat":"cpu_op","name":"B","pid":1,"tid":1,"ts":10,"dur":40,"args":{"Input Dims":[[4]]}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":7}},
{"ph":"s","cat":"ac2g","name":"ac2g","id":7,"pid":1,"tid":1,"ts":20},
{"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":30,"dur":30,"args":{"correlation":7}},
{"ph":"f","cat":"ac2g","name":"ac2g","id":7,"pid":0,"tid":7,"ts":30,"bp":"e"},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":60,"dur":10,"args":{"correlation":8}},
{"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":80,"dur":10,"args":{"correlation": 8}},
{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":8,"ts":85,"dur":20,"args":{"correlation":9}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":120,"dur":10}
]})";

const OperatorRow* find_row(const OperatorTable& t, const std::string& name) {
  for (const OperatorRow& r : t.rows)
    if (r.name == name) return &r;
  return nullptr;
}

TEST(RunsKineto, SelfAndTotalAsTheTbPluginDefinesThem) {
  ImportResult im = import_json(kTiny);
  ASSERT_FALSE(im.failed) << im.failure;
  const TraceStore& s = *im.store;
  OperatorTable t = trace_operator_table(s, kTiny, false);
  ASSERT_EQ(t.rows.size(), 2u);
  const OperatorRow* a = find_row(t, "A");
  const OperatorRow* b = find_row(t, "B");
  ASSERT_TRUE(a && b);
  EXPECT_DOUBLE_EQ(b->host_total_us, 40);
  EXPECT_DOUBLE_EQ(b->host_self_us, 35);    // minus its launch call
  EXPECT_DOUBLE_EQ(b->device_self_us, 30);  // k1
  EXPECT_DOUBLE_EQ(b->device_total_us, 30);
  EXPECT_DOUBLE_EQ(a->host_total_us, 100);
  EXPECT_DOUBLE_EQ(a->host_self_us, 50);    // minus B (under a python_function) and its launch
  EXPECT_DOUBLE_EQ(a->device_self_us, 10);  // k2, paired by correlation
  EXPECT_DOUBLE_EQ(a->device_total_us, 40);
  ASSERT_EQ(a->call_stacks.size(), 1u);
  EXPECT_EQ(a->call_stacks[0].stack, "a.py(1): f;b.py(2): g");
  EXPECT_TRUE(is_missing(a->ai_core_self_pct));
  EXPECT_EQ(t.warnings.size(), 1u);  // the NCCL kernel and the memcpy have no launch

  // Without the source: no correlation pairing, no stacks.
  OperatorTable bare = trace_operator_table(s, "", false);
  EXPECT_DOUBLE_EQ(find_row(bare, "A")->device_self_us, 0);
  EXPECT_DOUBLE_EQ(find_row(bare, "A")->device_total_us, 30);
  EXPECT_TRUE(std::count(bare.missing.begin(), bare.missing.end(), "callStacks"));

  OperatorTable shaped = trace_operator_table(s, kTiny, true);
  ASSERT_EQ(shaped.rows.size(), 2u);
  EXPECT_EQ(find_row(shaped, "A")->input_shape, "[[2,3]]");
  EXPECT_EQ(find_row(shaped, "B")->input_shape, "[[4]]");

  KernelTable k = trace_kernel_table(s);
  ASSERT_EQ(k.rows.size(), 3u);  // memcpy is not a kernel
  EXPECT_EQ(k.rows[0].name, "k1");
  EXPECT_DOUBLE_EQ(k.rows[0].total_us, 30);
  EXPECT_EQ(k.rows[0].core_type, "GPU");
  ASSERT_EQ(k.details.size(), 3u);
  EXPECT_EQ(k.details[0].name, "k1");
  EXPECT_DOUBLE_EQ(k.details[0].start_us, 30);

  DistributedRow d = trace_distributed(s, 3);
  EXPECT_EQ(d.card, 3);
  EXPECT_DOUBLE_EQ(d.compute_us, 40);        // k1 ∪ k2
  EXPECT_DOUBLE_EQ(d.communication_us, 20);  // the NCCL kernel
  EXPECT_DOUBLE_EQ(d.overlap_us, 5);         // 85..90
  EXPECT_DOUBLE_EQ(d.span_us, 100);          // 30..130 (the memcpy ends the span)
  EXPECT_DOUBLE_EQ(d.free_us, 45);
  EXPECT_TRUE(is_missing(d.transfer_us));
  ASSERT_EQ(d.comm_ops.size(), 1u);
  EXPECT_EQ(d.comm_ops[0].name, "ncclKernel_AllReduce");

  StepOpTimes st = trace_step_op_times(s);
  ASSERT_EQ(st.entries.size(), 1u);
  EXPECT_EQ(st.entries[0].op_type, "A");
  EXPECT_DOUBLE_EQ(st.entries[0].host_us, 100);
  EXPECT_DOUBLE_EQ(st.entries[0].device_us, 30);
}

// Count of records whose "cat" is "kernel" in any case, by text search.
size_t count_kernel_records(const std::string& text) {
  size_t n = 0, pos = 0;
  while ((pos = text.find("\"cat\"", pos)) != std::string::npos) {
    pos += 5;
    size_t k = pos;
    while (k < text.size() && (text[k] == ' ' || text[k] == ':')) ++k;
    std::string v = text.substr(k, 8);
    for (char& c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (v == "\"kernel\"") ++n;
  }
  return n;
}

struct Loaded {
  std::string text;
  ImportResult im;
};

bool load(const std::string& rel, Loaded* out) {
  if (!read_shared_text(rel, &out->text)) return false;
  out->im = import_json(out->text);
  return !out->im.failed;
}

const char* kTbPlugin[] = {
    "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz",
    "pytorch_kineto/kineto-tb_plugin/resnet50_autograd_api_num_workers_0/worker0.pt.trace.json.gz",
    "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz",
    "pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz",
};

TEST(RunsKineto, RealTracesOperatorAndKernelTables) {
  bool any = false;
  for (const char* rel : {kTbPlugin[0], kTbPlugin[1], kTbPlugin[3]}) {
    Loaded l;
    if (!load(rel, &l)) continue;
    any = true;
    SCOPED_TRACE(rel);
    const TraceStore& s = *l.im.store;
    OperatorTable t = trace_operator_table(s, l.text, false);
    ASSERT_GT(t.rows.size(), 10u);
    double device_self = 0;
    for (const OperatorRow& r : t.rows) {
      EXPECT_LE(r.host_self_us, r.host_total_us + 1e-6) << r.name;
      EXPECT_GE(r.host_self_us, -1e-6) << r.name;
      EXPECT_LE(r.device_self_us, r.device_total_us + 1e-6) << r.name;
      device_self += r.device_self_us;
      EXPECT_EQ(r.name.rfind("ProfilerStep#", 0), std::string::npos);
    }
    KernelTable k = trace_kernel_table(s);
    uint64_t count = 0;
    double kernel_us = 0;
    for (const KernelRow& r : k.rows) {
      count += r.count;
      kernel_us += r.total_us;
      EXPECT_NEAR(r.avg_us * double(r.count), r.total_us, 1e-6 * r.total_us + 1e-9);
    }
    EXPECT_EQ(count, count_kernel_records(l.text));
    EXPECT_EQ(k.details.size(), count);
    // Device self time of the listed operators is kernel + memcpy + memset time they launched:
    // most of the GPU's kernel time in these traces, never more than all of its device time.
    double device_us = 0;
    for (size_t i = 0; i < s.events.size(); ++i) {
      std::string cat(s.strings.get(s.events.cat[i]));
      for (char& c : cat) c = char(std::tolower(static_cast<unsigned char>(c)));
      if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "memcpy" ||
          cat == "memset")
        device_us += double(s.events.dur[i]) / 1000.0;
    }
    EXPECT_LE(device_self, device_us + 1e-3);
    EXPECT_GT(device_self, 0.5 * kernel_us);
    // Grouping by shape splits rows but keeps every call.
    OperatorTable shaped = trace_operator_table(s, l.text, true);
    uint64_t calls = 0, shaped_calls = 0;
    for (const OperatorRow& r : t.rows) calls += r.calls;
    for (const OperatorRow& r : shaped.rows) shaped_calls += r.calls;
    EXPECT_EQ(calls, shaped_calls);
    if (l.text.find("\"Input Dims\"") != std::string::npos) {
      EXPECT_GT(shaped.rows.size(), t.rows.size());
    } else {
      EXPECT_EQ(shaped.rows.size(), t.rows.size());  // recorded without shapes
    }
  }
  if (!any) GTEST_SKIP() << "no Kineto samples";
}

TEST(RunsKineto, ConvolutionLaunchesItsKernels) {
  Loaded l;
  if (!load(kTbPlugin[0], &l)) GTEST_SKIP();
  OperatorTable t = trace_operator_table(*l.im.store, l.text, false);
  const OperatorRow* conv = find_row(t, "aten::cudnn_convolution");
  ASSERT_NE(conv, nullptr);
  EXPECT_GT(conv->device_self_us, 0);
  const OperatorRow* top = find_row(t, "aten::conv2d");
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->device_self_us, 0);  // its kernels are launched by the ops below it
  EXPECT_GE(top->device_total_us, conv->device_self_us);
  EXPECT_FALSE(top->call_stacks.empty());
  // Steps: ProfilerStep#N spans; kernels are assigned to one.
  StepOpTimes st = trace_step_op_times(*l.im.store);
  EXPECT_GE(st.steps.size(), 1u);
  EXPECT_NE(st.steps[0], "");
  KernelTable k = trace_kernel_table(*l.im.store);
  size_t in_step = 0;
  for (const KernelDetail& d : k.details) in_step += !d.step.empty();
  EXPECT_GT(in_step, k.details.size() / 2);
}

// compute / communication / overlap by a sweep over interval endpoints (not by merging).
struct Sweep {
  double comp = 0, comm = 0, both = 0, any = 0;
};

Sweep sweep(const TraceStore& s) {
  std::vector<std::tuple<TimeNs, int, int>> pts;  // time, +1/-1, class (0 comp, 1 comm)
  for (size_t i = 0; i < s.events.size(); ++i) {
    std::string cat(s.strings.get(s.events.cat[i]));
    if (cat != "kernel" && cat != "Kernel") continue;
    std::string name(s.strings.get(s.events.name[i]));
    for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    int cls = name.find("nccl") != std::string::npos ? 1 : 0;
    pts.emplace_back(s.events.start[i], 1, cls);
    pts.emplace_back(s.events.start[i] + s.events.dur[i], -1, cls);
  }
  std::sort(pts.begin(), pts.end());
  Sweep r;
  int open[2] = {0, 0};
  TimeNs last = pts.empty() ? 0 : std::get<0>(pts[0]);
  for (const auto& [t, d, cls] : pts) {
    double span = double(t - last) / 1000.0;
    if (open[0] > 0) r.comp += span;
    if (open[1] > 0) r.comm += span;
    if (open[0] > 0 && open[1] > 0) r.both += span;
    last = t;
    open[cls] += d;
  }
  return r;
}

TEST(RunsKineto, DistributedPerRankOnHtaSamples) {
  bool any = false;
  std::string json = "[";
  for (int rank : {0, 1}) {
    Loaded l;
    if (!load("pytorch_kineto/hta/trace_filter/sampled_rank-" + std::to_string(rank) + ".json.gz",
              &l))
      continue;
    any = true;
    const TraceStore& s = *l.im.store;
    DistributedRow r = trace_distributed(s, rank);
    Sweep want = sweep(s);
    EXPECT_NEAR(r.compute_us, want.comp, 1e-6);
    EXPECT_NEAR(r.communication_us, want.comm, 1e-6);
    EXPECT_NEAR(r.overlap_us, want.both, 1e-6);
    EXPECT_GT(r.communication_us, 0);
    EXPECT_GT(r.compute_us, 0);
    EXPECT_GE(r.free_us, 0);
    EXPECT_NEAR(r.compute_us + r.communication_us - r.overlap_us + r.free_us, r.span_us, 1e-6);
    ASSERT_FALSE(r.comm_ops.empty());
    double ops = 0;
    for (const CommOpRow& o : r.comm_ops) ops += o.elapse_us;
    EXPECT_GE(ops + 1e-6, r.communication_us);  // overlapping NCCL kernels count once in the bar
    DistributedTable t;
    t.rows.push_back(r);
    distributed_json(t, &json);
  }
  if (!any) GTEST_SKIP() << "no HTA samples";
  EXPECT_NE(json.find("\"communicationUs\":"), std::string::npos);
}

TEST(RunsKineto, DiffOfTwoRuns) {
  Loaded a, b;
  if (!load(kTbPlugin[0], &a) || !load(kTbPlugin[2], &b)) GTEST_SKIP();
  OperatorTable ta = trace_operator_table(*a.im.store, a.text, false);
  OperatorTable tb = trace_operator_table(*b.im.store, b.text, false);
  auto diff = diff_operators(ta, tb);
  double host_a = 0, host_b = 0, diff_sum = 0;
  for (const OperatorRow& r : ta.rows) host_a += r.host_total_us;
  for (const OperatorRow& r : tb.rows) host_b += r.host_total_us;
  for (const OperatorDiffRow& d : diff) diff_sum += d.host_diff_us;
  EXPECT_NEAR(diff_sum, host_b - host_a, 1e-6 * host_a);
  StepOpTimes sa = trace_step_op_times(*a.im.store), sb = trace_step_op_times(*b.im.store);
  StepDiff whole = step_diff(sa, sb, "");
  ASSERT_FALSE(whole.rows.empty());
  double da = 0, db = 0;
  for (const auto& e : sa.entries) da += e.device_us;
  for (const auto& e : sb.entries) db += e.device_us;
  EXPECT_NEAR(whole.rows.back().cumulative_diff_us, db - da, 1e-6 * std::max(1.0, da));
  std::string json;
  step_diff_json(whole, &json);
  operator_diff_json(diff, 5, &json);
  EXPECT_NE(json.find("cumulativeDiffUs"), std::string::npos);
}

}  // namespace
}  // namespace strata::testing

namespace strata::testing {
namespace {

using namespace strata::runs;

// The engine does not keep the source: it reads the wanted records back in one pass. The
// lookup form must give the same table as the in-memory source.
TEST(RunsKineto, RecordLookupEqualsInMemorySource) {
  ImportResult im = import_json(kTiny);
  const TraceStore& s = *im.store;
  std::vector<uint32_t> want = trace_events_with_args(s);
  // A, B; and since k2 has no flow: both launches, three kernels and the memcpy.
  EXPECT_EQ(want.size(), 2u + 2u + 4u);
  std::map<uint32_t, std::string> records;
  const std::string text = kTiny;
  for (uint32_t e : want) records[e] = text.substr(s.events.src_offset[e], s.events.src_len[e]);
  OperatorTable a = trace_operator_table(s, text, true);
  OperatorTable b = trace_operator_table(
      s,
      [&](uint32_t e) -> std::string_view {
        auto it = records.find(e);
        return it == records.end() ? std::string_view() : std::string_view(it->second);
      },
      true);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i].name, b.rows[i].name);
    EXPECT_EQ(a.rows[i].input_shape, b.rows[i].input_shape);
    EXPECT_EQ(a.rows[i].device_self_us, b.rows[i].device_self_us);
    EXPECT_EQ(a.rows[i].call_stacks.size(), b.rows[i].call_stacks.size());
  }
}

}  // namespace
}  // namespace strata::testing
