#include "ui/analysis/analysis_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "platform/browser/host.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_links.h"
#include "ui/analysis/analysis_link.h"
#include "ui/graph/graph_host.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {

namespace {

constexpr float kIndentPerLevel = 14.0f;  // a tree row's indent per level
constexpr float kExpanderW = 18.0f;       // the +/- button's column in the name cell
constexpr float kNameColumnW = 320.0f;    // the first (name) column's initial width
constexpr float kTextColumnW = 120.0f;    // other text columns
constexpr float kNumberColumnW = 90.0f;   // number columns
constexpr float kFilterW = 260.0f;
constexpr float kEmptyDashW = 10.0f;           // the "—" of an empty cell, drawn as a line
constexpr size_t kMaxColumns = 64;             // ImGui's tables take at most this many
constexpr size_t kMaxStateRows = 200;          // rows analysis_view_json lists
constexpr float kRooflineChartH = 300.0f;      // the roofline chart above its table, at most
constexpr float kRooflineChartShare = 0.5f;    // and at most this share of the tab's height
constexpr const char* kRoofline = "roofline";  // the analysis the chart draws
constexpr const char* kMemoryViewer = "memory_viewer";  // the analysis the memory chart draws
constexpr const char* kAdvisor = "advisor";             // the analysis the Report view heads

AnalysisBox last_item_box() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return {a.x, a.y, b.x - a.x, b.y - a.y};
}

void ask_list(AnalysisView* v, AnalysisSendQuery send) {
  v->list_asked = true;
  v->list_query = send("analysis", "{}");
}

void ask_table(AnalysisView* v, AnalysisSendQuery send) {
  const AnalysisEntry& e = v->list[static_cast<size_t>(v->current)];
  std::string args;
  protocol::append_key(&args, protocol::keys::analysis::kName, '{');
  json_append_string(&args, e.name);
  if (e.name == kRoofline) args += roofline_args(v->roofline);
  if (e.name == kMemoryViewer) {
    args += memory_viewer_args(v->memview);
    v->memview.args_changed = false;  // asked now, with the chosen module and point
  }
  v->table_query = send("analysis", args + "}");
  v->table_of = e.name;
  v->table_waiting = true;
}

void choose(AnalysisView* v, int index) {
  if (index == v->current) return;
  v->current = index;
  v->table = AnalysisTableModel{};
  v->table_of.clear();
  v->table_waiting = false;
  v->state = TableViewState{};
  v->filter[0] = 0;
  v->selected = -1;
  v->selected_column = -1;
  v->shown.clear();
  v->shown_dirty = true;
  v->step_chart = StepChart{};
}

void select_row(AnalysisView* v, int32_t row) {
  v->selected = row;
  v->selected_column = -1;
  v->step_chart.chosen = -1;  // the row's bar, when it is a step's
  for (size_t i = 0; i < v->step_chart.data.bars.size(); ++i)
    if (v->step_chart.data.bars[i].row == row) v->step_chart.chosen = static_cast<int>(i);
  const TableLink& l = v->table.rows[static_cast<size_t>(row)].link;
  namespace k = protocol::keys::analysis_link;
  std::string args;
  if (l.name.empty() && !l.part.empty() && l.step_event >= 0) {  // a step part's events
    protocol::append_key(&args, k::kStep, '{');
    args += std::to_string(l.step_event);
    protocol::append_key(&args, k::kPart);
    json_append_string(&args, l.part);
    v->select_request = args + "}";
    return;
  }
  if (l.name.empty()) return;
  protocol::append_key(&args, k::kName, '{');
  json_append_string(&args, l.name);
  protocol::append_key(&args, k::kTracks);
  args += '[';
  for (size_t i = 0; i < l.tracks.size(); ++i) args += (i ? "," : "") + std::to_string(l.tracks[i]);
  args += ']';
  protocol::append_key(&args, k::kProgramId);  // only this program's runs of the op
  json_append_string(&args, l.program_id);
  if (!l.framework_op.empty()) {  // that framework op's own events, not its type's
    protocol::append_key(&args, k::kFrameworkOp);
    json_append_string(&args, l.framework_op);
  }
  v->select_request = args + "}";
}

// A click on a cell that links its own events (an overview part cell): the row is selected,
// and the timeline's selection is that cell's events (select query, part mode).
bool select_cell(AnalysisView* v, int32_t row, int column) {
  if (column < 0) return false;
  const TableRow& r = v->table.rows[static_cast<size_t>(row)];
  for (const TableCellLink& c : r.cell_links) {
    if (c.column != static_cast<uint32_t>(column) || c.link.part.empty() || c.link.step_event < 0)
      continue;
    select_row(v, row);
    v->selected_column = column;
    namespace k = protocol::keys::analysis_link;
    std::string args;
    protocol::append_key(&args, k::kStep, '{');
    args += std::to_string(c.link.step_event);
    protocol::append_key(&args, k::kPart);
    json_append_string(&args, c.link.part);
    v->select_request = args + "}";
    return true;
  }
  return false;
}

// The column under the mouse in the table being drawn, or -1.
int hovered_column(size_t columns) {
  for (size_t c = 0; c < columns; ++c)
    if (ImGui::TableGetColumnFlags(static_cast<int>(c)) & ImGuiTableColumnFlags_IsHovered)
      return static_cast<int>(c);
  return -1;
}

// A row the user picked outside the table (a roofline marker): shown (its ancestors expanded),
// scrolled to and selected.
void reveal_row(AnalysisView* v, int32_t row) {
  if (row < 0 || static_cast<size_t>(row) >= v->table.rows.size()) return;
  if (v->state.expanded.size() < v->table.rows.size())
    v->state.expanded.resize(v->table.rows.size());
  for (int32_t p = v->table.rows[static_cast<size_t>(row)].parent; p >= 0;
       p = v->table.rows[static_cast<size_t>(p)].parent)
    v->state.expanded[static_cast<size_t>(p)] = 1;
  v->shown_dirty = true;
  v->scroll_to_row = row;
  select_row(v, row);
}

void roofline(AnalysisView* v) {
  const float avail = ImGui::GetContentRegionAvail().y;
  const float h = std::min(kRooflineChartH, avail * kRooflineChartShare);
  const int32_t clicked = roofline_chart_frame(&v->roofline, v->table, v->selected,
                                               ImGui::GetContentRegionAvail().x, h);
  if (clicked >= 0) reveal_row(v, clicked);
  if (v->roofline.peaks_changed) {  // the analysis again, with the typed peaks
    v->roofline.peaks_changed = false;
    v->table_of.clear();
  }
}

void memory_viewer(AnalysisView* v) {
  const int32_t clicked =
      memory_viewer_chart_frame(&v->memview, v->table, v->selected,
                                ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y);
  if (clicked >= 0) reveal_row(v, clicked);
  if (v->memview.args_changed) {  // the analysis again, for the chosen module, space, point
    v->memview.args_changed = false;
    v->table_of.clear();
  }
}

// The deep link's row: the first whose name (first cell), link name or op is `op`.
void apply_pending_op(AnalysisView* v) {
  if (v->pending_op.empty() || v->table_of != v->pending_analysis || v->table_waiting) return;
  const std::string op = v->pending_op;
  v->pending_op.clear();
  for (size_t i = 0; i < v->table.rows.size(); ++i) {
    const TableRow& r = v->table.rows[i];
    const bool named =
        (!r.cells.empty() && r.cells[0].kind == TableCell::Kind::kText && r.cells[0].text == op) ||
        r.link.name == op || r.link.op == op;
    if (!named) continue;
    for (int32_t p = r.parent; p >= 0; p = v->table.rows[static_cast<size_t>(p)].parent)
      v->state.expanded[static_cast<size_t>(p)] = 1;
    v->shown_dirty = true;
    select_row(v, static_cast<int32_t>(i));
    return;
  }
}

// The step chart's bar `bar`: its row selected (so its events) and the timeline zoomed to it.
void choose_step(AnalysisView* v, int bar) {
  const StepChartData& d = v->step_chart.data;
  if (bar < 0 || static_cast<size_t>(bar) >= d.bars.size()) return;
  const StepBar& b = d.bars[static_cast<size_t>(bar)];
  for (int32_t p = v->table.rows[static_cast<size_t>(b.row)].parent; p >= 0;
       p = v->table.rows[static_cast<size_t>(p)].parent)
    v->state.expanded[static_cast<size_t>(p)] = 1;
  v->shown_dirty = true;
  select_row(v, b.row);
  v->zoom_request = b.duration_ns > 0;
  v->zoom_start = b.start_ns;
  v->zoom_end = b.start_ns + b.duration_ns;
}

void apply_pending_step(AnalysisView* v) {
  if (v->pending_step.empty() || v->table_of != v->pending_analysis || v->table_waiting) return;
  const std::string step = v->pending_step;
  v->pending_step.clear();
  choose_step(v, step_bar_named(v->step_chart.data, step));
}

void open_in_graph(const TableLink& l) {
  namespace k = protocol::keys::graph_link;
  std::string a;
  protocol::append_key(&a, k::kProgramId, '{');
  json_append_string(&a, l.program_id);  // exact: a 64-bit id is text end to end
  protocol::append_key(&a, k::kOp);
  json_append_string(&a, l.op);
  protocol::append_key(&a, k::kModule);
  json_append_string(&a, l.module);
  host_graph("openFromTrace", (a + "}").c_str());
}

void sub_tabs(AnalysisView* v) {
  v->subtab_boxes.clear();
  for (size_t i = 0; i < v->list.size(); ++i) {
    const AnalysisEntry& e = v->list[i];
    ImGui::BeginDisabled(!e.available);
    const std::string label = e.title + "##sub" + e.name;
    const ImVec2 size(ImGui::CalcTextSize(e.title.c_str()).x + 12, 0);
    if (ImGui::Selectable(label.c_str(), v->current == static_cast<int>(i), 0, size))
      choose(v, static_cast<int>(i));
    ImGui::EndDisabled();
    v->subtab_boxes.push_back(last_item_box());
    if (!e.available && !e.why.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", e.why.c_str());
    ImGui::SameLine();
  }
  ImGui::NewLine();
}

void tool_row(AnalysisView* v) {
  ImGui::SetNextItemWidth(kFilterW);
  if (ImGui::InputTextWithHint("##analysis_filter", "Filter names", v->filter, sizeof v->filter)) {
    v->state.filter = v->filter;
    v->shown_dirty = true;
  }
  v->filter_box = last_item_box();
  ImGui::SameLine();
  if (ImGui::Button("Export CSV")) {
    v->last_csv = table_csv(v->table, v->shown);
    host_download((v->table.name.empty() ? "analysis" : v->table.name + ".csv").c_str(),
                  v->last_csv.c_str());
  }
  v->csv_button = last_item_box();
  ImGui::SameLine();
  const bool has_row = v->selected >= 0 && static_cast<size_t>(v->selected) < v->table.rows.size();
  ImGui::BeginDisabled(!has_row);
  if (ImGui::Button("Show in timeline")) v->open_timeline = true;
  ImGui::EndDisabled();
  v->timeline_button = last_item_box();
  v->graph_button = {};
  if (has_row) {
    const TableLink& l = v->table.rows[static_cast<size_t>(v->selected)].link;
    if (!l.module.empty() && !l.op.empty()) {
      ImGui::SameLine();
      if (ImGui::Button("Open in graph")) open_in_graph(l);
      v->graph_button = last_item_box();
    }
  }
}

void messages(const AnalysisView& v) {
  ImGui::PushTextWrapPos(0);
  if (!v.table.error.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s",
                       v.table.error.c_str());
  for (const std::string& e : v.table.errors)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s", e.c_str());
  for (const std::string& n : v.table.notes) ImGui::TextDisabled("%s", n.c_str());
  ImGui::PopTextWrapPos();
}

// An empty cell: "—" (drawn as a line: the UI font has no em dash), the reason as a tooltip.
void empty_cell(const std::string& why) {
  const float h = ImGui::GetTextLineHeight();
  ImGui::Dummy(ImVec2(kEmptyDashW, h));
  const ImVec2 a = ImGui::GetItemRectMin();
  ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, a.y + h / 2),
                                      ImVec2(a.x + kEmptyDashW, a.y + h / 2), theme::kTextDim);
  if (!why.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why.c_str());
}

void draw_row(AnalysisView* v, const ShownRow& s) {
  const TableRow& r = v->table.rows[static_cast<size_t>(s.row)];
  ImGui::TableNextRow();
  if (s.row == v->selected)
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, theme::kAnalysisSelectedRow);
  ImGui::TableSetColumnIndex(0);
  ImGui::PushID(s.row);
  const bool clicked = ImGui::Selectable("##row", s.row == v->selected,
                                         ImGuiSelectableFlags_SpanAllColumns |
                                             ImGuiSelectableFlags_AllowItemOverlap |
                                             ImGuiSelectableFlags_AllowDoubleClick);
  v->row_boxes.push_back(last_item_box());
  if (s.row == v->scroll_to_row) {
    ImGui::SetScrollHereY(0.5f);
    v->scroll_to_row = -1;
  }
  if (clicked) {
    const int column = hovered_column(std::min(v->table.columns.size(), kMaxColumns));
    if (!select_cell(v, s.row, column) && (s.row != v->selected || v->selected_column >= 0))
      select_row(v, s.row);
    if (ImGui::IsMouseDoubleClicked(0)) v->open_timeline = true;
  }
  ImGui::SameLine(0, 0);
  ImGui::Indent(kIndentPerLevel * static_cast<float>(s.depth) + 1);
  if (!r.children.empty()) {
    if (v->state.expanded.size() < v->table.rows.size())
      v->state.expanded.resize(v->table.rows.size());
    uint8_t& open = v->state.expanded[static_cast<size_t>(s.row)];
    if (ImGui::SmallButton(open ? "-" : "+")) {
      open = !open;
      v->shown_dirty = true;
    }
    ImGui::SameLine();
  } else {
    ImGui::Dummy(ImVec2(kExpanderW, 0));
    ImGui::SameLine();
  }
  for (size_t c = 0; c < v->table.columns.size() && c < kMaxColumns; ++c) {
    if (c > 0) ImGui::TableSetColumnIndex(static_cast<int>(c));
    const TableCell& cell = r.cells[c];
    const CellUnit unit = v->table.columns[c].unit;
    if (cell.kind == TableCell::Kind::kEmpty)
      empty_cell(cell.text);
    else if (cell.kind == TableCell::Kind::kNumber)
      cell_number(format_cell(cell, unit), shorter_forms(cell, unit));
    else
      cell_text(cell.text);
    if (c == 0) ImGui::Unindent(kIndentPerLevel * static_cast<float>(s.depth) + 1);
  }
  ImGui::PopID();
}

void table(AnalysisView* v) {
  const AnalysisTableModel& m = v->table;
  v->header_boxes.clear();
  v->row_boxes.clear();
  v->table_box = {};
  if (m.columns.empty()) return;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                     ImGuiTableFlags_Resizable | ImGuiTableFlags_Sortable |
                                     ImGuiTableFlags_SortTristate | ImGuiTableFlags_SizingFixedFit;
  const int n = static_cast<int>(std::min(m.columns.size(), kMaxColumns));
  // One ImGui table per analysis: its widths and sort are its own.
  ImGui::PushID(m.name.c_str());
  if (!ImGui::BeginTable("##analysis_table", n, kFlags)) {
    ImGui::PopID();
    return;
  }
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < n; ++c) {
    const TableColumn& col = m.columns[static_cast<size_t>(c)];
    ImGuiTableColumnFlags f = ImGuiTableColumnFlags_WidthFixed;
    if (first_sort_descending(col)) f |= ImGuiTableColumnFlags_PreferSortDescending;
    const float w = c == 0                     ? kNameColumnW
                    : unit_is_number(col.unit) ? kNumberColumnW
                                               : kTextColumnW;
    ImGui::TableSetupColumn(col.label.c_str(), f, w);
  }
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < n; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(m.columns[static_cast<size_t>(c)].label.c_str());
    v->header_boxes.push_back(last_item_box());
    const std::string& tip = m.columns[static_cast<size_t>(c)].tip;
    if (!tip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip.c_str());
  }
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsDirty) {
    v->state.sort_column = specs->SpecsCount > 0 ? specs->Specs[0].ColumnIndex : -1;
    v->state.descending =
        specs->SpecsCount > 0 && specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    specs->SpecsDirty = false;
    v->shown_dirty = true;
  }
  if (v->shown_dirty) {
    v->shown = shown_rows(m, v->state);
    v->shown_dirty = false;
  }
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(v->shown.size()));
  for (size_t i = 0; v->scroll_to_row >= 0 && i < v->shown.size(); ++i)
    if (v->shown[i].row == v->scroll_to_row)
      clip.ForceDisplayRangeByIndices(static_cast<int>(i), static_cast<int>(i) + 1);
  v->first_drawn = 0;
  while (clip.Step()) {
    // The clipper may draw a first row to measure, then the visible run: keep the last run's
    // boxes (the rows on screen).
    if (clip.DisplayStart != v->first_drawn + static_cast<int>(v->row_boxes.size())) {
      v->row_boxes.clear();
      v->first_drawn = clip.DisplayStart;
    }
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i)
      draw_row(v, v->shown[static_cast<size_t>(i)]);
  }
  ImGui::EndTable();
  v->table_box = last_item_box();
  ImGui::PopID();
}

}  // namespace

void analysis_view_reset(AnalysisView* v) { *v = AnalysisView{}; }

void analysis_view_open_link(AnalysisView* v, const std::string& hash) {
  const AnalysisDeepLink link = parse_analysis_link(hash);
  const RooflineChart& c = v->roofline;
  const std::string before = roofline_args(c);
  roofline_set_typed(&v->roofline, link.peak_tflops, link.peak_gbps);
  // Other peaks than the table's: it is asked again (and the link's row found in the new one).
  if (roofline_args(c) != before && v->table_of == kRoofline) v->table_of.clear();
  analysis_view_open(v, link.analysis, link.op, link.step);
}

std::string analysis_view_link(const AnalysisView& v) {
  AnalysisDeepLink link;
  link.analysis_tab = true;
  if (v.current >= 0 && static_cast<size_t>(v.current) < v.list.size())
    link.analysis = v.list[static_cast<size_t>(v.current)].name;
  link.step = step_chart_chosen_step(v.step_chart);
  if (link.step.empty() && v.selected >= 0 &&
      static_cast<size_t>(v.selected) < v.table.rows.size()) {
    const TableRow& r = v.table.rows[static_cast<size_t>(v.selected)];
    if (!r.cells.empty() && r.cells[0].kind == TableCell::Kind::kText) link.op = r.cells[0].text;
  }
  link.peak_tflops = v.roofline.typed_tflops;
  link.peak_gbps = v.roofline.typed_gbps;
  return analysis_link_hash(link);
}

void analysis_view_open(AnalysisView* v, const std::string& analysis, const std::string& op,
                        const std::string& step) {
  v->pending_analysis = analysis;
  v->pending_op = op;
  v->pending_step = step;
  for (size_t i = 0; i < v->list.size(); ++i)
    if (v->list[i].name == analysis && v->list[i].available) choose(v, static_cast<int>(i));
  apply_pending_op(v);
  apply_pending_step(v);
}

void analysis_view_frame(AnalysisView* v, bool loaded, float x, float y, float w, float h,
                         AnalysisSendQuery send) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin("##analysis", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (!loaded) {
    ImGui::TextDisabled("No trace loaded yet: open a trace to analyse it.");
    ImGui::End();
    return;
  }
  if (!v->list_asked) ask_list(v, send);
  if (!v->list_ready) {
    ImGui::TextDisabled("%s",
                        v->list_error.empty() ? "Listing the analyses..." : v->list_error.c_str());
    ImGui::End();
    return;
  }
  if (v->load_whole_bytes) {
    // A lazy bundle: the reason (with its size) and the action, where the analyses would be.
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s",
                       v->list_error.c_str());
    ImGui::BeginDisabled(v->load_whole_asked);
    char label[64];
    std::snprintf(label, sizeof label, "Load whole (%.0f MB)",
                  std::ceil(static_cast<double>(v->load_whole_bytes) / (1 << 20)));
    if (ImGui::Button(label)) {
      v->load_whole_asked = true;
      host_load_whole();
    }
    ImGui::EndDisabled();
    v->load_whole_button = last_item_box();
    if (v->load_whole_asked) ImGui::TextDisabled("Loading the bundle whole...");
    ImGui::End();
    return;
  }
  if (v->current < 0) {  // the deep link's analysis, else the first available one
    for (size_t i = 0; i < v->list.size() && v->current < 0; ++i)
      if (v->list[i].available && v->list[i].name == v->pending_analysis)
        choose(v, static_cast<int>(i));
    for (size_t i = 0; i < v->list.size() && v->current < 0; ++i)
      if (v->list[i].available) choose(v, static_cast<int>(i));
  }
  sub_tabs(v);
  if (v->current < 0) {
    ImGui::TextDisabled("None of the analyses applies to this trace (hover one for why).");
    ImGui::End();
    return;
  }
  if (v->table_of != v->list[static_cast<size_t>(v->current)].name) ask_table(v, send);
  tool_row(v);
  if (v->table_waiting) {
    ImGui::TextDisabled("Computing %s...", v->list[static_cast<size_t>(v->current)].title.c_str());
  } else {
    if (v->table_of == kAdvisor) report_header_frame(&v->report, w);
    messages(*v);
    choose_step(v, step_chart_draw(&v->step_chart, w));
    if (v->table_of == kRoofline) roofline(v);
    if (v->table_of == kMemoryViewer) memory_viewer(v);
    table(v);
  }
  ImGui::End();
}

bool analysis_view_result(AnalysisView* v, uint32_t id, const char* json) {
  if (id == v->list_query && v->list_asked && !v->list_ready) {
    v->list_ready = read_analysis_list(json, &v->list, &v->list_error);
    v->load_whole_bytes = read_load_whole_bytes(json);
    if (!v->list_ready && v->list_error.empty())
      v->list_error = "The analyses could not be listed.";
    v->list_ready = true;  // an error is shown in place of the sub-tabs
    return true;
  }
  if (id != v->table_query || !v->table_waiting) return id == v->table_query;
  read_analysis_table(json, &v->table);
  if (v->table_of == kRoofline) roofline_chart_set_table(&v->roofline, v->table, json);
  if (v->table_of == kMemoryViewer) memory_viewer_chart_set_table(&v->memview, json);
  if (v->table_of == kAdvisor) report_header_set_table(&v->report, json);
  v->table_waiting = false;
  v->state = TableViewState{};
  v->state.filter = v->filter;
  v->state.expanded.assign(v->table.rows.size(), 0);
  v->selected = -1;
  v->selected_column = -1;
  v->shown_dirty = true;
  v->shown = shown_rows(v->table, v->state);
  step_chart_set(&v->step_chart, v->table);
  apply_pending_op(v);
  apply_pending_step(v);
  return true;
}

std::string analysis_view_json(const AnalysisView& v) {
  std::string o = "{\"analysis\":";
  const bool has = v.current >= 0 && static_cast<size_t>(v.current) < v.list.size();
  json_append_string(&o, has ? v.list[static_cast<size_t>(v.current)].name : std::string());
  o += ",\"title\":";
  json_append_string(&o, v.table.title);
  o += std::string(",\"loading\":") + (v.table_waiting || !v.list_ready ? "true" : "false");
  o += ",\"stepChart\":" + step_chart_json(v.step_chart) + ",\"link\":";
  json_append_string(&o, analysis_view_link(v));
  o += ",\"analyses\":[";
  for (size_t i = 0; i < v.list.size(); ++i) {
    const AnalysisEntry& e = v.list[i];
    o += i ? ",{\"name\":" : "{\"name\":";
    json_append_string(&o, e.name);
    o += ",\"title\":";
    json_append_string(&o, e.title);
    o += std::string(",\"available\":") + (e.available ? "true" : "false") + ",\"why\":";
    json_append_string(&o, e.why);
    o += '}';
  }
  o += "],\"columns\":[";
  for (size_t c = 0; c < v.table.columns.size(); ++c) {
    if (c) o += ',';
    json_append_string(&o, v.table.columns[c].key);
  }
  o += "],\"rows\":[";
  for (size_t i = 0; i < v.shown.size() && i < kMaxStateRows; ++i) {
    const ShownRow& s = v.shown[i];
    const TableRow& r = v.table.rows[static_cast<size_t>(s.row)];
    o += i ? ",{\"row\":" : "{\"row\":";
    o += std::to_string(s.row) + ",\"depth\":" + std::to_string(s.depth) + ",\"cells\":[";
    for (size_t c = 0; c < r.cells.size(); ++c) {
      if (c) o += ',';
      json_append_string(&o, format_cell(r.cells[c], v.table.columns[c].unit));
    }
    o += "],\"values\":[";
    for (size_t c = 0; c < r.cells.size(); ++c) {
      if (c) o += ',';
      if (r.cells[c].kind == TableCell::Kind::kNumber)
        json_append_number(&o, r.cells[c].number);
      else if (r.cells[c].kind == TableCell::Kind::kText)
        json_append_string(&o, r.cells[c].text);
      else
        o += "null";
    }
    const bool open =
        static_cast<size_t>(s.row) < v.state.expanded.size() && v.state.expanded[s.row];
    o += std::string("],\"hasChildren\":") + (r.children.empty() ? "false" : "true") +
         ",\"expanded\":" + (open ? "true" : "false") + ",\"linkName\":";
    json_append_string(&o, r.link.name);
    o += '}';
  }
  o += "],\"rowCount\":" + std::to_string(v.shown.size());
  o += ",\"sort\":{\"column\":" + std::to_string(v.state.sort_column) + ",\"key\":";
  const bool sorted =
      v.state.sort_column >= 0 && static_cast<size_t>(v.state.sort_column) < v.table.columns.size();
  json_append_string(
      &o, sorted ? v.table.columns[static_cast<size_t>(v.state.sort_column)].key : std::string());
  o += std::string(",\"descending\":") + (v.state.descending ? "true" : "false") + "},\"filter\":";
  json_append_string(&o, v.state.filter);
  o += ",\"selected\":";
  if (v.selected >= 0 && static_cast<size_t>(v.selected) < v.table.rows.size()) {
    const TableRow& r = v.table.rows[static_cast<size_t>(v.selected)];
    o += "{\"row\":" + std::to_string(v.selected) + ",\"name\":";
    json_append_string(
        &o, r.cells.empty() ? std::string() : format_cell(r.cells[0], v.table.columns[0].unit));
    o += ",\"linkName\":";
    json_append_string(&o, r.link.name);
    o += ",\"module\":";
    json_append_string(&o, r.link.module);
    o += ",\"op\":";
    json_append_string(&o, r.link.op);
    protocol::append_key(&o, protocol::keys::analysis_link::kProgramId);
    json_append_string(&o, r.link.program_id);
    int shown_at = -1;  // where it is among the rows shown (the rows list stops at 200)
    for (size_t i = 0; i < v.shown.size() && shown_at < 0; ++i)
      if (v.shown[i].row == v.selected) shown_at = static_cast<int>(i);
    o += ",\"shownIndex\":" + std::to_string(shown_at) + ",\"column\":";
    const bool has_column =
        v.selected_column >= 0 && static_cast<size_t>(v.selected_column) < v.table.columns.size();
    json_append_string(&o, has_column ? v.table.columns[static_cast<size_t>(v.selected_column)].key
                                      : std::string());
    o += '}';
  } else {
    o += "null";
  }
  auto strings = [&](const char* key, const std::vector<std::string>& list) {
    o += std::string(",\"") + key + "\":[";
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) o += ',';
      json_append_string(&o, list[i]);
    }
    o += ']';
  };
  strings("notes", v.table.notes);
  std::vector<std::string> errors = v.table.errors;
  if (!v.table.error.empty()) errors.insert(errors.begin(), v.table.error);
  strings("errors", errors);
  auto box = [&](const char* key, const AnalysisBox& b) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "\"%s\":[%.1f,%.1f,%.1f,%.1f]", key, b.x, b.y, b.w, b.h);
    o += buf;
  };
  auto boxes = [&](const char* key, const std::vector<AnalysisBox>& list) {
    o += std::string(",\"") + key + "\":[";
    for (size_t i = 0; i < list.size(); ++i) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s[%.1f,%.1f,%.1f,%.1f]", i ? "," : "", list[i].x, list[i].y,
                    list[i].w, list[i].h);
      o += buf;
    }
    o += ']';
  };
  o += ",\"loadWhole\":{\"bytes\":" + std::to_string(v.load_whole_bytes) + ",\"reason\":";
  json_append_string(&o, v.load_whole_bytes ? v.list_error : std::string());
  o += std::string(",\"asked\":") + (v.load_whole_asked ? "true" : "false") + "}";
  o += ",\"layout\":{";
  box("loadWholeButton", v.load_whole_button);
  o += ',';
  box("filter", v.filter_box);
  o += ',';
  box("csvButton", v.csv_button);
  o += ',';
  box("timelineButton", v.timeline_button);
  o += ',';
  box("graphButton", v.graph_button);
  o += ',';
  box("table", v.table_box);
  boxes("headers", v.header_boxes);
  boxes("subTabs", v.subtab_boxes);
  boxes("rows", v.row_boxes);
  o += ",\"firstRow\":" + std::to_string(v.first_drawn) + "},\"csv\":";
  json_append_string(&o, v.last_csv);
  o += ",\"roofline\":";
  o += v.table_of == kRoofline && !v.table_waiting ? roofline_chart_json(v.roofline, v.table)
                                                   : std::string("null");
  o += ",\"memoryViewer\":";
  o += v.table_of == kMemoryViewer && !v.table_waiting ? memory_viewer_chart_json(v.memview)
                                                       : std::string("null");
  o += ",\"report\":";
  o += v.table_of == kAdvisor && !v.table_waiting ? report_header_json(v.report)
                                                  : std::string("null");
  return o + '}';
}

}  // namespace strata
