// Several hosts' stores as one trace: each host's processes, tracks, events and counters appended
// after the ones before, its strings re-interned, its processes kept in their order and pids but
// named "<host> <process>" so every host is a section group of its own (as several xplanes or
// ranks opened together are), and its times kept as written, so each host sits at its offset
// from the pod's base on one time axis.
#pragma once
#include <string_view>

#include "core/store/trace_store.h"

namespace strata {

// Appends `host` to `pod`. Only what a bundle's store holds is carried (docs/BUNDLE.md, "Not in
// v1"): flows, stack frames, clock syncs, memory dumps and the per-format details tables are
// not in a host's store, and so not in the pod's.
void append_host(TraceStore* pod, const TraceStore& host, std::string_view name);

}  // namespace strata
