// strata_make_perfetto <out> [megabytes | bundled]
// Writes a Perfetto protobuf trace: without a size, the feature trace (every TrackEvent feature
// the importer reads; the fuzz seed); with one, a Chrome-shaped trace of about that many MB
// (scripts/bench-perfetto); with `bundled`, compressed packet bundles and legacy async events.
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/perfetto_trace_writer.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: strata_make_perfetto <out> [megabytes]\n");
    return 2;
  }
  const std::string mode = argc > 2 ? argv[2] : "";
  auto deflate = [](const std::string& in) {
    uLongf n = compressBound(in.size());
    std::string out(n, '\0');
    compress2(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(in.data()),
              in.size(), Z_BEST_SPEED);
    out.resize(n);
    return out;
  };
  const std::string t = mode == "bundled" ? strata::perfetto_writer::bundled_trace(deflate)
                        : argc > 2        ? strata::perfetto_writer::scaled_trace(
                                                static_cast<uint64_t>(std::atof(argv[2]) * 1024 * 1024))
                                   : strata::perfetto_writer::feature_trace();
  FILE* f = std::fopen(argv[1], "wb");
  if (!f || std::fwrite(t.data(), 1, t.size(), f) != t.size()) {
    std::perror(argv[1]);
    return 1;
  }
  std::fclose(f);
  return 0;
}
