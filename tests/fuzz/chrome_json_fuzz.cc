// libFuzzer target for the Chrome JSON importer, the store builder behind it, the flow query
// and json_flatten. The first two input bytes choose where the rest is split into up to three
// chunks, so the fuzzer also explores records, strings, numbers and top-level keys cut across
// feed() calls (the importer's resumable states), not only whole documents.
//
// Built with -DSTRATA_FUZZ=ON and clang (see scripts/fuzz.sh); replayed in the tests.
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
#include "fuzz_target.h"

STRATA_FUZZ_TARGET(chrome_json) {
  if (size < 2) return;
  const size_t n = size - 2;
  const uint8_t* body = data + 2;

  strata::TraceStore store;
  auto importer = strata::make_chrome_json_importer(&store);
  strata::fuzz::feed_split(importer.get(), data, size);

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
}
