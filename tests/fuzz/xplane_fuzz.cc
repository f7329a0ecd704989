// libFuzzer target for the XSpace importer (split into up to three feed() calls, as the engine
// streams a file), the store builder behind it, the details pane's re-read of an event's XEvent
// bytes (xplane_record_json), the HloProto finder of an XSpace and the memory viewer's reader.
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/hlo/xplane_hlo.h"
#include "core/formats/xplane/xplane_details.h"
#include "core/formats/xplane/xplane_importer.h"
#include "core/memory/memory_data.h"
#include "core/memory/xplane_memory.h"
#include "core/store/trace_store.h"
#include "fuzz_target.h"
#include "hlo_fuzz_util.h"

STRATA_FUZZ_TARGET(xplane) {
  if (size < 2) return;
  const size_t n = size - 2;
  const uint8_t* body = data + 2;

  strata::TraceStore store;
  auto importer = strata::make_xplane_importer(&store);
  strata::fuzz::feed_split(importer.get(), data, size);

  // The details pane reads an event's span back from the file: every span must lie inside it.
  const size_t events = store.events.size();
  strata::XplaneMemoryBuilder memory;
  const std::string_view file(reinterpret_cast<const char*>(body), n);
  for (uint32_t e = 0; e < events && e < 64; ++e) {
    if (e >= store.events.src_offset.size() || store.events.src_len[e] == 0) continue;
    const uint64_t off = store.events.src_offset[e];
    const uint64_t len = store.events.src_len[e];
    if (off > n || len > n - off) __builtin_trap();
    std::string record = strata::xplane_record_json(store, e, file.substr(off, len));
    memory.add(record, store.events.start[e], e % 2 == 0);
  }
  strata::MemoryData chart = memory.take();
  strata::memory_finish(&chart);
  // A stale or hostile span (the file changed on disk) must give an error record, not a crash.
  if (events) strata::xplane_record_json(store, 0, file.substr(0, n / 2));

  std::vector<strata::hlo::HloModule> modules;
  std::vector<std::string> errors;
  strata::hlo::parse_xplane_hlo(body, n, &modules, &errors);
  for (const strata::hlo::HloModule& m : modules) strata::fuzz::check_hlo_module(m);
}
