// The Runs tab's pies (draw-list arcs, as the plugin's top-N pies), legends and number formatting.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "ui/loss/loss_chart.h"
#include "ui/runs/runs_view.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {
namespace {
constexpr float kPi = 3.14159265358979f;
}  // namespace

void runs_legend(uint32_t colour, const char* label) {
  ImGui::ColorButton(label, ImGui::ColorConvertU32ToFloat4(colour), ImGuiColorEditFlags_NoTooltip,
                     ImVec2(10, 10));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
}

double runs_or_zero(double v) { return std::isnan(v) ? 0 : v; }

void runs_pie(const char* id, const char* title, std::vector<PieSlice> slices, size_t top, float w,
              float h) {
  ImGui::BeginChild(id, ImVec2(w, h), true);
  ImGui::TextUnformatted(title);
  std::sort(slices.begin(), slices.end(),
            [](const PieSlice& a, const PieSlice& b) { return a.value > b.value; });
  slices.erase(std::remove_if(slices.begin(), slices.end(),
                              [](const PieSlice& s) { return !(s.value > 0); }),
               slices.end());
  if (slices.size() > top) {
    PieSlice other{"Other", 0};
    for (size_t i = top; i < slices.size(); ++i) other.value += slices[i].value;
    slices.resize(top);
    slices.push_back(other);
  }
  double total = 0;
  for (const PieSlice& s : slices) total += s.value;
  if (!(total > 0)) {
    ImGui::TextDisabled("no time recorded");
    ImGui::EndChild();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float r = std::max(10.0f, std::min((h - 40) * 0.5f, w * 0.2f));
  const ImVec2 c(origin.x + r + 4, origin.y + r + 4);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float mdx = mouse.x - c.x, mdy = mouse.y - c.y;
  const bool inside = mdx * mdx + mdy * mdy <= r * r && ImGui::IsWindowHovered();
  float ma = std::atan2(mdy, mdx);
  if (ma < -kPi * 0.5f) ma += 2 * kPi;
  double a0 = -kPi * 0.5;
  int hovered = -1;
  for (size_t i = 0; i < slices.size(); ++i) {
    const double a1 = a0 + 2 * kPi * slices[i].value / total;
    const ImU32 col = slices[i].label == "Other" ? theme::kChartOther : loss_series_color(i);
    // Fill in convex pieces of at most a quarter turn.
    for (double s = a0; s < a1 - 1e-6; s += kPi * 0.5) {
      const double e = std::min(a1, s + kPi * 0.5);
      dl->PathLineTo(c);
      dl->PathArcTo(c, r, static_cast<float>(s), static_cast<float>(e));
      dl->PathFillConvex(col);
    }
    if (inside && ma >= a0 && ma < a1) hovered = static_cast<int>(i);
    a0 = a1;
  }
  // Legend beside the pie.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SetCursorScreenPos(ImVec2(origin.x + 2 * r + 16, origin.y));
  ImGui::BeginGroup();
  for (size_t i = 0; i < slices.size(); ++i) {
    const ImU32 col = slices[i].label == "Other" ? theme::kChartOther : loss_series_color(i);
    ImGui::ColorButton("##c", ImGui::ColorConvertU32ToFloat4(col), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(10, 10));
    ImGui::SameLine();
    // The share always shows; the label takes what is left of the pie's box, cut with an
    // ellipsis (the whole label in the tooltip) rather than clipped at the box's edge.
    char share[16];
    std::snprintf(share, sizeof share, "  %.1f%%", 100.0 * slices[i].value / total);
    const float room = right - ImGui::GetCursorScreenPos().x - ImGui::CalcTextSize(share).x;
    const std::string label = ellipsize(slices[i].label, std::max(0.0f, room));
    ImGui::Text("%s%s", label.c_str(), share);
    if (label != slices[i].label) note_cut(slices[i].label, label);
  }
  ImGui::EndGroup();
  if (hovered >= 0) {
    const PieSlice& s = slices[static_cast<size_t>(hovered)];
    ImGui::SetTooltip("%s\n%s us (%.1f%%)", s.label.c_str(), runs_us(s.value).c_str(),
                      100.0 * s.value / total);
  }
  ImGui::EndChild();
}

}  // namespace strata
