// A whole bundle back as a TraceStore: the index's tables, then every events and counter tile in
// its place. The engine's first way to open a bundle (then its pyramid, views, search and
// details work as on a loaded trace); reading tiles on demand for a view comes after it. A tile
// that cannot be fetched or decoded leaves its events out (their row is empty there) and is
// named in the store's errors; the rest is kept.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/bundle/bundle_format.h"
#include "core/store/trace_store.h"

namespace strata::bundle {

// Tile i's bytes into *out; false when it cannot be read (then the tile is reported missing).
using FetchTile = std::function<bool(uint32_t tile, std::vector<uint8_t>* out)>;

// The index's tables into an empty store: strings (each its id back), sources, processes,
// tracks (their rows and event ranges as in the whole trace, counter tracks' series), series
// and the trace's times and messages, without events or samples. False (with why) when the
// string table repeats a string (ids would shift).
bool store_tables(const Manifest& m, TraceStore* s, std::string* error);

// False (with the reason) only when the manifest itself is inconsistent; tile failures are in
// out->errors, and *bad_tiles counts them.
bool store_from_bundle(const Manifest& m, const FetchTile& fetch, TraceStore* out,
                       size_t* bad_tiles, std::string* error);

}  // namespace strata::bundle
