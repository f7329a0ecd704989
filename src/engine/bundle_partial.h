// Some of a lazy bundle's events tiles as a store: the bundle's tables (every track, process and
// string, so track and name ids are the whole trace's) with the events of those tiles only,
// each row's events in the trace's order. The queries a loaded trace answers from its store
// (region and name selections, the selection summary, parent, children, self time) run on it
// unchanged and give the loaded trace's answer when the tiles cover what they read (a row's
// events over the queried time range: BundleSession::row_tiles); events are named by the whole
// trace's index through ids().
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

struct PartialStore {
  std::unique_ptr<TraceStore> store;
  // Runs of consecutive events: store[local, local + count) is the trace's [global, ...).
  struct Run {
    uint32_t local = 0, global = 0, count = 0;
  };
  std::vector<Run> runs;  // by local, and so by global
  // The trace's index of the store's event `local`.
  uint32_t global(uint32_t local) const;
  // The store's index of the trace's event `global`, or kNone when its tile is not here.
  uint32_t local(uint32_t global) const;
  // How many of the store's events come before the trace's event `global` (where a row of the
  // trace starting there starts in the store).
  uint32_t before(uint32_t global) const;
  // global() for EventJsonContext::event_id.
  std::function<uint32_t(uint32_t)> ids() const {
    return [this](uint32_t e) { return global(e); };
  }
};

}  // namespace strata
