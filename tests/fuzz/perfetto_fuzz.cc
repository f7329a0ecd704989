// libFuzzer target for the Perfetto protobuf importer, the store builder behind it and the
// details pane's TrackEvent decoder. As in chrome_json_fuzz.cc, the first two input bytes
// choose where the rest is split into up to three chunks, so packets and their headers cut
// across feed() calls are explored too; then the first events' records (their byte spans of
// the input) are decoded as the details pane does.
//
// Built only with -DSTRATA_FUZZ=ON and clang; seeds in tests/fuzz/seeds/perfetto (made by
// strata_make_perfetto).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/formats/perfetto/perfetto_details.h"
#include "core/formats/perfetto/perfetto_importer.h"
#include "core/store/trace_store.h"
#include "fuzz_target.h"

STRATA_FUZZ_TARGET(perfetto) {
  if (size < 2) return;
  const size_t n = size - 2;
  const uint8_t* body = data + 2;

  strata::TraceStore store;
  auto importer = strata::make_perfetto_importer(&store);
  strata::fuzz::feed_split(importer.get(), data, size);
  if (importer->failed()) return;

  const size_t events = store.events.size();
  for (size_t i = 0; i < events && i < 64; ++i) {
    const uint64_t off = store.events.src_offset[i];
    const uint32_t len = store.events.src_len[i];
    if (off > n || len > n - off) __builtin_trap();  // a record outside the input
    const std::string json = strata::perfetto_record_json(
        store, static_cast<uint32_t>(i),
        std::string_view(reinterpret_cast<const char*>(body + off), len));
    if (json.empty()) __builtin_trap();
  }
  for (size_t i = 0; i < store.flows.size(); ++i)
    if (store.flows.from[i] >= events || store.flows.to[i] >= events) __builtin_trap();
}
