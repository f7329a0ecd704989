#include "engine/pod/host_open.h"

#include <vector>

#include "core/bundle/bundle_reader.h"
#include "core/bundle/bundle_store.h"
#include "core/formats/sqlite/byte_reader.h"

namespace strata {

namespace {

bool read_range(ByteReader* r, uint64_t offset, uint64_t n, std::vector<uint8_t>* out) {
  if (offset > r->size() || n > r->size() - offset) return false;
  out->resize(n);
  return n == 0 || r->read(offset, out->data(), n);
}

}  // namespace

bool open_host_bundle(ByteReader* reader, TraceStore* out, std::string* error) {
  using namespace bundle;
  std::vector<uint8_t> bytes;
  Header h;
  Manifest m;
  if (!read_range(reader, 0, kHeaderBytes, &bytes)) {
    *error = "not a Strata bundle (shorter than its header)";
    return false;
  }
  if (!parse_header(bytes.data(), bytes.size(), &h, error)) return false;
  if (h.flags & kFlagSplit) {
    *error = "a split bundle's manifest: a pod's hosts are opened as one-file bundles";
    return false;
  }
  if (!read_range(reader, h.index_offset, h.index_length, &bytes)) bytes.clear();
  if (!parse_index(h, bytes.data(), bytes.size(), &m, error)) return false;
  size_t bad = 0;
  return store_from_bundle(
      m,
      [&](uint32_t i, std::vector<uint8_t>* tile) {
        return read_range(reader, m.tiles[i].offset, m.tiles[i].length, tile);
      },
      out, &bad, error);
}

}  // namespace strata
