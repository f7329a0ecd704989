// The find replies, written by this one function for a loaded trace and a lazy bundle (whose
// matches come from its tiles, put in a store of their own: ctx.event_id names them by the
// trace's index).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/query/event_json.h"
#include "core/query/find.h"
#include "core/store/trace_store.h"

namespace strata {

// panel (the search panel's find query): {count, matches: [{event, name, start, end, track,
// depth}], binsStart, binsEnd, bins, nameIds} with the ids marked in `names`; else (strata.find)
// {count, matches: [{name, tsNs, durNs, pid, tid, event}]}. `extent_ns`: the trace's span, the
// bins' end.
std::string find_reply_json(const TraceStore& s, const FindResult& r,
                            const std::vector<uint8_t>& names, bool panel, TimeNs extent_ns,
                            const EventJsonContext& ctx);

}  // namespace strata
