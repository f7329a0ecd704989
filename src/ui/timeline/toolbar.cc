// The timeline's toolbar (the four tools of the seed trace viewer, the flow and grid toggles,
// the shortcuts button) and the shortcuts overlay.
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
  int hidden = 0;
  for (uint8_t h : t->hidden) hidden += h;
  if (hidden) {
    ImGui::SameLine();
    char label[48];
    std::snprintf(label, sizeof label, "Show %d hidden", hidden);
    if (ImGui::SmallButton(label)) std::fill(t->hidden.begin(), t->hidden.end(), 0);
  }
  if (!t->marks.empty()) {
    ImGui::SameLine();
    if (ImGui::SmallButton("Clear marks")) t->marks.clear();
  }
  return 0;
}

void timeline_help(Timeline* t, float w, float h) {
  if (!t->show_help) return;
  ImGui::SetNextWindowPos(ImVec2(w / 2, h / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::Begin("Keyboard shortcuts", &t->show_help,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoCollapse);
  static const char* kRows[][2] = {
      {"W / S", "zoom in / out about the mouse (hold to keep going)"},
      {"A / D", "pan earlier / later (shift: faster)"},
      {"wheel, shift+wheel", "zoom; scroll the tracks"},
      {"right or middle drag", "pan with any tool"},
      {"1 2 3 4", "tools: select, pan, zoom, timing"},
      {"click, ctrl-click", "select an event; add or remove one"},
      {"drag (select tool)", "select every event in a rectangle"},
      {"f", "zoom to the selection (or the timing interval)"},
      {"m", "mark the selection's time range (m with nothing selected clears marks)"},
      {"0", "show the whole trace"},
      {"/", "search the whole trace"},
      {"Enter, shift+Enter", "next / previous search result"},
      {"g", "grid on / off"},
      {"Esc", "clear the selection and the timing interval"},
      {"?", "this help"},
  };
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (const auto& r : kRows) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccentText), "%s", r[0]);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(r[1]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace strata
