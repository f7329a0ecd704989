// The timeline's side of the graph viewer: in an XLA op's details, "Open in graph viewer".
#pragma once
#include <vector>

#include "core/formats/json/json_flat.h"

namespace strata {

// When the details (flattened engine JSON) carry record.xla.graph {programId, op, available},
// draws the button; a click asks the page to open that program's module centred on the op.
void graph_link_button(const std::vector<JsonLine>& details);

}  // namespace strata
