// The timeline's toolbar (the four tools of the seed trace viewer, the flow and grid toggles,
// the shortcuts button; src/ui/help draws the overlay) and its right-aligned extras.
#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "ui/theme.h"
#include "ui/timeline/timeline.h"

namespace strata {

float timeline_toolbar(Timeline* t, const TraceData& d, float x, float y, float w) {
  struct ToolButton {
    Tool tool;
    const char* label;
    const char* tip;
  };
  static const ToolButton kTools[] = {
      {Tool::kSelect, "1 Select", "Select (1): click, ctrl-click to add, drag a rectangle"},
      {Tool::kPan, "2 Pan", "Pan (2): drag to move in time and scroll tracks"},
      {Tool::kZoom, "3 Zoom", "Zoom (3): drag a time range, click to zoom in, shift-click out"},
      {Tool::kTiming, "4 Timing", "Timing (4): drag to measure an interval"},
  };
  for (const ToolButton& b : kTools) {
    bool active = t->tool == b.tool;
    if (active)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(b.label)) t->tool = b.tool;
    if (active) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", b.tip);
    ImGui::SameLine();
  }
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  ImGui::Checkbox("Flow events", &t->show_flows);
  ImGui::SameLine();
  ImGui::Checkbox("Grid (g)", &t->show_grid);
  ImGui::SameLine();
  if (ImGui::Button("?")) t->show_help = !t->show_help;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keyboard shortcuts (?)");
  return 0;
}

// "Show N hidden" and "Clear marks", when there is something to show or clear. Right-aligned at
// `right` so that their coming and going moves no other control.
void timeline_toolbar_extras(Timeline* t, float right) {
  int hidden = 0;
  for (uint8_t h : t->hidden) hidden += h;
  if (!hidden && t->marks.empty()) return;
  char label[48];
  std::snprintf(label, sizeof label, "Show %d hidden", hidden);
  const ImGuiStyle& style = ImGui::GetStyle();
  auto width = [&](const char* text) {
    return ImGui::CalcTextSize(text).x + style.FramePadding.x * 2 + style.ItemSpacing.x;
  };
  float x = right;
  if (hidden) x -= width(label);
  if (!t->marks.empty()) x -= width("Clear marks");
  ImGui::SameLine(x);
  if (hidden && ImGui::SmallButton(label)) std::fill(t->hidden.begin(), t->hidden.end(), 0);
  if (hidden && !t->marks.empty()) ImGui::SameLine();
  if (!t->marks.empty() && ImGui::SmallButton("Clear marks")) t->marks.clear();
}

}  // namespace strata
