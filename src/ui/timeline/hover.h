// Hover tooltips: the slice under the cursor (name, duration, self time, category, a few args
// from the engine's details), a folded run ("N events", its span and how busy it is), a counter
// track's values at the cursor, and a name-column entry's full text. The text is built by the
// functions below (no ImGui), drawn by timeline_hover_tooltip.
#pragma once
#include <string>
#include <vector>

#include "ui/timeline/timeline.h"

struct ImDrawList;

namespace strata {

// How many args of the hovered event the tooltip lists.
constexpr size_t kTooltipArgs = 4;
// An arg value longer than this is cut with "...".
constexpr size_t kTooltipArgChars = 80;

// A counter series' value as its track labels it: byte sizes when the series is in bytes
// ("1.09 GiB"), else the number with up to 6 significant digits.
std::string counter_value_label(const UiSeries& se, double v);
// Reads what the tooltip shows from an event's details JSON.
HoverDetails hover_details_from_json(uint32_t event, const char* json);
// The tooltip lines of a slice (details: the engine's for this event, or null while asked for).
std::vector<std::string> slice_tooltip_lines(const std::string& name, double dur_ns,
                                             const HoverDetails* details);
// The tooltip lines of a folded run of `count` events over [start, end] ns, busy_permille busy.
std::vector<std::string> folded_tooltip_lines(uint32_t count, double start, double end,
                                              uint32_t busy_permille);
// The label a folded run shows when `room` px wide, with `width` measuring text: "N events"
// when it fits, else nothing (never a cut number that would read as a name).
template <typename Width>
std::string folded_run_label(uint32_t count, float room, Width width) {
  std::string s = std::to_string(count) + (count == 1 ? " event" : " events");
  return width(s) <= room ? s : std::string();
}

// Works out this frame's tooltip for the cursor at (mx, my) over the events area (when
// `over_events`) and draws it; asks for the hovered event's details when they are not there.
void timeline_hover_tooltip(Timeline* t, const TraceData& d, float mx, float my, bool over_events,
                            const proto::SliceEntry* hit);

}  // namespace strata
