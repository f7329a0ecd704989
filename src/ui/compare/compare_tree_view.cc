#include "ui/compare/compare_tree_view.h"

#include <imgui.h>

#include <cstdio>
#include <string_view>

#include "core/base/json_writer.h"
#include "protocol/reply_keys.h"
#include "ui/compare/compare_view.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {

namespace {

constexpr float kNameColumnW = 420;
constexpr float kStatusColumnW = 80;
constexpr float kNumberColumnW = 96;
constexpr float kIndentW = 14;        // per depth level
constexpr float kTreeRowsShown = 22;  // the table's height, in rows
constexpr uint32_t kOpenDepth = 2;    // rows above this depth start with their children shown
constexpr std::string_view kReplacedStatus = "replaced";
constexpr std::string_view kUnchangedStatus = "unchanged";
constexpr std::string_view kFoldedStep = "ProfilerStep#*";
constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                   ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                   ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
constexpr const char* kLabels[] = {"Call path",   "Status",       "A count",    "A total (µs)",
                                   "B count",     "B total (µs)", "B - A (µs)", "change %",
                                   "A self (µs)", "B self (µs)"};
constexpr int kColumns = sizeof(kLabels) / sizeof(kLabels[0]);

void select_row(CompareView* v, uint32_t i) {
  const CompareTreeRow& r = v->model.tree.rows[i];
  v->selected = r.path;
  v->selected_b = r.b_count;
  if (r.status == kReplacedStatus || r.name == kFoldedStep) return;  // no events of that name
  namespace k = protocol::keys::analysis_link;
  std::string args;
  protocol::append_key(&args, k::kName, '{');
  json_append_string(&args, r.name);
  protocol::append_key(&args, k::kTracks);
  args += "[]}";
  v->select_request = args;
}

void row_cells(CompareView* v, uint32_t i, const std::vector<uint8_t>& has_children) {
  const CompareTreeRow& r = v->model.tree.rows[i];
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::PushID(static_cast<int>(i));
  // The row's selectable first, so the arrow drawn over it takes its own clicks; the name is
  // text, not the selectable's label (Kineto scopes are named "## forward ##", and "##" in a
  // label starts its hidden id).
  const float x0 = ImGui::GetCursorPosX();
  if (ImGui::Selectable(
          "##row", r.path == v->selected,
          ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
    select_row(v, i);
  if (ImGui::IsItemHovered() && !r.path.empty()) ImGui::SetTooltip("%s", r.path.c_str());
  ImGui::SameLine();
  ImGui::SetCursorPosX(x0 + kIndentW * static_cast<float>(r.depth));
  if (has_children[i]) {
    const bool open = v->tree_open[i];
    if (ImGui::ArrowButton("##open", open ? ImGuiDir_Down : ImGuiDir_Right))
      v->tree_open[i] = open ? 0 : 1;
  } else {
    ImGui::Dummy(ImVec2(ImGui::GetFrameHeight(), 0));
  }
  ImGui::SameLine();
  cell_text(r.name);
  ImGui::PopID();
  ImGui::TableSetColumnIndex(1);
  cell_text(r.status, r.status == kUnchangedStatus ? theme::kTextDim : 0);
  const double cells[] = {r.a_count, r.a_total,   r.b_count, r.b_total,
                          r.delta,   r.delta_pct, r.a_self,  r.b_self};
  for (int c = 2; c < kColumns; ++c) {
    ImGui::TableSetColumnIndex(c);
    const double x = cells[c - 2];
    const bool count = c == 2 || c == 4, pct = c == 7;
    if (count || pct) {
      char buf[48];
      std::snprintf(buf, sizeof buf, count ? "%.0f" : "%+.1f", x);
      cell_number(buf);
    } else {
      cell_us(x / 1e3);
    }
  }
}

}  // namespace

void compare_tree_reset_open(CompareView* v) {
  const CompareTree& t = v->model.tree;
  v->tree_open.assign(t.rows.size(), 0);
  for (size_t i = 0; i < t.rows.size(); ++i) v->tree_open[i] = t.rows[i].depth + 1 < kOpenDepth;
}

void compare_tree_section(CompareView* v) {
  const CompareTree& t = v->model.tree;
  if (v->tree_open.size() != t.rows.size()) compare_tree_reset_open(v);
  ImGui::Text("%zu rows, %.0f matched nodes the same (A %.0f nodes, B %.0f)", t.rows.size(),
              t.unchanged, t.a_nodes, t.b_nodes);
  if (!t.note.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "%s", t.note.c_str());
  const std::vector<uint8_t> has_children = compare_tree_has_children(t);
  const std::vector<uint32_t> shown = compare_tree_visible(t, v->tree_open);
  const float h = ImGui::GetTextLineHeightWithSpacing() * (kTreeRowsShown + 1);
  if (!ImGui::BeginTable("##tree", kColumns, kFlags, ImVec2(0, h))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < kColumns; ++c)
    ImGui::TableSetupColumn(kLabels[c], ImGuiTableColumnFlags_WidthFixed,
                            c == 0   ? kNameColumnW
                            : c == 1 ? kStatusColumnW
                                     : kNumberColumnW);
  ImGui::TableHeadersRow();
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(shown.size()));
  while (clip.Step())
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) row_cells(v, shown[i], has_children);
  ImGui::EndTable();
}

bool compare_tree_select(CompareView* v, const std::string& path) {
  const CompareTree& t = v->model.tree;
  for (uint32_t i = 0; i < t.rows.size(); ++i)
    if (t.rows[i].path == path) {
      select_row(v, i);
      return true;
    }
  return false;
}

std::string compare_tree_shown_json(const CompareView& v) {
  const CompareTree& t = v.model.tree;
  std::vector<uint8_t> open = v.tree_open;
  if (open.size() != t.rows.size()) {
    open.assign(t.rows.size(), 0);
    for (size_t i = 0; i < t.rows.size(); ++i) open[i] = t.rows[i].depth + 1 < kOpenDepth;
  }
  std::string o = "[";
  bool first = true;
  for (uint32_t i : compare_tree_visible(t, open)) {
    if (!first) o += ',';
    first = false;
    json_append_string(&o, t.rows[i].path);
  }
  return o + "]";
}

}  // namespace strata
