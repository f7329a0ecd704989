#include "engine/pod/host_open.h"

#include "engine/bundle_open.h"

namespace strata {

bool open_host_bundle(ByteReader* reader, TraceStore* out, std::string* error) {
  // One-file bundles only: a split host would need its tiles/ beside it read by index.
  if (!read_bundle_store(reader, {}, out, error)) {
    if (error->rfind("a split bundle", 0) == 0)
      *error = "a split bundle: a pod's hosts are opened as one-file bundles";
    return false;
  }
  return true;
}

}  // namespace strata
