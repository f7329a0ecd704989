#include "ui/compare/compare_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/base/json_writer.h"
#include "platform/browser/host.h"
#include "protocol/reply_keys.h"
#include "ui/compare/compare_tree_view.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {

namespace {

constexpr float kNameColumnW = 320;
constexpr float kNumberColumnW = 96;
constexpr float kTableRowsShown = 14;  // the changed table's height, in rows
constexpr float kSideTableRows = 6;    // the added / removed tables'
constexpr size_t kStepsShown = 4;      // steps with columns of their own
constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                        ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                        ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;

// The UI font has no Greek letters: the change is spelt out.
constexpr const char* kColumnLabels[] = {"Name",     "A count",      "A total (µs)",
                                         "B count",  "B total (µs)", "B - A (µs)",
                                         "change %", "A self (µs)",  "B self (µs)"};
constexpr int kColumns = sizeof(kColumnLabels) / sizeof(kColumnLabels[0]);

bool on_tree(const CompareView& v) { return v.key == static_cast<int>(kCompareKeys); }

// The key's table; the call tree has none (the operators' stands in).
CompareTable& table(CompareView* v) {
  return v->model.tables[on_tree(*v) ? 0 : static_cast<size_t>(v->key)];
}

std::string key_name(const CompareView& v) {
  return on_tree(v) ? std::string(kCompareTreeTable) : kCompareKeyNames[v.key];
}

void sort_all(CompareView* v) {
  CompareTable& t = table(v);
  compare_sort(&t.changed, v->sort, v->descending);
  // Rows on one side only: largest total first, as the engine sends them, unless sorted.
  const bool by_delta = v->sort == CompareColumn::kAbsDelta;
  compare_sort(&t.added, by_delta ? CompareColumn::kBTotal : v->sort, v->descending);
  compare_sort(&t.removed, by_delta ? CompareColumn::kATotal : v->sort, v->descending);
  v->sorted = true;
}

void select_row(CompareView* v, const CompareRow& r) {
  v->selected = r.name;
  v->selected_b = r.b_count;
  if (key_name(*v) == "category") return;  // not event names
  namespace k = protocol::keys::analysis_link;
  std::string args;
  protocol::append_key(&args, k::kName, '{');
  json_append_string(&args, r.name);
  protocol::append_key(&args, k::kTracks);
  args += "[]}";
  v->select_request = args;
}

void row_cells(CompareView* v, const CompareRow& r) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::PushID(&r);
  if (ImGui::Selectable(
          "##row", r.name == v->selected,
          ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
    select_row(v, r);
  ImGui::PopID();
  ImGui::SameLine();
  cell_text(r.name);
  const double cells[] = {r.a_count, r.a_total,   r.b_count, r.b_total,
                          r.delta,   r.delta_pct, r.a_self,  r.b_self};
  for (int c = 1; c < kColumns; ++c) {
    ImGui::TableSetColumnIndex(c);
    const double x = cells[c - 1];
    const bool count = c == 1 || c == 3, pct = c == 6;
    if (count || pct) {
      char buf[48];
      std::snprintf(buf, sizeof buf, count ? "%.0f" : "%+.1f", x);
      cell_number(buf);
    } else {
      cell_us(x / 1e3);
    }
  }
}

void rows_table(CompareView* v, const char* id, const std::vector<CompareRow>& rows, float rows_h,
                bool sortable) {
  const float h = ImGui::GetTextLineHeightWithSpacing() * (rows_h + 1);
  ImGuiTableFlags flags =
      kTableFlags | (sortable ? ImGuiTableFlags_Sortable | ImGuiTableFlags_SortTristate : 0);
  if (!ImGui::BeginTable(id, kColumns, flags, ImVec2(0, h))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < kColumns; ++c)
    ImGui::TableSetupColumn(
        kColumnLabels[c],
        ImGuiTableColumnFlags_WidthFixed | (c ? ImGuiTableColumnFlags_PreferSortDescending : 0),
        c ? kNumberColumnW : kNameColumnW);
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* s = sortable ? ImGui::TableGetSortSpecs() : nullptr;
      s && s->SpecsDirty) {
    // No column chosen (the first frame, or a third click): largest |Δ| first.
    v->sort = s->SpecsCount > 0 ? static_cast<CompareColumn>(s->Specs[0].ColumnIndex)
                                : CompareColumn::kAbsDelta;
    v->descending =
        s->SpecsCount == 0 || s->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    s->SpecsDirty = false;
    v->sorted = false;
  }
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(rows.size()));
  while (clip.Step())
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) row_cells(v, rows[i]);
  ImGui::EndTable();
}

void export_csv(CompareView* v, const std::string& key) {
  v->last_csv = compare_view_csv(v, key);
  host_download(("compare-" + key + ".csv").c_str(), v->last_csv.c_str());
}

void steps_section(CompareView* v) {
  const CompareModel& m = v->model;
  ImGui::TextUnformatted("Step time, A and B side by side");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "(%s)", m.note.c_str());
  if (m.steps.empty()) return;
  ImGui::SameLine();
  if (ImGui::SmallButton("CSV##steps")) export_csv(v, std::string(kCompareStepsTable));
  // Parts as rows: A and B of the first matched steps, and the mean over all of them.
  const size_t shown = std::min(m.steps.size(), kStepsShown);
  const int cols = 1 + 2 * static_cast<int>(shown) + 2;
  const float h = ImGui::GetTextLineHeightWithSpacing() * (kCompareParts + 3);
  if (!ImGui::BeginTable("##steps", cols, kTableFlags, ImVec2(0, h))) return;
  ImGui::TableSetupColumn("Part", ImGuiTableColumnFlags_WidthFixed, 160);
  std::vector<std::string> heads;
  for (size_t i = 0; i < shown; ++i) {
    heads.push_back("A #" + std::to_string(m.steps[i].a_step));
    heads.push_back("B #" + std::to_string(m.steps[i].b_step));
  }
  heads.push_back("A mean");
  heads.push_back("B mean");
  for (const std::string& s : heads)
    ImGui::TableSetupColumn(s.c_str(), ImGuiTableColumnFlags_WidthFixed, kNumberColumnW);
  ImGui::TableHeadersRow();
  const double n = static_cast<double>(m.steps.size());
  auto line = [&](const char* label, auto a_of, auto b_of) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    cell_text(label);
    int c = 1;
    double ma = 0, mb = 0;
    for (size_t i = 0; i < m.steps.size(); ++i) {
      ma += a_of(m.steps[i]) / n, mb += b_of(m.steps[i]) / n;
      if (i >= shown) continue;
      ImGui::TableSetColumnIndex(c++);
      cell_us(a_of(m.steps[i]) / 1e3);
      ImGui::TableSetColumnIndex(c++);
      cell_us(b_of(m.steps[i]) / 1e3);
    }
    ImGui::TableSetColumnIndex(c++);
    cell_us(ma / 1e3);
    ImGui::TableSetColumnIndex(c);
    cell_us(mb / 1e3);
  };
  line(
      "Step (µs)", [](const CompareStepRow& s) { return s.a_dur; },
      [](const CompareStepRow& s) { return s.b_dur; });
  for (size_t p = 0; p < kCompareParts; ++p)
    line(
        protocol::keys::step_parts::kKeys[p], [p](const CompareStepRow& s) { return s.a_parts[p]; },
        [p](const CompareStepRow& s) { return s.b_parts[p]; });
  ImGui::EndTable();
}

void append_names(std::string* o, std::string_view key, const std::vector<CompareRow>& rows) {
  *o += ',';
  json_append_string(o, key);
  *o += ":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i) *o += ',';
    json_append_string(o, rows[i].name);
  }
  *o += ']';
}

}  // namespace

void compare_view_set_result(CompareView* v, const char* json, const char* error) {
  std::string parse_error;
  CompareModel m;
  if (!compare_model_parse(json, &m, &parse_error)) {
    v->error = "the compare reply did not parse: " + parse_error;
    return;
  }
  v->model = std::move(m);
  ++v->results;
  v->error = error ? error : "";
  v->sorted = false;
  v->selected.clear();
  compare_tree_reset_open(v);
}

std::string compare_view_csv(CompareView* v, const std::string& key) {
  if (key == kCompareStepsTable) return compare_steps_csv(v->model);
  if (key == kCompareTreeTable) return compare_tree_csv(v->model.tree);
  for (size_t i = 0; i < kCompareKeys; ++i)
    if (key == kCompareKeyNames[i]) return compare_table_csv(v->model.tables[i]);
  return "";
}

bool compare_view_select(CompareView* v, const std::string& key, const std::string& name) {
  if (key == kCompareTreeTable) {
    v->key = static_cast<int>(kCompareKeys);
    return compare_tree_select(v, name);
  }
  for (size_t i = 0; i < kCompareKeys; ++i)
    if (key == kCompareKeyNames[i] && static_cast<int>(i) != v->key) {
      v->key = static_cast<int>(i);
      v->sorted = false;
    }
  const CompareTable& t = table(v);
  for (const auto* list : {&t.changed, &t.added, &t.removed})
    for (const CompareRow& r : *list)
      if (r.name == name) {
        select_row(v, r);
        return true;
      }
  return false;
}

void compare_view_frame(CompareView* v, float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin(
      "##compare", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const CompareModel& m = v->model;
  if (ImGui::Button("Compare with...")) host_compare_file_picker();
  ImGui::SameLine();
  if (!m.has_b) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim),
                       "A is the trace loaded now; pick or drop a second trace here as B");
  } else {
    ImGui::Text("A: %s (%.0f events)   B: %s (%.0f events)", m.a_name.c_str(), m.a_events,
                m.b_name.c_str(), m.b_events);
  }
  if (!v->error.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s", v->error.c_str());
  if (!m.has_b) {
    ImGui::End();
    return;
  }
  for (size_t i = 0; i < kCompareKeys; ++i) {
    if (i) ImGui::SameLine();
    if (ImGui::RadioButton(kCompareKeyLabels[i], v->key == static_cast<int>(i))) {
      v->key = static_cast<int>(i);
      v->sorted = false;
    }
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("Call tree", on_tree(*v))) v->key = static_cast<int>(kCompareKeys);
  ImGui::SameLine();
  if (ImGui::SmallButton("CSV")) export_csv(v, key_name(*v));
  if (on_tree(*v)) {
    if (!v->selected.empty()) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccentText),
                         "%s: selected in A's and B's timelines; B has %.0f", v->selected.c_str(),
                         v->selected_b);
    }
    compare_tree_section(v);
    ImGui::End();
    return;
  }
  if (!v->sorted) sort_all(v);
  const CompareTable& t = table(v);
  ImGui::Text("%zu changed, %.0f unchanged", t.changed.size(), t.unchanged);
  if (!v->selected.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccentText),
                       "  %s: selected in A's and B's timelines; B has %.0f", v->selected.c_str(),
                       v->selected_b);
  }
  rows_table(v, "##changed", t.changed, kTableRowsShown, true);
  ImGui::Text("Added (only in B): %zu", t.added.size());
  rows_table(v, "##added", t.added, kSideTableRows, false);
  ImGui::Text("Removed (only in A): %zu", t.removed.size());
  rows_table(v, "##removed", t.removed, kSideTableRows, false);
  ImGui::Separator();
  steps_section(v);
  ImGui::End();
}

const CompareTable& compare_view_table(const CompareView& v) {
  // The call tree is not a table of names: nothing is outlined while it is shown.
  static const CompareTable kNone;
  return on_tree(v) ? kNone : v.model.tables[static_cast<size_t>(v.key)];
}

std::string compare_view_json(const CompareView& v, const Timeline& a,
                              const DetailsPane& a_details) {
  const CompareModel& m = v.model;
  const CompareTable& t = m.tables[on_tree(v) ? 0 : static_cast<size_t>(v.key)];
  std::string o = "{\"hasB\":";
  o += m.has_b ? "true" : "false";
  o += ",\"a\":";
  json_append_string(&o, m.a_name);
  o += ",\"b\":";
  json_append_string(&o, m.b_name);
  o += ",\"key\":";
  json_append_string(&o, key_name(v));
  o += ",\"error\":";
  json_append_string(&o, v.error);
  o += ",\"note\":";
  json_append_string(&o, m.note);
  o += ",\"align\":";
  json_append_string(&o, m.align);
  append_names(&o, "changed", t.changed);
  append_names(&o, "added", t.added);
  append_names(&o, "removed", t.removed);
  o += ",\"steps\":" + std::to_string(m.steps.size());
  o += ",\"selected\":";
  json_append_string(&o, v.selected);
  o += ",\"selectedB\":";
  json_append_number(&o, v.selected_b);
  o += ",\"csv\":";
  json_append_string(&o, v.last_csv);
  o += ",\"treeShown\":" + compare_tree_shown_json(v);
  namespace k = protocol::keys::compare_alignment;
  const CompareAlignment& al = m.alignment;
  protocol::append_key(&o, protocol::keys::compare::kAlignment);
  protocol::append_key(&o, k::kMode, '{');
  json_append_string(&o, al.mode);
  protocol::append_key(&o, k::kUsed);
  json_append_string(&o, al.used);
  protocol::append_key(&o, k::kNote);
  json_append_string(&o, al.note);
  protocol::append_key(&o, k::kOffsetNs);
  json_append_number(&o, al.offset_ns);
  o += "},\"timelines\":" + compare_timelines_json(v.timelines, m, a, a_details);
  return o + "}";
}

}  // namespace strata
