// libFuzzer target for the Chrome JSON importer, the store builder behind it, the flow query
// and json_flatten. The first two input bytes choose where the rest is split into up to three
// chunks, so the fuzzer also explores records, strings, numbers and top-level keys cut across
// feed() calls (the importer's resumable states), not only whole documents.
//
// Built only with -DSTRATA_FUZZ=ON and clang (see scripts/fuzz.sh).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/chrome_json/chrome_json_importer.h"
#include "core/formats/json/json_flat.h"
#if __has_include("core/query/flows.h")
#include "core/query/flows.h"
#define STRATA_FUZZ_FLOWS 1
#endif
#include "core/store/trace_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t n = size - 2;
  const uint8_t* body = data + 2;
  // Two split points in [0, n], in order: chunks [0, a), [a, b), [b, n).
  size_t a = n ? data[0] % (n + 1) : 0;
  size_t b = n ? data[1] % (n + 1) : 0;
  if (a > b) std::swap(a, b);

  strata::TraceStore store;
  auto importer = strata::make_chrome_json_importer(&store);
  importer->feed(body, a);
  importer->feed(body + a, b - a);
  importer->feed(body + b, n - b);
  importer->finish();

  // Every flow neighbour must name a valid event; touching the first events' flows exercises
  // the flow index after arbitrary repairs.
#ifdef STRATA_FUZZ_FLOWS
  size_t events = store.events.size();
  for (size_t i = 0; i < events && i < 64; ++i) {
    for (const strata::FlowNeighbour& f : strata::flows_of(store, static_cast<uint32_t>(i)))
      if (f.event >= events) __builtin_trap();
  }
#endif

  // The details pane flattens an event's source span; fuzz it on the whole input too.
  std::vector<strata::JsonLine> lines;
  std::string error;
  strata::json_flatten(std::string_view(reinterpret_cast<const char*>(body), n), &lines, &error);
  return 0;
}
