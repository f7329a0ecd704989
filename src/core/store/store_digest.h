// A 64-bit digest (FNV-1a) of everything a loaded store holds, in order: the strings in id
// order, processes, tracks, every event and counter column, flows, frames, side tables, time
// range and messages. Two loads that build the same store give the same digest: how the tests
// and benchmarks check that a faster path (a sliced load across workers, an optimisation)
// builds exactly what the plain one does. Sizes are hashed as 64-bit, so the engine in wasm and
// natively give the same figure for the same store. A pass over the whole store: asked for, never
// computed on the way.
#pragma once
#include <cstdint>

#include "core/store/trace_store.h"

namespace strata {

uint64_t store_digest(const TraceStore& s);

}  // namespace strata
