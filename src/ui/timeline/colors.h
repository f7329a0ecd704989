// Colours: a stable colour per event name (same name, same colour, across reloads), as in
// chrome://tracing. The theme's fixed colours are in ui/theme.h. Colours are 0xAABBGGRR (ImGui's
// ImU32).
#pragma once
#include <cstdint>
#include <string_view>

#include "ui/theme.h"  // theme::k* colours, used with these helpers

namespace strata {

uint32_t color_for_name(std::string_view name);
// Multiplies RGB by `f` (0..1) keeping alpha.
uint32_t shade(uint32_t rgba, float f);
// Black or white, whichever reads better on `rgba`.
uint32_t text_color_on(uint32_t rgba);

}  // namespace strata
