// A tile bundle read whole into a store (header, index, every events and counter tile), for
// Engine::load_bundle and a pod's hosts (engine/pod/host_open.h): one reading of a bundle.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/bundle/bundle_format.h"
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

// A bundle's header, index and search blob (three reads, whatever its size; a split bundle's
// manifest.strata holds all three): what a lazy open reads (engine_bundle_lazy.cc). False, with
// the reason, for a file that is not a bundle this Strata reads or a damaged index.
bool read_bundle_index(ByteReader* reader, bundle::Header* h, bundle::Manifest* m,
                       bundle::SearchIndex* search, std::string* error);

// The note a lazily opened trace carries in summary().notes.
inline constexpr const char* kLazyNote =
    "opened lazily: the timeline, search and details read the bundle's tiles as they are "
    "needed; the analyses need the bundle loaded whole";

}  // namespace strata
