// A tile bundle read whole into a store (header, index, every events and counter tile), for
// Engine::load_bundle and a pod's hosts (engine/pod/host_open.h): one reading of a bundle.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

class ByteReader;

// A split bundle's tile i (`length` bytes) from its own file (tiles/<i>.zst), into `out`.
using SplitTileReader =
    std::function<bool(uint32_t index, uint32_t length, std::vector<uint8_t>* out)>;

// False, with the reason, when the bundle cannot be opened (not a bundle, another version, a
// damaged index, a split manifest without `split_tile`); a tile that cannot be read or decoded
// is named in out->errors and the rest kept. May throw std::bad_alloc.
bool read_bundle_store(ByteReader* reader, const SplitTileReader& split_tile, TraceStore* out,
                       std::string* error);

}  // namespace strata
