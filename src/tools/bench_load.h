// What the engine benchmarks share: the process's CPU time, loading files through the Engine as
// the worker does (in chunks through load_buffer / load_commit, several files as one trace), and
// timing one query's first answer and its best of more runs.
// Built natively and, for bench_analysis, as a node program (cmake/wasm.cmake).
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "tools/stream_load.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
// The node process's CPU time (all its threads).
EM_JS(double, node_cpu_seconds, (), {
  if (!globalThis.process || !process.cpuUsage) return 0;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
});
#else
#include <sys/resource.h>
#endif

namespace strata::bench {

inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// User + system CPU seconds of the process: what compares on a machine other work shares.
inline double cpu_seconds() {
#ifdef __EMSCRIPTEN__
  return node_cpu_seconds();
#else
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
#endif
}

// Loads `paths` as one trace (the first opens the load, the others join it). False, with the
// reason on stderr, when a file cannot be read or the load fails; *bytes: the files' sizes.
inline bool load_files(Engine* engine, const std::vector<std::string>& paths, long* bytes) {
  uint64_t n = 0;
  const bool ok = tools::stream_files(engine, paths, &n, "bench");
  *bytes = static_cast<long>(n);
  return ok;
}

// One analysis query timed: its first answer after the load, and the best of `runs` more (the
// first's times when runs is 0).
struct QueryTime {
  double first_seconds = 0, first_cpu_seconds = 0;
  double best_seconds = 0, best_cpu_seconds = 0;
  std::string json;  // the last answer
};
inline QueryTime time_analysis(const Engine& engine, const std::string& query, int runs) {
  QueryTime q;
  double t = wall_seconds(), c = cpu_seconds();
  q.json = engine.query_json("analysis", query);
  q.first_seconds = wall_seconds() - t;
  q.first_cpu_seconds = cpu_seconds() - c;
  q.best_seconds = q.first_seconds, q.best_cpu_seconds = q.first_cpu_seconds;
  for (int k = 0; k < runs; ++k) {
    t = wall_seconds(), c = cpu_seconds();
    q.json = engine.query_json("analysis", query);
    const double wall = wall_seconds() - t, cpu = cpu_seconds() - c;
    q.best_seconds = k == 0 ? wall : std::min(q.best_seconds, wall);
    q.best_cpu_seconds = k == 0 ? cpu : std::min(q.best_cpu_seconds, cpu);
  }
  return q;
}

}  // namespace strata::bench
