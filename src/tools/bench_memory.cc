// Memory chart benchmark (issue 6): builds a series of N samples (a random walk with rare
// spikes, as allocator totals look), then times what the chart costs: building the min/max
// pyramids, and answering one view at a given pixel width (memory_buckets, as the engine's
// "memory_range" does) over the whole range and at deeper zooms. Checks every answer's peak
// against the true one, so a fast wrong answer cannot pass.
//   strata_bench_memory [samples] [columns]   → one markdown table row per measurement
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/memory/memory_data.h"
#include "core/memory/memory_query.h"

using namespace strata;

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 5000000;
  const uint32_t cols = argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)) : 2000;
  std::mt19937_64 rng(42);
  MemoryData m;
  m.series.emplace_back();
  MemorySeries& s = m.series[0];
  s.device = "GPU 0";
  double v = 1e9, peak = 0;
  TimeNs t = 0, peak_t = 0;
  for (size_t i = 0; i < n; ++i) {
    t += 1 + static_cast<TimeNs>(rng() % 2000);
    v = std::max(0.0, v + static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000));
    const double x = (rng() % 1000000 == 0) ? v * 3 : v;  // rare spikes one sample wide
    if (x > peak) peak = x, peak_t = t;
    s.add(t, x, x * 1.25);
  }
  double t0 = now_ms();
  memory_finish(&m);
  const double build_ms = now_ms() - t0;
  std::printf("| build min/max pyramids (allocated + reserved) | %zu | - | %.1f | - |\n", n,
              build_ms);
  const double first = static_cast<double>(s.ts.front()), last = static_cast<double>(s.ts.back());
  for (double zoom : {1.0, 10.0, 1000.0, 100000.0}) {
    const double span = (last - first) / zoom;
    const int reps = 50;
    double worst = 0, total = 0;
    bool peak_ok = true;
    for (int r = 0; r < reps; ++r) {
      // Views that contain the peak, so every answer can be checked against it.
      const double a = std::max(
          first, std::min(static_cast<double>(peak_t) - span * (r + 1) / (reps + 1), last - span));
      const double q0 = now_ms();
      const std::vector<MemoryBucket> b = memory_buckets(s, a, a + span, cols);
      const double dt = now_ms() - q0;
      total += dt;
      worst = std::max(worst, dt);
      double got = 0;
      for (const MemoryBucket& k : b)
        if (k.has_alloc) got = std::max(got, k.alloc_max);
      if (static_cast<double>(peak_t) >= a && static_cast<double>(peak_t) < a + span && got != peak)
        peak_ok = false;
    }
    std::printf("| view of 1/%g of the trace at %u px | %zu | %u | %.3f (max %.3f) | %s |\n", zoom,
                cols, n, cols, total / reps, worst, peak_ok ? "exact" : "WRONG");
    if (!peak_ok) return 1;
  }
  return 0;
}
