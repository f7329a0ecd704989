// An Importer in front of another: it recognises gzip/zstd by their magic bytes and hands the
// inner importer decompressed bytes, chunk by chunk. Uncompressed input passes straight
// through, so every file goes through this one entry point.
#pragma once
#include <memory>

#include "core/formats/compression/stream_decoder.h"
#include "core/formats/importer.h"

namespace strata {

std::unique_ptr<Importer> make_decompressing_importer(TraceStore* store,
                                                      std::unique_ptr<Importer> inner);

}  // namespace strata
