// make_xplane_importer: the XSpace importer (xplane_importer_impl.h).
#include "core/formats/xplane/xplane_importer.h"

#include "core/formats/xplane/xplane_importer_impl.h"

namespace strata {

std::unique_ptr<Importer> make_xplane_importer(TraceStore* store) {
  return std::make_unique<xplane_impl::XPlaneImporter>(store);
}

}  // namespace strata
