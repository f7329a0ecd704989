#include "ui/theme.h"

#include "imgui.h"

namespace strata {

namespace {
constexpr ThemePalette kDark = {
    false,
    0xFF1E1B18,
    0xFF24211E,
    0xFF2A2723,
    0xFF3A342E,
    0xFF8A8580,
    0xFF00D7FF,  // amber
    0xFFD09A4A,
    0x30FFFFFF,
    0xFFE6E6E6,
    0xFFA0A0A0,
    0xFFFFC78C,  // light blue
    0xFF6673FF,  // salmon red
    0xE0202020,
    0x60FFFFFF,
    0xC0FFFFFF,
    0x40FFFFFF,
    0xFFFFFFFF,
    0xFF201D1A,
    0x90C8C8C8,
    0x60FFFFFF,
    0xFF5C5853,  // timeline: folded-run hatching
    // tabs: allocated (sky blue), reserved (orange), peak (red), instant (gold), chart axis
    0xFFFFAA5A,
    0xC846AAFF,
    0xFF5050FF,
    0xA000D7FF,
    0xFF6E6E6E,
    // page: banner, comparison curve
    0xFF2A2A3A,  // banner: a dark red-grey
    0xFF40D0F0,  // comparison: yellow
    // panels
    0xFFC050FF,  // search mark: pink
    0xFFA6A6A6,  // dim label
    0xFF221F1C,  // graph: canvas, name / node text, box tint (fills at 42%) and edge, groups, edges
    0xFFF2F2F2,
    0xFFC8C8C8,
    0xFF6B6B6B,
    0xFFA0958C,
    0xFF3A332D,
    0xFF8A7A6A,
    0xFFE8D2BC,
    0xC8A09890,
    0x80A05A2A,  // analysis: the selected row (translucent blue)
    // charts: series a (blue), b (green), difference (red), overlap (amber), idle, other (greys)
    0xFFF48542,
    0xFF53A834,
    0xFF3543EA,
    0xFF04BCFB,
    0xFF969696,
    0xFF787878,
    // memory components: sky blue, green, pink, gold, cyan, tan
    {0xFFFFAA5A, 0xFF78D278, 0xFFDC78E6, 0xFF5AD2F0, 0xFFDCDC78, 0xFF648CC8},
    // graph: the selected node (red), its inputs (blue), its outputs (orange)
    0xFF1E1EDC,
    0xFFDC641E,
    0xFF1478E6,
    0xFFF0B040,  // roofline: memory roof (blue)
    0xFF3090F0,  // compute roof (orange)
    0xFF40D0F0,  // ridge (yellow)
    0xC080D060,  // an op's dot (translucent green)
    0xFFE070D0,  // a program's diamond (magenta)
};
// Light: the same roles, darker accents so outlines and text keep their contrast on near-white.
constexpr ThemePalette kLight = {
    true,
    0xFFF4F3F2,
    0xFFFBFAF9,
    0xFFEFEDEB,
    0xFFDCD6D0,
    0xFF8C8884,
    0xFF0078E6,  // deep orange
    0xFFB06C2A,
    0x30000000,
    0xFF1E1E1E,
    0xFF5E5E5E,
    0xFFB05A1A,  // dark blue
    0xFF2020C0,  // dark red
    0xE8FAFAFA,
    0x70000000,
    0xC0000000,
    0x30000000,
    0xFF000000,
    0xFFFFFFFF,
    0xA0606060,
    0x30000000,
    0xFFB4B0AC,  // timeline: folded-run hatching
    // tabs: the same hues darker, to stand out on white
    0xFFD26414,
    0xDC006ED7,
    0xFF1E1EC8,
    0xC80078AA,
    0xFF969696,
    // page: banner, comparison curve
    0xFFE6E6FA,  // banner: a pale rose
    0xFF0080C0,  // comparison: dark amber
    // panels
    0xFF9010C8,  // search mark: deep pink
    0xFF6A6A6A,  // dim label
    0xFFFCFAFA,  // graph: canvas, name / node text, box tint (fills kept) and edge, groups, edges
    0xFF000000,
    0xFF463C3C,
    0xFFFFFFFF,
    0xFF645046,
    0xFFF8F0EC,
    0xFFAA9182,
    0xFF5A3C32,
    0xC88C7D78,
    0x70F5C896,  // analysis: the selected row (pale blue)
    // charts: the same hues darker, to stand out on white
    0xFFD25F1A,
    0xFF327D14,
    0xFF1E28C8,
    0xFF008CC8,
    0xFF8C8C8C,
    0xFFA0A0A0,
    {0xFFB2773F, 0xFF549354, 0xFF9A54A1, 0xFF3F93A8, 0xFF9A9A54, 0xFF46628C},  // 70% of dark's
    0xFF1414C8,
    0xFFC85014,
    0xFF0064C8,
    0xFFC06010,  // roofline: memory roof (dark blue)
    0xFF0060D0,  // compute roof (dark orange)
    0xFF0080B0,  // ridge (dark amber)
    0xC0309030,  // an op's dot (translucent dark green)
    0xFFA02090,  // a program's diamond (purple)
};
// Step parts: green, purple, orange, yellow, teal, red, blue, sky, pink, grey, dark grey; on
// light the same hues deeper and idle a light grey.
constexpr std::array<uint32_t, kStepPartColours> kDarkStepParts = {
    0xFF5CB85C, 0xFFE070B0, 0xFF40A0FF, 0xFF40D0F0, 0xFFC0C040, 0xFF5050E0,
    0xFFE09050, 0xFFF0C080, 0xFFC080F0, 0xFFA0A0A0, 0xFF505050};
constexpr std::array<uint32_t, kStepPartColours> kLightStepParts = {
    0xFF3C963C, 0xFFB04888, 0xFF1078E0, 0xFF10A0C8, 0xFF909010, 0xFF3030C0,
    0xFFC06828, 0xFFD09850, 0xFFA050D0, 0xFF808080, 0xFFC8C8C8};
}  // namespace

ThemePalette g_palette = kDark;
std::array<uint32_t, kStepPartColours> g_step_part_colours = kDarkStepParts;

void set_theme(bool light) {
  g_palette = light ? kLight : kDark;
  g_step_part_colours = light ? kLightStepParts : kDarkStepParts;
  if (ImGui::GetCurrentContext() == nullptr) return;
  if (light) {
    ImGui::StyleColorsLight();
  } else {
    ImGui::StyleColorsDark();
  }
  // Light ImGui windows are pure white; a touch of grey separates them from the canvas.
  if (light) ImGui::GetStyle().Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.96f, 1.0f);
}

}  // namespace strata
