// strata_bench_ingest <file> [chunk_bytes] [--digest] [--warm-up=<file>] [--no-preview]
//                     [--pyramid-runs=N]
//
// Loads a trace through the Engine exactly as the worker does (chunks into load_buffer, then
// load_end) and prints one line of JSON: bytes read, records, events, wall time, MB/s of the
// file as given, MB/s of the uncompressed JSON, events/s, the store's size against the
// uncompressed JSON (issue 3's 0.3× target) and the process's peak memory (peak RSS natively;
// the whole wasm memory when built with Emscripten, which never shrinks, as in the worker).
// Natively it also prints the CPU time (user + sys), which is what to compare on a loaded
// machine. Used by scripts/bench-ingest; the wasm build (strata_bench_ingest_node, see
// cmake/wasm.cmake) runs under node to profile the engine without a browser. --digest adds a
// hash of the whole store (every column and table, strings, messages) and one of the pyramid,
// so an optimisation can be checked to build exactly the same as before on large files.
// --warm-up loads another file first and drops it, as scripts/bench-ingest's browser runs do: in
// wasm, V8 runs code as baseline code until it has run a while, so a first load is slower than the
// ones after it.
// --no-preview turns off the engine's progressive display (Engine::set_preview), which indexes
// the first part of a big file on its own as well, to see what that costs. --pyramid-runs=N
// builds the loaded store's pyramid N more times and adds the fastest ("pyramidSeconds"), to
// time that step alone (it is a few percent of a load: below the noise of a whole load).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#include <sys/resource.h>
#endif

#ifdef __EMSCRIPTEN__
// The node process's CPU time (all its threads, so V8's background compilers count too).
EM_JS(double, node_cpu_seconds, (), {
  if (!globalThis.process || !process.cpuUsage) return 0;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
});
#endif

namespace {

// Peak memory of the process so far, in bytes.
uint64_t peak_bytes() {
#ifdef __EMSCRIPTEN__
  return static_cast<uint64_t>(__builtin_wasm_memory_size(0)) * 65536;
#else
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
#endif
}

// User + system CPU seconds of the process.
double cpu_seconds() {
#ifdef __EMSCRIPTEN__
  return node_cpu_seconds();
#else
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
#endif
}

// FNV-1a over everything the store holds, in order.
struct Digest {
  uint64_t h = 0xcbf29ce484222325ull;
  void bytes(const void* p, size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  }
  template <class T>
  void pod(const T& v) {
    bytes(&v, sizeof(v));
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod(v.size());
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  void str(std::string_view s) {
    pod(s.size());
    bytes(s.data(), s.size());
  }
};

uint64_t store_digest(const strata::TraceStore& s) {
  Digest d;
  for (size_t i = 0; i < s.strings.size(); ++i) d.str(s.strings.get(static_cast<strata::StrId>(i)));
  for (const strata::Process& p : s.processes) {
    d.str(p.key);
    d.pod(p.pid), d.pod(p.name), d.pod(p.sort_index), d.pod(p.has_sort_index), d.pod(p.global);
    d.vec(p.labels), d.vec(p.tracks);
  }
  for (const strata::Track& t : s.tracks) {
    d.pod(t.process), d.pod(t.kind), d.str(t.key), d.pod(t.tid), d.pod(t.name);
    d.pod(t.sort_index), d.pod(t.has_sort_index), d.pod(t.first_event), d.pod(t.event_count);
    d.pod(t.max_depth), d.vec(t.rows), d.pod(t.first_series), d.pod(t.series_count);
  }
  const strata::EventColumns& ev = s.events;
  d.vec(ev.start), d.vec(ev.dur), d.vec(ev.name), d.vec(ev.cat), d.vec(ev.track), d.vec(ev.depth);
  d.vec(ev.phase), d.vec(ev.src_offset), d.vec(ev.src_len);
  for (const strata::CounterSeries& c : s.series)
    d.pod(c.track), d.pod(c.name), d.pod(c.first_sample), d.pod(c.sample_count);
  d.vec(s.samples.ts), d.vec(s.samples.value);
  d.vec(s.flows.from), d.vec(s.flows.to), d.vec(s.flows.kind), d.vec(s.flows.by_to);
  for (const auto& k : s.flows.kinds) d.pod(k.name), d.pod(k.cat);
  d.vec(s.frames.key), d.vec(s.frames.name), d.vec(s.frames.parent);
  for (const strata::ClockSync& c : s.clock_syncs)
    d.pod(c.ts), d.pod(c.issue_ts), d.pod(c.has_issue_ts), d.pod(c.sync_id);
  d.vec(s.memory_dumps), d.pod(s.device_count), d.str(s.display_time_unit);
  d.pod(s.phase_counts), d.pod(s.start_ns), d.pod(s.end_ns), d.pod(s.has_time);
  for (const std::string& m : s.errors) d.str(m);
  for (const std::string& m : s.warnings) d.str(m);
  return d.h;
}

// FNV-1a over the pyramid (levels, bins, long events, counter min/max).
uint64_t pyramid_digest(const strata::Pyramid& p) {
  Digest d;
  d.pod(p.origin);
  for (const strata::PyramidRow& r : p.rows) d.pod(r.track), d.pod(r.depth);
  for (const strata::PyramidLevel& L : p.levels) {
    d.pod(L.bin_ns), d.vec(L.row_bins), d.vec(L.bin), d.vec(L.count), d.vec(L.busy);
    d.vec(L.longest), d.vec(L.row_long), d.vec(L.long_events);
  }
  for (const auto& L : p.counters.levels) d.vec(L.min), d.vec(L.max);
  return d.h;
}

}  // namespace

// Streams `path` through `engine` in chunks of `chunk` bytes, as the worker does. Returns the
// bytes read, or -1 when the file cannot be opened.
int64_t load_file(strata::Engine* engine, const char* path, size_t chunk) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return -1;
  // The size hint the worker gives too (Blob.size / Content-Length): it sizes the columns.
  fseeko(f, 0, SEEK_END);
  off_t size = ftello(f);
  fseeko(f, 0, SEEK_SET);
  engine->load_begin(path, size > 0 ? static_cast<uint64_t>(size) : 0);
  int64_t bytes = 0;
  for (;;) {
    uint8_t* buf = engine->load_buffer(chunk);
    size_t n = std::fread(buf, 1, chunk, f);
    if (n == 0) break;
    engine->load_commit(n);
    bytes += static_cast<int64_t>(n);
  }
  std::fclose(f);
  return bytes;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s <file> [chunk_bytes] [--digest] [--warm-up=<file>] [--no-preview] "
                 "[--pyramid-runs=N]\n",
                 argv[0]);
    return 2;
  }
  size_t chunk = 256u << 10;  // web/worker/engine-worker.js commits 256 KB at a time
  bool digest = false;
  const char* warm_up = nullptr;
  bool preview = true;
  int pyramid_runs = 0;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--digest")
      digest = true;
    else if (a == "--no-preview")
      preview = false;
    else if (a.rfind("--pyramid-runs=", 0) == 0)
      pyramid_runs = std::atoi(argv[i] + 15);
    else if (a.rfind("--warm-up=", 0) == 0)
      warm_up = argv[i] + 10;
    else
      chunk = std::strtoull(argv[i], nullptr, 10);
  }
  if (warm_up) {
    strata::Engine warm;
    if (load_file(&warm, warm_up, chunk) < 0) std::perror(warm_up);
    warm.load_end();
  }
  strata::Engine engine;
  if (!preview) engine.set_preview(UINT64_MAX, 0);
  double cpu0 = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  int64_t read = load_file(&engine, argv[1], chunk);
  if (read < 0) {
    std::perror(argv[1]);
    return 1;
  }
  const auto bytes = static_cast<uint64_t>(read);
  auto t1 = std::chrono::steady_clock::now();
  bool ok = engine.load_end();
  double finish_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = cpu_seconds() - cpu0;
  if (!ok) {
    std::fprintf(stderr, "load failed: %s\n", engine.last_error().c_str());
    return 1;
  }
  const strata::TraceStore& s = *engine.store();
  // The uncompressed size is where the last record ended in the decompressed stream, at least.
  uint64_t json_bytes = bytes;
  for (size_t i = 0; i < s.events.size(); ++i)
    json_bytes = std::max<uint64_t>(json_bytes, s.events.src_offset[i] + s.events.src_len[i]);
  uint64_t records = 0;
  for (uint64_t c : s.phase_counts) records += c;
  double pyramid_secs = 0;
  for (int k = 0; k < pyramid_runs; ++k) {
    auto p0 = std::chrono::steady_clock::now();
    strata::Pyramid p = strata::build_pyramid(s);
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - p0).count();
    if (k == 0 || t < pyramid_secs) pyramid_secs = t;
  }
  std::printf(
      "{\"file\":\"%s\",\"bytes\":%llu,\"jsonBytes\":%llu,\"compression\":\"%s\",\"records\":%llu,"
      "\"events\":%zu,\"seconds\":%.4f,\"finishSeconds\":%.4f,\"cpuSeconds\":%.4f,\"mbPerS\":%.1f,"
      "\"jsonMbPerS\":%.1f,"
      "\"eventsPerS\":%.0f,\"storeBytes\":%zu,\"storeRatio\":%.3f,\"peakBytes\":%llu,"
      "\"peakRatio\":%.3f%s%s}\n",
      argv[1], static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(json_bytes),
      s.files[0].compression.c_str(), static_cast<unsigned long long>(records), s.events.size(),
      secs, finish_secs, cpu, bytes / 1e6 / secs, json_bytes / 1e6 / secs, s.events.size() / secs,
      s.memory_bytes(), static_cast<double>(s.memory_bytes()) / static_cast<double>(json_bytes),
      static_cast<unsigned long long>(peak_bytes()),
      static_cast<double>(peak_bytes()) / static_cast<double>(json_bytes),
      digest ? (",\"digest\":\"" + std::to_string(store_digest(s)) + "\",\"pyramidDigest\":\"" +
                std::to_string(pyramid_digest(engine.pyramid())) + "\"")
                   .c_str()
             : "",
      pyramid_runs > 0 ? (",\"pyramidSeconds\":" + std::to_string(pyramid_secs)).c_str() : "");
  return 0;
}
