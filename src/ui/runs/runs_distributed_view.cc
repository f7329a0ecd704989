// The Runs tab's Distributed view: per card, compute / overlap / communication / free bars, the
// communication split, and the communication operators.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "ui/runs/runs_view.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {
namespace {}  // namespace

void runs_distributed_view(RunsView* v, float w, float h) {
  if (!v->has_cards) {
    ImGui::TextDisabled("Reading step_trace_time...");
    return;
  }
  if (v->cards.empty()) {
    ImGui::TextDisabled("No distributed rows.");
    return;
  }
  ImGui::TextUnformatted("Computation / Communication Overview (us)");
  runs_legend(theme::kChartSeriesA, "Computation");
  runs_legend(theme::kChartOverlap, "Overlapping");
  runs_legend(theme::kChartDifference, "Communication");
  runs_legend(theme::kChartIdle, "Free");
  ImGui::NewLine();
  double max_total = 0;
  for (const RunsView::Card& c : v->cards)
    max_total = std::max(max_total, runs_or_zero(c.compute) + runs_or_zero(c.communication) -
                                        runs_or_zero(c.overlap) + runs_or_zero(c.free));
  const float label_w = 110, bar_h = 18, bar_w = std::max(50.0f, w - label_w - 20);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const RunsView::Card& c : v->cards) {
    ImGui::Text("Card %d%s%s", c.card, c.step.empty() ? "" : " step ", c.step.c_str());
    ImGui::SameLine(label_w);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    // Compute only, overlap, communication only, free: they add up to the step's span.
    const double parts[] = {
        runs_or_zero(c.compute) - runs_or_zero(c.overlap), runs_or_zero(c.overlap),
        runs_or_zero(c.communication) - runs_or_zero(c.overlap), runs_or_zero(c.free)};
    const ImU32 cols[] = {theme::kChartSeriesA, theme::kChartOverlap, theme::kChartDifference,
                          theme::kChartIdle};
    const char* names[] = {"Computation", "Overlapping", "Communication", "Free"};
    float x = p.x;
    for (int i = 0; i < 4; ++i) {
      const float bw =
          max_total > 0 ? static_cast<float>(std::max(0.0, parts[i]) / max_total) * bar_w : 0;
      dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + bw, p.y + bar_h), cols[i]);
      if (ImGui::IsMouseHoveringRect(ImVec2(x, p.y), ImVec2(x + bw, p.y + bar_h)))
        ImGui::SetTooltip("Card %d\n%s: %s us", c.card, names[i], runs_us(parts[i]).c_str());
      x += bw;
    }
    ImGui::Dummy(ImVec2(bar_w, bar_h));
  }
  ImGui::Separator();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_ScrollY;
  ImGui::TextUnformatted("Communication per card (us)");
  if (ImGui::BeginTable("##cards", 9, flags, ImVec2(0, std::min(200.0f, h * 0.3f)))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    const char* heads[] = {"Card", "Step",     "Computation", "Communication",  "Overlapping",
                           "Free", "Transfer", "Wait",        "Synchronization"};
    for (const char* hd : heads) ImGui::TableSetupColumn(hd);
    ImGui::TableHeadersRow();
    for (const RunsView::Card& c : v->cards) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      cell_number(std::to_string(c.card));
      ImGui::TableNextColumn();
      cell_text(c.step);
      for (double val :
           {c.compute, c.communication, c.overlap, c.free, c.transfer, c.wait, c.sync}) {
        ImGui::TableNextColumn();
        cell_us(val);
      }
    }
    ImGui::EndTable();
  }
  ImGui::TextUnformatted("Communication operators of card");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120);
  v->comm_card = std::clamp(v->comm_card, 0, static_cast<int>(v->cards.size()) - 1);
  char label[32];
  std::snprintf(label, sizeof label, "%d", v->cards[static_cast<size_t>(v->comm_card)].card);
  if (ImGui::BeginCombo("##commcard", label)) {
    for (size_t i = 0; i < v->cards.size(); ++i) {
      std::snprintf(label, sizeof label, "%d##%zu", v->cards[i].card, i);
      if (ImGui::Selectable(label, static_cast<int>(i) == v->comm_card))
        v->comm_card = static_cast<int>(i);
    }
    ImGui::EndCombo();
  }
  const RunsView::Card& c = v->cards[static_cast<size_t>(v->comm_card)];
  if (c.ops.empty()) {
    ImGui::TextDisabled("no communication operators (communication.json)");
    return;
  }
  if (ImGui::BeginTable("##commops", 6, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
    for (const char* hd :
         {"Calls", "Elapse (us)", "Transit (us)", "Wait (us)", "Synchronization (us)"})
      ImGui::TableSetupColumn(hd);
    ImGui::TableHeadersRow();
    for (const RunsView::CommOp& o : c.ops) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      cell_text(o.name);
      ImGui::TableNextColumn();
      cell_number(std::to_string(static_cast<long long>(o.calls)));
      for (double val : {o.elapse, o.transit, o.wait, o.sync}) {
        ImGui::TableNextColumn();
        cell_us(val);
      }
    }
    ImGui::EndTable();
  }
}

}  // namespace strata
