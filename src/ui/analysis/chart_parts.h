// What the Analysis tab's charts (the Roofline, the Memory Viewer) draw and report alike: a box
// in CSS px as their script-API state gives it, a theme colour as "#rrggbb", and a legend entry
// (a marker as the plot draws it, then its text).
#pragma once
#include <cstdint>
#include <string>

#include "ui/analysis/chart_box.h"

struct ImDrawList;

namespace strata {

// The last ImGui item's box.
ChartBox chart_item_box();
// An ImGui colour (ABGR) as "#rrggbb".
std::string chart_colour_hex(uint32_t abgr);
// "key":[x,y,w,h] appended to a JSON object's text.
void chart_append_box(std::string* o, const char* key, const ChartBox& b);

// How a plot marks a thing: a dot, a diamond, a filled square (an area), a line.
enum class ChartMark : uint8_t { kDot, kDiamond, kSwatch, kLine };
// The mark centred on (x, y), r its half-size.
void chart_draw_mark(ImDrawList* dl, ChartMark mark, float x, float y, float r, uint32_t colour);
// One legend entry at the cursor: the mark, one line high, and its text.
void chart_legend_entry(ChartMark mark, uint32_t colour, const char* text);

}  // namespace strata
