// strata_make_loss_log <out.log> <megabytes> [seed]
//
// Writes a Megatron-style training log of about the given size for scripts/bench-loss: per
// logged iteration, one "iteration N/ M | ... | lm loss: X | ..." line among a few lines of
// other output (timers, memory reports, warnings), in the proportions of the real Megatron
// logs in ../shared/data/training_logs. Prints the number of loss lines it wrote.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <out.log> <megabytes> [seed]\n", argv[0]);
    return 2;
  }
  const double target = std::strtod(argv[2], nullptr) * 1e6;
  unsigned seed = argc > 3 ? static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10)) : 1u;
  FILE* f = std::fopen(argv[1], "wb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  auto rnd = [&] {  // xorshift: reproducible noise without <random>'s per-platform differences
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    return (seed % 100000) / 100000.0;
  };
  std::string buf;
  double written = 0;
  long long lines = 0;
  char line[512];
  for (long long it = 10; written < target; it += 10) {
    const double loss = 10.7 * std::exp(-static_cast<double>(it) / 2e5) + 0.05 * rnd();
    int n = std::snprintf(
        line, sizeof line,
        " iteration %9lld/ 1716613 | consumed samples: %12lld | consumed tokens: %14lld | "
        "elapsed time per iteration (ms): %.1f | learning rate: %.3E | global batch size:   256 | "
        "lm loss: %.6E | loss scale: 2048.0 | number of skipped iterations:   0 | number of nan "
        "iterations:   0 |\n",
        it, it * 256, it * 524288, 450 + 100 * rnd(), 3e-4 * std::min(1.0, it / 3e4), loss);
    buf.append(line, static_cast<size_t>(n));
    ++lines;
    n = std::snprintf(line, sizeof line,
                      "time (ms) | forward-compute: %.2f | backward-compute: %.2f | optimizer: "
                      "%.2f | batch-generator: %.2f\n"
                      "[Rank 0] (after %lld iterations) memory (MB) | allocated: %.4f | max "
                      "allocated: %.4f | reserved: 6098.0\n"
                      "[2023-01-01 00:00:00,000] [INFO] [logging.py:68:log_dist] [Rank 0] "
                      "step=%lld, skipped=0, lr=[%.6e]\n",
                      120 + 10 * rnd(), 250 + 20 * rnd(), 30 + 5 * rnd(), 0.5 * rnd(), it,
                      1600 + 100 * rnd(), 5600 + 100 * rnd(), it, 3e-4 * rnd());
    buf.append(line, static_cast<size_t>(n));
    if (buf.size() > (8u << 20)) {
      std::fwrite(buf.data(), 1, buf.size(), f);
      written += static_cast<double>(buf.size());
      buf.clear();
    }
  }
  std::fwrite(buf.data(), 1, buf.size(), f);
  std::fclose(f);
  std::printf("%lld\n", lines);
  return 0;
}
