// strata_bench_sqlite <file.db> [--runs=N] [--digest]
//
// Opens a SQLite profile through the Engine as the worker does (Engine::load_sqlite over a
// reader of the file) N times (default 3) and prints one line of JSON with the fastest run's
// wall and CPU seconds, the reads the engine asked of the file (in the browser each is a
// FileReaderSync round trip), and each phase of it timed on its own: the import into a store
// (open, tables, build), the memory model's read, and the pyramid. "installSeconds" is what the
// engine's load took beyond those (its load-time passes). --digest adds hashes of the store
// and pyramid, so a change can be checked to build exactly the same. Used by
// scripts/bench-sqlite; the wasm build (strata_bench_sqlite_node, cmake/wasm.cmake) runs the same
// code under node, as the worker's engine does, without the browser's file reads.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/formats/sqlite/byte_reader.h"
#include "core/formats/sqlite/sqlite_db.h"
#include "core/formats/sqlite/sqlite_import.h"
#include "core/memory/ascend_db_memory.h"
#include "engine/engine.h"
#include "tools/bench_common.h"

namespace {

// The file's reader, counting what was asked of it.
class CountingReader : public strata::ByteReader {
 public:
  explicit CountingReader(strata::ByteReader* source) : source_(source) {}
  uint64_t size() const override { return source_->size(); }
  bool read(uint64_t offset, uint8_t* dst, size_t n) override {
    ++reads, bytes += n;
    return source_->read(offset, dst, n);
  }
  uint64_t reads = 0, bytes = 0;

 private:
  strata::ByteReader* source_;
};

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Run {
  double seconds = 0, cpu_seconds = 0, import_seconds = 0, memory_seconds = 0, pyramid_seconds = 0;
  uint64_t reads = 0, read_bytes = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <file.db> [--runs=N] [--digest]\n", argv[0]);
    return 2;
  }
  int runs = 3;
  bool digest = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--digest")
      digest = true;
    else if (a.rfind("--runs=", 0) == 0)
      runs = std::max(1, std::atoi(argv[i] + 7));
  }
  strata::FileByteReader file(argv[1]);
  if (!file.ok()) {
    std::perror(argv[1]);
    return 1;
  }
  Run best;
  std::unique_ptr<strata::Engine> engine;
  for (int k = 0; k < runs; ++k) {
    Run r;
    engine = std::make_unique<strata::Engine>();
    CountingReader counted(&file);
    const double cpu0 = strata_bench::cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    if (!engine->load_sqlite(argv[1], &counted)) {
      std::fprintf(stderr, "load failed: %s\n", engine->last_error().c_str());
      return 1;
    }
    r.seconds = since(t0);
    r.cpu_seconds = strata_bench::cpu_seconds() - cpu0;
    r.reads = counted.reads, r.read_bytes = counted.bytes;

    // The phases again, one by one, on their own store.
    strata::TraceStore store;
    store.files.push_back(engine->store()->files[0]);
    std::string error;
    auto p0 = std::chrono::steady_clock::now();
    if (!strata::import_sqlite(&file, &store, &error)) {
      std::fprintf(stderr, "import failed: %s\n", error.c_str());
      return 1;
    }
    r.import_seconds = since(p0);
    p0 = std::chrono::steady_clock::now();
    {
      strata::CachedByteReader cached(&file);
      strata::MemoryData memory;
      if (std::unique_ptr<strata::SqliteDb> db = strata::SqliteDb::open(&cached, &error))
        strata::ascend_db_memory(db.get(), &memory);
    }
    r.memory_seconds = since(p0);
    p0 = std::chrono::steady_clock::now();
    strata::Pyramid pyramid = strata::build_pyramid(store);
    r.pyramid_seconds = since(p0);
    if (k == 0 || r.seconds < best.seconds) best = r;
  }
  const strata::TraceStore& s = *engine->store();
  const double install =
      best.seconds - best.import_seconds - best.memory_seconds - best.pyramid_seconds;
  std::printf(
      "{\"file\":\"%s\",\"bytes\":%llu,\"events\":%zu,\"counterSamples\":%zu,\"flows\":%zu,"
      "\"seconds\":%.4f,\"cpuSeconds\":%.4f,\"reads\":%llu,\"readBytes\":%llu,"
      "\"importSeconds\":%.4f,\"memorySeconds\":%.4f,\"pyramidSeconds\":%.4f,"
      "\"installSeconds\":%.4f,\"peakBytes\":%llu%s}\n",
      argv[1], static_cast<unsigned long long>(file.size()), s.events.size(), s.samples.ts.size(),
      s.flows.from.size(), best.seconds, best.cpu_seconds,
      static_cast<unsigned long long>(best.reads), static_cast<unsigned long long>(best.read_bytes),
      best.import_seconds, best.memory_seconds, best.pyramid_seconds, install,
      static_cast<unsigned long long>(strata_bench::peak_bytes()),
      digest ? (",\"digest\":\"" + std::to_string(strata_bench::store_digest(s)) +
                "\",\"pyramidDigest\":\"" +
                std::to_string(strata_bench::pyramid_digest(engine->pyramid())) + "\"")
                   .c_str()
             : "");
  return 0;
}
