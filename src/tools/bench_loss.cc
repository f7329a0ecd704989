// strata_bench_loss <log> [loss_tag iteration_tag]
//
// Scans a training log as the worker does (4 MB chunks through LossScanner; default tags
// guessed from the first 1 MB unless given) and prints one line of JSON: bytes, points,
// seconds, MB/s. Used by scripts/bench-loss.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/formats/loss_log/default_tags.h"
#include "core/formats/loss_log/log_scanner.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <log> [loss_tag iteration_tag]\n", argv[0]);
    return 2;
  }
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  constexpr size_t kChunk = 4u << 20;
  std::vector<uint8_t> buf(kChunk);
  size_t n = std::fread(buf.data(), 1, kChunk, f);
  strata::LossTags tags =
      argc > 3 ? strata::LossTags{argv[2], argv[3]}
               : strata::guess_loss_tags(std::string_view(reinterpret_cast<const char*>(buf.data()),
                                                          std::min<size_t>(n, 1u << 20)));
  auto t0 = std::chrono::steady_clock::now();
  strata::LossScanner scan(tags);
  while (n > 0) {
    scan.feed(buf.data(), n);
    n = std::fread(buf.data(), 1, kChunk, f);
  }
  scan.finish();
  std::fclose(f);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"bytes\":%llu,\"points\":%zu,\"seconds\":%.4f,\"mbps\":%.1f}\n",
              static_cast<unsigned long long>(scan.bytes()), scan.points().size(), secs,
              static_cast<double>(scan.bytes()) / 1e6 / secs);
  return 0;
}
