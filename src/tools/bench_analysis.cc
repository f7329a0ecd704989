// strata_bench_analysis <file.xplane.pb> [runs]
//
// Loads an xplane through the Engine as the worker does, then answers the op analyses'
// queries (op_profile for all cores, with idle, and for core 0; hlo_stats; roofline) and
// prints one line of JSON per query: its first answer's time after the load, the fastest of
// `runs` more, the reply's size and its row count. Used by scripts/bench-analysis.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/engine.h"

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

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// User + system CPU seconds of the process: what to compare on a machine other work shares.
double cpu() {
#ifdef __EMSCRIPTEN__
  return node_cpu_seconds();
#else
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
#endif
}

size_t count_rows(const std::string& json) {
  size_t n = 0;
  for (size_t at = json.find("\"cells\":"); at != std::string::npos;
       at = json.find("\"cells\":", at + 1))
    ++n;
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <file.xplane.pb> [runs]\n", argv[0]);
    return 2;
  }
  const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  strata::Engine engine;
  const double t0 = now(), c0 = cpu();
  engine.load_begin(argv[1], static_cast<uint64_t>(size));
  constexpr size_t kChunk = 32u << 20;
  for (;;) {
    uint8_t* buf = engine.load_buffer(kChunk);
    const size_t n = std::fread(buf, 1, kChunk, f);
    if (n == 0) break;
    engine.load_commit(n);
  }
  std::fclose(f);
  if (!engine.load_end()) {
    std::fprintf(stderr, "%s: the load failed\n", argv[1]);
    return 1;
  }
  const double load = now() - t0, load_cpu = cpu() - c0;
  std::printf(
      "{\"query\":\"load\",\"seconds\":%.4f,\"cpuSeconds\":%.4f,\"events\":%zu,\"bytes\":%ld}\n",
      load, load_cpu, engine.store()->events.size(), size);
  const char* const queries[] = {
      R"({"name":"op_profile"})",
      R"({"name":"op_profile","includeIdle":true})",
      R"({"name":"op_profile","core":0})",
      R"({"name":"hlo_stats"})",
      R"({"name":"roofline"})",
  };
  for (const char* q : queries) {
    double t = now();
    const double c_start = cpu();
    std::string json = engine.query_json("analysis", q);
    const double first = now() - t, first_cpu = cpu() - c_start;
    double best = first;
    for (int k = 0; k < runs; ++k) {
      t = now();
      json = engine.query_json("analysis", q);
      best = std::min(best, now() - t);
    }
    std::string escaped;
    for (const char* c = q; *c; ++c) {
      if (*c == '"') escaped += '\\';
      escaped += *c;
    }
    std::printf(
        "{\"query\":\"%s\",\"firstSeconds\":%.4f,\"firstCpuSeconds\":%.4f,\"bestSeconds\":%.4f,"
        "\"replyBytes\":%zu,\"rows\":%zu}\n",
        escaped.c_str(), first, first_cpu, best, json.size(), count_rows(json));
  }
  return 0;
}
