// XProf XSpace (`*.xplane.pb`) importer: the same Importer shape as every format (feed() any
// chunks, finish() once). See xplane_importer.cc for the streaming and memory model and
// xplane_plane.cc for how planes, lines and events map onto the store.
#pragma once
#include <memory>

#include "core/formats/importer.h"

namespace strata {

// `store` must outlive the importer; finish() leaves it complete and indexed, with
// store->planes (the file's planes and lines) and store->xspace (tables for the details pane).
std::unique_ptr<Importer> make_xplane_importer(TraceStore* store);

}  // namespace strata
