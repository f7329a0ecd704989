// The Compare tab's details under the aligned timelines: A's selected event (the App's details
// pane, A's engine) and B's (B's engine, compare_timelines.h) side by side, and above them what
// the linked selection found (the same occurrence, the nearest, no counterpart) with the two
// durations and B − A.
#pragma once
#include "ui/compare/compare_timelines.h"
#include "ui/details/details_pane.h"
#include "ui/timeline/timeline.h"
#include "ui/trace_data.h"

namespace strata {

// The height the strip takes out of `avail` (the tab's space under the tables).
float compare_details_height(const CompareTimelines& c, float avail);
void compare_details_frame(CompareTimelines* c, DetailsPane* a_details, Timeline* a,
                           const TraceData& a_data, float x, float y, float w, float h);

}  // namespace strata
