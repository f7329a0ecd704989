// Flow neighbours of an event: what the details pane lists and the timeline draws arrows to.
#pragma once
#include <cstdint>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

struct FlowNeighbour {
  uint32_t event;  // the slice at the other end of the arrow
  uint32_t flow;   // index into TraceStore::flows
  bool incoming;   // true: the arrow comes from `event` into the queried one
};

// Incoming edges first (by source event), then outgoing (by target event). O(log F + k).
std::vector<FlowNeighbour> flows_of(const TraceStore& store, uint32_t event);

}  // namespace strata
