// libFuzzer target for the engine's front: detect_format on an arbitrary head (under a file name
// the first byte picks), then the decompressing importer (gzip / zstd by magic, plain input
// passed through) in front of the format-sniffing importer, as the engine builds them, with the
// input split into up to three feed() calls; and the stream decoders driven directly.
#include <string_view>

#include "core/formats/compression/decompressing_importer.h"
#include "core/formats/compression/stream_decoder.h"
#include "core/formats/detect_format.h"
#include "core/formats/format_sniffer.h"
#include "core/store/trace_store.h"
#include "fuzz_target.h"

namespace {

constexpr std::string_view kNames[] = {
    "trace.json", "trace.json.gz", "host.xplane.pb",    "host.xplane.pb.zst", "m.hlo_proto.pb",
    "module.hlo", "train.log",     "memory_record.csv", "rank-0.json.zst",    "",
};
constexpr size_t kNameCount = sizeof(kNames) / sizeof(kNames[0]);

// Inflated bytes a run may produce: a small frame can claim gigabytes.
constexpr size_t kMaxInflated = size_t{16} << 20;

}  // namespace

STRATA_FUZZ_TARGET(compressed) {
  if (size < 3) return;
  const std::string_view name = kNames[data[2] % kNameCount];
  const size_t n = size - 3;
  const uint8_t* body = data + 3;
  size_t a = 0, b = 0;
  strata::fuzz::split_points(data[0], data[1], n, &a, &b);

  strata::detect_format(name, body, n);
  strata::trace_kind(body, n);

  strata::TraceStore store;
  auto importer =
      strata::make_decompressing_importer(&store, strata::make_format_sniffing_importer(&store));
  importer->feed(body, a);
  importer->feed(body + a, b - a);
  importer->feed(body + b, n - b);
  importer->finish();

  const strata::Compression c = strata::sniff_compression(body, n);
  if (auto decoder = strata::make_stream_decoder(c)) {
    size_t produced = 0;
    const strata::ByteSink sink = [&produced](const uint8_t*, size_t len) { produced += len; };
    decoder->feed(body, a, sink);
    if (produced < kMaxInflated) decoder->feed(body + a, n - a, sink);
    decoder->complete();
  }
}
