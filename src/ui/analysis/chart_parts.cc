#include "ui/analysis/chart_parts.h"

#include <cstdio>

#include "imgui.h"

namespace strata {

namespace {
constexpr float kLegendMarkShare = 0.35f;  // a legend mark's half-size, of the line height
constexpr float kLegendGap = 6.0f;         // between the mark and its text
constexpr float kLineThickness = 2.0f;
}  // namespace

ChartBox chart_item_box() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return {a.x, a.y, b.x - a.x, b.y - a.y};
}

std::string chart_colour_hex(uint32_t abgr) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", abgr & 0xFF, (abgr >> 8) & 0xFF,
                (abgr >> 16) & 0xFF);
  return buf;
}

void chart_append_box(std::string* o, const char* key, const ChartBox& b) {
  char buf[120];
  std::snprintf(buf, sizeof buf, "\"%s\":[%.1f,%.1f,%.1f,%.1f]", key, b.x, b.y, b.w, b.h);
  *o += buf;
}

void chart_draw_mark(ImDrawList* dl, ChartMark mark, float x, float y, float r, uint32_t colour) {
  switch (mark) {
    case ChartMark::kDot:
      dl->AddCircleFilled(ImVec2(x, y), r, colour);
      break;
    case ChartMark::kDiamond:
      dl->AddQuadFilled(ImVec2(x, y - r), ImVec2(x + r, y), ImVec2(x, y + r), ImVec2(x - r, y),
                        colour);
      break;
    case ChartMark::kSwatch:
      dl->AddRectFilled(ImVec2(x - r, y - r), ImVec2(x + r, y + r), colour);
      break;
    case ChartMark::kLine:
      dl->AddLine(ImVec2(x - r, y), ImVec2(x + r, y), colour, kLineThickness);
      break;
  }
}

void chart_legend_entry(ChartMark mark, uint32_t colour, const char* text) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float line_h = ImGui::GetTextLineHeight();
  const float r = line_h * kLegendMarkShare;
  chart_draw_mark(ImGui::GetWindowDrawList(), mark, at.x + r + 1, at.y + line_h / 2, r, colour);
  ImGui::Dummy(ImVec2(2 * r + kLegendGap, line_h));
  ImGui::SameLine();
  ImGui::TextUnformatted(text);
}

}  // namespace strata
