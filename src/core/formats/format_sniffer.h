// Chooses the format's importer from the first bytes of the (decompressed) input, so every
// format shares the engine's one entry point and compressed files of any format work:
//   '{' or '[' after optional whitespace / UTF-8 BOM  → Chrome Trace Event JSON;
//   a length-delimited XSpace field first (0x0A planes, 0x12/0x1A/0x22 errors, warnings,
//   hostnames)                                           → XProf XSpace (xplane.pb);
//   a Trace of TracePackets (perfetto_sniff.h)            → Perfetto protobuf;
//   anything else → the JSON importer, whose error says what it expected.
// Sets store->files[0].format ("chrome-json", "xplane" or "perfetto").
#pragma once
#include <memory>

#include "core/formats/importer.h"

namespace strata {

std::unique_ptr<Importer> make_format_sniffing_importer(TraceStore* store);

}  // namespace strata
