#include "engine/pod/host_open.h"

namespace strata {

bool open_host_bundle(ByteReader* reader, const SplitTileReader& split_tile, TraceStore* out,
                      std::string* error) {
  if (!read_bundle_store(reader, split_tile, out, error)) {
    if (error->rfind("a split bundle", 0) == 0)
      *error = "a split bundle whose tiles/ cannot be read here (serve it beside pod.json)";
    return false;
  }
  return true;
}

}  // namespace strata
