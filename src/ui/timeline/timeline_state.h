// The timeline's state as the script API reads it (JSON, forwarded by ui/exports/view_exports.cc):
// the name column as drawn, the tooltip, the ruler, the folded runs on screen; and exact view
// times at epoch scale, where a JS Number (a double) is only good to 256 ns.
#pragma once
#include <string>

#include "ui/timeline/timeline.h"

namespace strata {

// {labelWidth, columnX, headers: [{process, index, y, text, shown, elided}], processes: [{name,
// pid, labels, text}]}: y and columnX in CSS px of the canvas.
std::string timeline_headers_json(const Timeline& t, const TraceData& d);
// {kind, lines} of this frame's tooltip, or null.
std::string timeline_tooltip_json(const Timeline& t);
// {base: "1.234567891 s" or null, baseRelNs, fromMark, stepNs, labels}.
std::string timeline_ruler_json(const Timeline& t);
// [{x0, x1, y, startRelNs, endRelNs, count, label}] of the folded runs on screen (CSS px;
// label as drawn, "" when none).
std::string timeline_folded_runs_json(const Timeline& t, const TraceData& d);
}  // namespace strata
