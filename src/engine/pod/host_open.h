// How the engine opens one host of a pod read whole: its bundle read through `reader` (header,
// index, every events and counter tile) into a store. The one place a host's bundle is read
// whole; a pod opened lazily reads its hosts' indices instead (engine/pod/pod_lazy.h).
#pragma once
#include <string>

#include "core/store/trace_store.h"
#include "engine/bundle_open.h"

namespace strata {

class ByteReader;

// False, with the reason, when the bundle cannot be opened (not a bundle, another version, a
// damaged index, a split manifest without `split_tile` to read its tiles/<i>.zst); a damaged
// tile is named in out->errors and the rest kept.
bool open_host_bundle(ByteReader* reader, const SplitTileReader& split_tile, TraceStore* out,
                      std::string* error);

}  // namespace strata
