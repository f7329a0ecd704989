#include "ui/pod/pod_view.h"

#include <imgui.h>

#include <cstdio>

#include "platform/browser/host.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {

namespace {

constexpr float kNameColumnW = 200;
constexpr float kNumberColumnW = 92;
constexpr float kStatusColumnW = 420;
constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                        ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                        ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit |
                                        ImGuiTableFlags_Sortable;

// The table's columns after the checkbox, in PodColumn order, then the status.
constexpr const char* kColumnLabels[] = {"Host",   "Offset (ms)", "Span (ms)",
                                         "Events", "Tracks",      "Busy %",
                                         "Steps",  "Step (ms)",   "Step / median"};
static_assert(sizeof(kColumnLabels) / sizeof(kColumnLabels[0]) ==
              static_cast<size_t>(PodColumn::kCount));

ImVec4 colour(uint32_t c) { return ImGui::ColorConvertU32ToFloat4(c); }

void number_cell(const char* format, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  cell_number(buf);
}

void row_cells(PodRow* r) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::PushID(r->name.c_str());
  ImGui::Checkbox("##pick", &r->picked);
  ImGui::PopID();
  ImGui::TableSetColumnIndex(1);
  cell_text(r->name, r->straggler ? theme::kErrorText : 0);
  const double ms = 1e6;
  ImGui::TableSetColumnIndex(2), number_cell("%.3f", r->offset_ns / ms);
  ImGui::TableSetColumnIndex(3), number_cell("%.3f", r->span_ns / ms);
  ImGui::TableSetColumnIndex(4), number_cell("%.0f", r->events);
  ImGui::TableSetColumnIndex(5), number_cell("%.0f", r->tracks);
  ImGui::TableSetColumnIndex(6), number_cell("%.1f", r->busy_pct);
  ImGui::TableSetColumnIndex(7), number_cell("%.0f", r->steps);
  ImGui::TableSetColumnIndex(8);
  if (r->steps > 0) number_cell("%.3f", r->step_ns / ms);
  ImGui::TableSetColumnIndex(9);
  if (r->step_ratio > 0) number_cell("%.2fx", r->step_ratio);
  ImGui::TableSetColumnIndex(10);
  if (!r->error.empty()) {
    cell_text("did not open: " + r->error, theme::kErrorText);
  } else {
    std::string status = r->open ? "open" : "";
    if (r->straggler) status += (status.empty() ? "straggler: " : ", straggler: ") + r->why;
    cell_text(status, r->straggler ? theme::kErrorText : theme::kTextDim);
  }
}

void pick_buttons(PodView* v) {
  if (ImGui::SmallButton("All"))
    for (PodRow& r : v->rows) r.picked = true;
  ImGui::SameLine();
  if (ImGui::SmallButton("None"))
    for (PodRow& r : v->rows) r.picked = false;
  ImGui::SameLine();
  if (ImGui::SmallButton("Stragglers"))
    for (PodRow& r : v->rows) r.picked = r.straggler;
}

}  // namespace

void pod_view_frame(PodView* v, float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin(
      "##pod", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  if (!v->loaded) {
    ImGui::TextColored(colour(theme::kTextDim),
                       "Open a pod manifest (pod.json, written by strata-pack --merge-pod) by "
                       "?pod=<url>, a pick or a drop");
    ImGui::End();
    return;
  }
  ImGui::Text("Pod %s: %zu hosts, median step %.3f ms, median busy %.1f%%, %.0f straggler%s",
              v->name.c_str(), v->rows.size(), v->median_step_ns / 1e6, v->median_busy_pct,
              v->stragglers, v->stragglers == 1 ? "" : "s");
  for (const std::string& e : v->errors)
    ImGui::TextColored(colour(theme::kErrorText), "%s", e.c_str());
  size_t picked = 0;
  for (const PodRow& r : v->rows) picked += r.picked;
  ImGui::BeginDisabled(picked == 0 || v->opening);
  char label[64];
  std::snprintf(label, sizeof label, "Open %zu host%s", picked, picked == 1 ? "" : "s");
  if (ImGui::Button(label)) {
    v->opening = true;
    host_pod_open(pod_view_picked_json(*v).c_str());
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextColored(colour(theme::kTextDim),
                     v->opening ? "opening..." : "as one trace on one time axis; pick:");
  ImGui::SameLine();
  pick_buttons(v);
  const int columns = static_cast<int>(PodColumn::kCount) + 2;
  if (ImGui::BeginTable("##hosts", columns, kTableFlags, ImVec2(0, 0))) {
    ImGui::TableSetupScrollFreeze(2, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoSort,
                            ImGui::GetFrameHeight());
    for (int c = 0; c < static_cast<int>(PodColumn::kCount); ++c)
      ImGui::TableSetupColumn(
          kColumnLabels[c],
          ImGuiTableColumnFlags_WidthFixed |
              (c ? ImGuiTableColumnFlags_PreferSortDescending : ImGuiTableColumnFlags_DefaultSort),
          c ? kNumberColumnW : kNameColumnW);
    ImGui::TableSetupColumn(
        "Status", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoSort, kStatusColumnW);
    ImGui::TableHeadersRow();
    if (ImGuiTableSortSpecs* s = ImGui::TableGetSortSpecs(); s && s->SpecsDirty) {
      if (s->SpecsCount > 0 && s->Specs[0].ColumnIndex >= 1)
        pod_view_sort(v, static_cast<PodColumn>(s->Specs[0].ColumnIndex - 1),
                      s->Specs[0].SortDirection == ImGuiSortDirection_Descending);
      s->SpecsDirty = false;
    }
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(v->rows.size()));
    while (clip.Step())
      for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) row_cells(&v->rows[i]);
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace strata
