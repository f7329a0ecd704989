// How the engine opens one host of a pod: its bundle read whole through `reader` (header, index,
// every events and counter tile) into a store. The one place a host's bundle is opened, so a
// reader that fetches tiles on demand replaces this function alone.
#pragma once
#include <string>

#include "core/store/trace_store.h"

namespace strata {

class ByteReader;

// False, with the reason, when the bundle cannot be opened (not a bundle, another version, a
// split manifest, a damaged index); a damaged tile is named in out->errors and the rest kept.
bool open_host_bundle(ByteReader* reader, TraceStore* out, std::string* error);

}  // namespace strata
