// Engine::load_bundle: a tile bundle read where it is (the reader's byte ranges stand in for
// Range requests), every events and counter tile placed back into a store, its pyramid built
// and installed as a load's end does; a bundle that cannot be opened keeps the trace shown.
#include <memory>
#include <new>
#include <vector>

#include "core/bundle/bundle_reader.h"
#include "core/bundle/bundle_store.h"
#include "core/formats/sqlite/byte_reader.h"
#include "engine/bundle_open.h"
#include "engine/engine.h"

namespace strata {

namespace {

bool read_range(ByteReader* r, uint64_t offset, uint64_t n, std::vector<uint8_t>* out) {
  if (offset > r->size() || n > r->size() - offset) return false;
  out->resize(n);
  return n == 0 || r->read(offset, out->data(), n);
}

}  // namespace

bool read_bundle_store(ByteReader* reader, const SplitTileReader& split_tile, TraceStore* out,
                       std::string* error) {
  using namespace bundle;
  std::vector<uint8_t> bytes;
  Header h;
  Manifest m;
  if (!read_range(reader, 0, kHeaderBytes, &bytes)) {
    *error = "not a Strata bundle (shorter than its header)";
    return false;
  }
  if (!parse_header(bytes.data(), bytes.size(), &h, error)) return false;
  const bool split = h.flags & kFlagSplit;
  if (split && !split_tile) {
    *error = "a split bundle's manifest: open it by URL beside its tiles/ folder, not alone";
    return false;
  }
  if (!read_range(reader, h.index_offset, h.index_length, &bytes)) bytes.clear();
  if (!parse_index(h, bytes.data(), bytes.size(), &m, error)) return false;
  size_t bad = 0;
  return store_from_bundle(
      m,
      [&](uint32_t i, std::vector<uint8_t>* tile) {
        if (split) return split_tile(i, m.tiles[i].length, tile);
        return read_range(reader, m.tiles[i].offset, m.tiles[i].length, tile);
      },
      out, &bad, error);
}

bool Engine::load_bundle(std::string_view name, ByteReader* reader,
                         const SplitTileReader& split_tile) {
  load_begin(name, reader->size());
  importer_.reset();  // no stream to feed
  preview_importer_.reset();
  preview_store_.reset();
  std::string error;
  auto store = std::make_unique<TraceStore>();
  try {
    if (!read_bundle_store(reader, split_tile, store.get(), &error)) {
      load_fail(error);
      return false;
    }
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while reading the bundle");
    return false;
  }
  return install_built(std::move(store), reader->size());
}

}  // namespace strata
