// strata_bench_ingest <file> [chunk_bytes]
//
// Loads a trace through the Engine exactly as the worker does (chunks into load_buffer, then
// load_end) and prints one line of JSON: bytes read, records, events, wall time, MB/s of the
// file as given, MB/s of the uncompressed JSON, events/s, and the store's size against the
// uncompressed JSON (issue 3's 0.3× target). Used by scripts/bench-ingest.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/engine.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <file> [chunk_bytes]\n", argv[0]);
    return 2;
  }
  size_t chunk = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (4u << 20);
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  strata::Engine engine;
  auto t0 = std::chrono::steady_clock::now();
  engine.load_begin(argv[1], 0);
  uint64_t bytes = 0;
  for (;;) {
    uint8_t* buf = engine.load_buffer(chunk);
    size_t n = std::fread(buf, 1, chunk, f);
    if (n == 0) break;
    engine.load_commit(n);
    bytes += n;
  }
  std::fclose(f);
  bool ok = engine.load_end();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
  std::printf(
      "{\"file\":\"%s\",\"bytes\":%llu,\"jsonBytes\":%llu,\"compression\":\"%s\",\"records\":%llu,"
      "\"events\":%zu,\"seconds\":%.4f,\"mbPerS\":%.1f,\"jsonMbPerS\":%.1f,\"eventsPerS\":%.0f,"
      "\"storeBytes\":%zu,\"storeRatio\":%.3f}\n",
      argv[1], static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(json_bytes),
      s.files[0].compression.c_str(), static_cast<unsigned long long>(records), s.events.size(), secs,
      bytes / 1e6 / secs, json_bytes / 1e6 / secs, s.events.size() / secs, s.memory_bytes(),
      static_cast<double>(s.memory_bytes()) / static_cast<double>(json_bytes));
  return 0;
}
