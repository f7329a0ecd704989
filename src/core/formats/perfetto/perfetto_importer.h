// Perfetto protobuf trace importer (`.pftrace`, `.perfetto-trace`; Chrome's proto traces, the
// Perfetto SDK, tracing-perfetto, JAX / XProf Perfetto exports): the same Importer shape as
// every format. A Trace is a sequence of `packet` fields (1, length-delimited), so the file is
// cut at packet boundaries as the chunks arrive and each packet is decoded at once
// (perfetto_decoder.h); only a packet split across two chunks is copied.
#pragma once
#include <memory>
#include <string>

#include "core/formats/importer.h"

namespace strata {

// `store` must outlive the importer; finish() leaves it complete and indexed, with
// store->perfetto (the interned tables the details pane decodes debug annotations with).
std::unique_ptr<Importer> make_perfetto_importer(TraceStore* store);

}  // namespace strata
