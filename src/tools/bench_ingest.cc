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
#include "tools/bench_common.h"

using strata_bench::cpu_seconds;
using strata_bench::peak_bytes;
using strata_bench::pyramid_digest;
using strata_bench::store_digest;

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
