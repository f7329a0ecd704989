// The details pane for xplane events: the event's XEvent message, re-read from the file by its
// byte span (as JSON records are), decoded into the JSON "record" the pane shows.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/store/trace_store.h"

namespace strata {

// `bytes` is the XEvent of store event `event` (its src_offset/src_len span of the file). Returns
// a JSON object:
//   {"name": XEventMetadata.name, "displayName"?, "plane", "line", "offsetPs", "durationPs",
//    "args": {stat name: value, ...}   metadata stats first, then the event's (the event's win),
//    "xla"?: {hlo_op, hlo_module, program_id, hlo_category, flops, bytes_accessed,
//             shape_with_layout, source, source_stack, tf_op, ... as present,
//             "graph": {"programId", "op", "available"}},   the seam for the graph viewer
//    "derived"?: why args are those of another event}
// or {"error": ...} when the bytes do not decode (the file changed on disk?).
std::string xplane_record_json(const TraceStore& store, uint32_t event, std::string_view bytes);

}  // namespace strata
