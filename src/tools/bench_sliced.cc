// strata_bench_sliced <file.json | file.xplane.pb> [slices ...] [--rounds=N] [--planes]
//
// The sliced Chrome JSON path (core/formats/chrome_json/sliced_import.h), or for a file named
// *.pb the sliced XSpace path (core/formats/xplane/xplane_sliced.h), against one pass, on
// native threads: the file is read into memory, then for each round and each slice count N it
// is imported once in one pass (N = 1: the importer alone, as one worker) and once cut into N
// slices parsed on N threads, merged and finished. Prints one JSON line per run: wall seconds,
// each slice's parse seconds, the merge and finish seconds, the CPU seconds, whether the store's
// digest equals the one-pass store's, and the cuts refused. The browser's workers do the same
// work (a worker per slice, the merge in the engine worker); this measures what parallel parse
// can give before any copying between workers, and the serial parts (merge, finish) the scaling
// model for more cores needs. --planes: an XSpace is cut between its planes only (a plane
// bigger than a slice's share is otherwise cut at its lines). `asked` is the slice count asked
// for, `slices` the slices made (a plane cut at its lines ends a slice: one more at most).
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "core/formats/chrome_json/chrome_json_importer.h"
#include "core/formats/chrome_json/sliced_import.h"
#include "core/formats/xplane/xplane_importer.h"
#include "core/formats/xplane/xplane_sliced.h"
#include "tools/bench_common.h"

namespace {

bool read_all(const char* path, std::string* out) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  fseeko(f, 0, SEEK_END);
  out->resize(static_cast<size_t>(ftello(f)));
  fseeko(f, 0, SEEK_SET);
  const size_t n = std::fread(out->data(), 1, out->size(), f);
  std::fclose(f);
  return n == out->size();
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The file's entry a load has before its bytes come (it sizes the store's columns).
void add_file(strata::TraceStore* store, const char* name, size_t bytes) {
  strata::SourceFile f;
  f.name = name;
  f.bytes = bytes;
  store->files.push_back(f);
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Each slice's CPU time on its thread: on a machine busy with other work, wall time says how
// much of a core a thread got, CPU time what the work costs (the scaling model's input).
std::vector<double> slice_cpu;

void run_threads(size_t n, const std::function<void(size_t)>& job) {
  slice_cpu.assign(n, 0);
  auto timed = [&](size_t i) {
    const double c0 = thread_cpu_seconds();
    job(i);
    slice_cpu[i] = thread_cpu_seconds() - c0;
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < n; ++i) threads.emplace_back(timed, i);
  timed(0);
  for (std::thread& t : threads) t.join();
}

std::string join(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <file.json | file.xplane.pb> [slices ...] [--rounds=N]\n",
                 argv[0]);
    return 2;
  }
  std::vector<size_t> counts;
  int rounds = 3;
  bool lines = true;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--planes")
      lines = false;
    else if (a.rfind("--rounds=", 0) == 0)
      rounds = std::atoi(argv[i] + 9);
    else
      counts.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  if (counts.empty()) counts = {2};
  std::string data;
  if (!read_all(argv[1], &data)) {
    std::perror(argv[1]);
    return 1;
  }
  const std::string path = argv[1];
  const bool xspace = path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
  for (int round = 0; round < rounds; ++round) {
    uint64_t reference = 0;
    {
      strata::TraceStore store;
      add_file(&store, argv[1], data.size());
      const double cpu0 = strata_bench::cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      auto imp =
          xspace ? strata::make_xplane_importer(&store) : strata::make_chrome_json_importer(&store);
      imp->feed(reinterpret_cast<const uint8_t*>(data.data()), data.size());
      const double parse_cpu = strata_bench::cpu_seconds() - cpu0;
      const auto t1 = std::chrono::steady_clock::now();
      imp->finish();
      const double finish = since(t1), secs = since(t0);
      reference = strata_bench::store_digest(store);
      std::printf(
          "{\"round\":%d,\"asked\":1,\"slices\":1,\"seconds\":%.4f,\"parseSeconds\":[%.4f],"
          "\"parseCpuSeconds\":[%.4f],\"mergeSeconds\":0,\"finishSeconds\":%.4f,"
          "\"serialCpuSeconds\":%.4f,\"cpuSeconds\":%.4f,\"mbPerS\":%.1f,"
          "\"events\":%zu,\"sameDigest\":true,\"refused\":0}\n",
          round, secs, secs - finish, parse_cpu, finish,
          strata_bench::cpu_seconds() - cpu0 - parse_cpu, strata_bench::cpu_seconds() - cpu0,
          data.size() / 1e6 / secs, store.events.size());
      std::fflush(stdout);
    }
    for (size_t n : counts) {
      if (n < 2) continue;
      strata::TraceStore store;
      add_file(&store, argv[1], data.size());
      strata::SlicedImportStats st;
      const double cpu0 = strata_bench::cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      strata::SlicedImportResult r =
          xspace ? strata::import_xspace_sliced(&store, data, n, &st, run_threads, lines)
                 : strata::import_chrome_json_sliced(&store, data, n, &st, run_threads);
      const double secs = since(t0);
      const double cpu = strata_bench::cpu_seconds() - cpu0;
      double parse_cpu = 0;
      for (double c : slice_cpu) parse_cpu += c;
      std::printf(
          "{\"round\":%d,\"asked\":%zu,\"slices\":%zu,\"seconds\":%.4f,\"parseSeconds\":[%s],"
          "\"parseCpuSeconds\":[%s],\"mergeSeconds\":%.4f,\"finishSeconds\":%.4f,"
          "\"serialCpuSeconds\":%.4f,\"cpuSeconds\":%.4f,\"mbPerS\":%.1f,"
          "\"events\":%zu,\"sameDigest\":%s,\"refused\":%zu%s}\n",
          round, n, st.slice_seconds.size(), secs, join(st.slice_seconds).c_str(),
          join(slice_cpu).c_str(), st.merge_seconds, st.finish_seconds, cpu - parse_cpu, cpu,
          data.size() / 1e6 / secs, store.events.size(),
          strata_bench::store_digest(store) == reference ? "true" : "false", st.refused,
          r.failed ? (",\"failure\":\"" + r.failure + "\"").c_str() : "");
      std::fflush(stdout);
    }
  }
  return 0;
}
