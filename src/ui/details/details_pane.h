// The details pane: everything about the selected event. Name, times and ids arrive first from
// the engine; args come from the event's own record, re-read from the file on selection.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"

namespace strata {

struct DetailsPane {
  int64_t event = -1;        // selected event, -1 = none
  bool waiting = false;      // details requested, not arrived
  std::string error;         // why details could not be shown
  std::vector<JsonLine> lines;  // the details JSON, flattened (see json_flat.h)
};

// Replaces the content with the engine's details JSON for `event`.
void details_set(DetailsPane* p, int64_t event, const char* json);
void details_draw(const DetailsPane& p, int64_t origin_ns, float x, float y, float w, float h);

}  // namespace strata
