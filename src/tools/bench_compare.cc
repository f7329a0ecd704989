// scripts/bench-compare: two generated Kineto-shaped traces of N events each (ProfilerStep#
// slices, CPU operators with nested children, the kernels they launch on a GPU stream; B's
// durations and a few names differ from A's) are loaded into an Engine (A) and a CompareSession
// (B) as the worker does, then the diff is timed: each key's table, the steps side by side, the
// call-tree diff and the whole compare reply. Prints one JSON line.
//   strata_bench_compare [events per side, default 1000000] [repeats, default 3]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/compare/compare_session.h"
#include "engine/engine.h"
#include "tools/bench_common.h"

namespace {

constexpr int kOpNames = 400, kKernelNames = 150;
constexpr int kEventsPerStep = 10000;

// A Chrome JSON trace: per step, CPU ops of 3 events (an op, a child, a kernel it launched).
std::string make_trace(size_t events, bool variant) {
  std::string o = "{\"traceEvents\":[\n";
  double ts = 0;
  size_t n = 0;
  int step = 1;
  char buf[256];
  while (n < events) {
    const double step_start = ts;
    const size_t step_end = std::min(events, n + kEventsPerStep);
    std::string body;
    while (n + 3 <= step_end) {
      const int op = static_cast<int>((n / 3) % kOpNames);
      const int k = op % kKernelNames;
      // B: a tenth of the ops take longer, some names are new.
      const double d = 5 + op % 7 + (variant && op % 10 == 0 ? 2 : 0);
      const char* suffix = variant && op % 97 == 0 ? "_v2" : "";
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op%d%s\",\"pid\":1,"
                    "\"tid\":1,\"ts\":%.3f,\"dur\":%.3f},\n",
                    op, suffix, ts, d);
      body += buf;
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::child%d\",\"pid\":1,"
                    "\"tid\":1,\"ts\":%.3f,\"dur\":%.3f},\n",
                    op % 50, ts + 1, d / 2);
      body += buf;
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"kernel_%d\",\"pid\":0,"
                    "\"tid\":7,\"ts\":%.3f,\"dur\":%.3f},\n",
                    k, ts + 2, d - 1);
      body += buf;
      ts += d + 1;
      n += 3;
    }
    if (n < step_end) n = step_end;  // a step's last partial triple is left out
    std::snprintf(buf, sizeof buf,
                  "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%d\","
                  "\"pid\":1,\"tid\":1,\"ts\":%.3f,\"dur\":%.3f},\n",
                  step++, step_start, ts - step_start);
    o += buf;
    o += body;
  }
  o.resize(o.size() - 2);  // the last ",\n"
  return o + "\n]}\n";
}

template <typename Loader>
void feed(Loader* l, const std::string& bytes) {
  constexpr size_t kChunk = 256 << 10;  // the worker's commit size
  for (size_t off = 0; off < bytes.size(); off += kChunk) {
    const size_t n = std::min(kChunk, bytes.size() - off);
    std::memcpy(l->load_buffer(n), bytes.data() + off, n);
    l->load_commit(n);
  }
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <typename F>
double best_ms(int repeats, F&& f) {
  double best = 1e300;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, ms_since(t0));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  strata::Engine a;
  strata::CompareSession c;
  {
    const std::string ta = make_trace(events, false);
    a.load_begin("a.json", ta.size());
    feed(&a, ta);
    if (!a.load_end()) return std::fprintf(stderr, "A: %s\n", a.last_error().c_str()), 1;
  }
  auto t0 = std::chrono::steady_clock::now();
  {
    const std::string tb = make_trace(events, true);
    t0 = std::chrono::steady_clock::now();
    c.load_begin("b.json", tb.size());
    feed(&c, tb);
    if (!c.load_end()) return std::fprintf(stderr, "B: %s\n", c.last_error().c_str()), 1;
  }
  const double load_b_ms = ms_since(t0);
  size_t changed = 0;
  auto key_ms = [&](strata::OpDiffKey k) {
    return best_ms(repeats, [&] { changed = c.diff(a, k).changed.size(); });
  };
  const double op_ms = key_ms(strata::OpDiffKey::kOperator);
  const size_t op_changed = changed;
  const double kernel_ms = key_ms(strata::OpDiffKey::kKernel);
  const double category_ms = key_ms(strata::OpDiffKey::kCategory);
  size_t steps = 0;
  const double steps_ms =
      best_ms(repeats, [&] { steps = strata::compare_steps(a, c.b()).pairs.size(); });
  size_t tree_nodes = 0;
  const double build_ms =
      best_ms(repeats, [&] { tree_nodes = strata::framework_call_tree(*a.store()).size(); });
  size_t tree_rows = 0;
  const double tree_ms = best_ms(repeats, [&] { tree_rows = c.tree_diff(a).rows.size(); });
  size_t bytes = 0;
  const double all_ms = best_ms(repeats, [&] { bytes = c.result_json(a).size(); });
  std::printf(
      "{\"eventsA\":%zu,\"eventsB\":%zu,\"loadBMs\":%.1f,\"operatorMs\":%.1f,\"operatorChanged\":"
      "%zu,\"kernelMs\":%.1f,\"categoryMs\":%.1f,\"stepsMs\":%.1f,\"steps\":%zu,\"treeMs\":%.1f,"
      "\"treeRows\":%zu,\"treeBuildMs\":%.1f,\"treeNodes\":%zu,\"resultMs\":%.1f,\"resultBytes\":%"
      "zu,\"peakBytes\":%llu}\n",
      a.store()->events.size(), c.b().store()->events.size(), load_b_ms, op_ms, op_changed,
      kernel_ms, category_ms, steps_ms, steps, tree_ms, tree_rows, build_ms, tree_nodes, all_ms,
      bytes, static_cast<unsigned long long>(strata_bench::peak_bytes()));
  return 0;
}
