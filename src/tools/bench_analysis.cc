// strata_bench_analysis <file.xplane.pb> [runs]
//
// Loads an xplane through the Engine as the worker does, then answers the op analyses'
// queries (op_profile for all cores, with idle, and for core 0; hlo_stats; roofline) and
// prints one line of JSON per query: its first answer's time after the load, the fastest of
// it and `runs` more, the reply's size and its row count. Used by scripts/bench-analysis.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/bench_load.h"

namespace {

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
  namespace bench = strata::bench;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
  strata::Engine engine;
  const double t0 = bench::wall_seconds(), c0 = bench::cpu_seconds();
  long size = 0;
  if (!bench::load_files(&engine, {argv[1]}, &size)) return 1;
  const double load = bench::wall_seconds() - t0, load_cpu = bench::cpu_seconds() - c0;
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
    const bench::QueryTime t = bench::time_analysis(engine, q, runs);
    std::string escaped;
    for (const char* c = q; *c; ++c) {
      if (*c == '"') escaped += '\\';
      escaped += *c;
    }
    std::printf(
        "{\"query\":\"%s\",\"firstSeconds\":%.4f,\"firstCpuSeconds\":%.4f,\"bestSeconds\":%.4f,"
        "\"replyBytes\":%zu,\"rows\":%zu}\n",
        escaped.c_str(), t.first_seconds, t.first_cpu_seconds,
        std::min(t.first_seconds, t.best_seconds), t.json.size(), count_rows(t.json));
  }
  return 0;
}
