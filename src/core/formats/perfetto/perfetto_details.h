// The details pane for Perfetto events: the event's TrackEvent message, re-read from the file
// by its byte span (as JSON records are), decoded into the JSON "record" the pane shows.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/store/trace_store.h"

namespace strata {

// `bytes` is the TrackEvent of store event `event`. Returns a JSON object
//   {"name", "categories"?, "type", "track_uuid"?, "source_location"?, "flow_ids"?,
//    "args": {debug annotation name: value, ...}}   nested dicts and arrays as JSON
// or {"error": ...} when the bytes do not decode (the file changed on disk?).
std::string perfetto_record_json(const TraceStore& store, uint32_t event, std::string_view bytes);

}  // namespace strata
