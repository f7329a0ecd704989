// Chrome Trace Event Format (JSON) importer.
#pragma once
#include <memory>

#include "core/formats/importer.h"

namespace strata {

// `store` must outlive the importer; finish() leaves it complete and indexed.
std::unique_ptr<Importer> make_chrome_json_importer(TraceStore* store);

}  // namespace strata
