// strata_bench_ranks <trace> [<trace> ...]
//
// Loads the traces as one (several Kineto ranks: one trace, a section group per rank) through
// the Engine as the worker does, then prints one line of JSON per measurement, in CPU seconds
// (what compares on a machine other work shares):
//   load           the whole load
//   analysis       the list (no name) and the ranks, gpu_breakdown, overview and steps tables:
//                  the first answer after the load and the best of 2 more
//   queue_length   add_queue_length_tracks() run again on the loaded store: the work the
//                  load did for the queue length tracks (best of 3), and its share of the load
// Used by docs/BENCHMARKS.md's ranks and queue length sections.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/analysis/queue_length.h"
#include "tools/bench_load.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <trace> [<trace> ...]\n", argv[0]);
    return 2;
  }
  namespace bench = strata::bench;
  strata::Engine engine;
  const double c0 = bench::cpu_seconds();
  long bytes = 0;
  if (!bench::load_files(&engine, std::vector<std::string>(argv + 1, argv + argc), &bytes))
    return 1;
  const double load = bench::cpu_seconds() - c0;
  std::printf("{\"query\":\"load\",\"cpuSeconds\":%.4f,\"events\":%zu,\"bytes\":%ld}\n", load,
              engine.store()->events.size(), bytes);
  for (const char* name : {"", "ranks", "gpu_breakdown", "overview", "steps"}) {
    const std::string q = *name ? std::string(R"({"name":")") + name + "\"}" : "{}";
    const bench::QueryTime t = bench::time_analysis(engine, q, 2);
    std::printf(
        "{\"query\":\"%s\",\"firstCpuSeconds\":%.4f,\"bestCpuSeconds\":%.4f,\"replyBytes\":%zu}\n",
        *name ? name : "list", t.first_cpu_seconds, t.best_cpu_seconds, t.json.size());
  }
  {
    // Last, as it adds the tracks to the loaded store again (nothing is asked of it after).
    auto* store = const_cast<strata::TraceStore*>(engine.store());
    double best = 1e30;
    uint32_t tracks = 0;
    for (int k = 0; k < 3; ++k) {
      const double c = bench::cpu_seconds();
      tracks = strata::add_queue_length_tracks(store);
      best = std::min(best, bench::cpu_seconds() - c);
    }
    std::printf(
        "{\"query\":\"queue_length\",\"cpuSeconds\":%.4f,\"tracks\":%u,\"shareOfLoad\":%.4f}\n",
        best, tracks, best / load);
  }
  return 0;
}
