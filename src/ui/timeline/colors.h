// Colours: a stable colour per event name (same name, same colour, across reloads), as in
// chrome://tracing, and the theme's fixed colours. Colours are 0xAABBGGRR (ImGui's ImU32).
#pragma once
#include <cstdint>
#include <string_view>

namespace strata {

uint32_t color_for_name(std::string_view name);
// Multiplies RGB by `f` (0..1) keeping alpha.
uint32_t shade(uint32_t rgba, float f);
// Black or white, whichever reads better on `rgba`.
uint32_t text_color_on(uint32_t rgba);

namespace theme {
constexpr uint32_t kBackground = 0xFF1E1B18;     // canvas behind everything
constexpr uint32_t kRowEven = 0xFF24211E;
constexpr uint32_t kRowOdd = 0xFF2A2723;
constexpr uint32_t kProcessHeader = 0xFF3A342E;
constexpr uint32_t kFolded = 0xFF8A8580;         // runs of sub-pixel events
constexpr uint32_t kSelection = 0xFF00D7FF;      // amber outline
constexpr uint32_t kCounter = 0xFFD09A4A;
constexpr uint32_t kGrid = 0x30FFFFFF;
constexpr uint32_t kText = 0xFFE6E6E6;
constexpr uint32_t kTextDim = 0xFFA0A0A0;
}  // namespace theme

}  // namespace strata
