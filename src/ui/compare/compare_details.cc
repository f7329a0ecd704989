#include "ui/compare/compare_details.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/view/time_view.h"
#include "protocol/reply_keys.h"
#include "ui/theme.h"

namespace strata {

namespace {

constexpr float kLineH = 28;           // the match line above the two panes
constexpr float kDetailsShare = 0.3f;  // of the space under the tables
constexpr float kMinPanesH = 90;

// The single event's name and duration the pane shows (false: none, or several).
bool shown_event(const DetailsPane& p, std::string* name, double* dur) {
  if (p.event < 0 || p.multi || p.lines.empty()) return false;
  for (const JsonLine& l : p.lines) {
    if (l.depth != 0) continue;
    if (l.key == protocol::keys::event::kName) *name = l.value;
    if (l.key == protocol::keys::event::kDurNs) *dur = std::strtod(l.value.c_str(), nullptr);
  }
  return true;
}

}  // namespace

float compare_details_height(const CompareTimelines& c, float avail) {
  const bool collapsed = c.details_layout.collapsed && c.b_details_layout.collapsed;
  const float panes =
      collapsed ? ImGui::GetFrameHeight() : std::max(kMinPanesH, avail * kDetailsShare);
  return std::min(avail / 2, kLineH + panes);
}

void compare_details_frame(CompareTimelines* c, DetailsPane* a_details, Timeline* a,
                           const TraceData& a_data, float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, kLineH));
  ImGui::Begin("##compare_match", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  const std::string said = compare_match_text(c->match);
  const bool none = c->match.asked && c->match.events.empty() && !said.empty();
  std::string an, bn;
  double ad = 0, bd = 0;
  const bool has_a = shown_event(*a_details, &an, &ad);
  const bool has_b = shown_event(c->b_details, &bn, &bd);
  ImGui::AlignTextToFramePadding();
  if (!said.empty()) {
    ImGui::TextColored(
        ImGui::ColorConvertU32ToFloat4(none ? theme::kErrorText : theme::kAccentText), "%s",
        said.c_str());
    ImGui::SameLine();
  }
  if (has_a && has_b) {
    const double d = bd - ad;
    char pct[32] = "";
    if (ad > 0) std::snprintf(pct, sizeof pct, "  (%+.1f %%)", d / ad * 100);
    ImGui::Text("%s: A %s  |  %s: B %s  |  B - A %s%s%s", an.c_str(), format_duration(ad).c_str(),
                bn.c_str(), format_duration(bd).c_str(), d < 0 ? "-" : "+",
                format_duration(std::abs(d)).c_str(), pct);
  } else if (said.empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim),
                       "Click an event in A or B: its counterpart is selected in the other");
  }
  ImGui::End();
  const float panes_y = y + kLineH, panes_h = std::max(1.0f, h - kLineH), half = w / 2;
  details_draw(a_details, &c->details_layout, a, a_data, a_data.origin_ns, x, panes_y, half,
               panes_h, "A's event###compare_details_a");
  details_draw(&c->b_details, &c->b_details_layout, &c->b, c->b_data, c->b_data.origin_ns, x + half,
               panes_y, w - half, panes_h, "B's event###compare_details_b");
}

}  // namespace strata
