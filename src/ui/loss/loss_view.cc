#include "ui/loss/loss_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "platform/browser/host.h"
#include "protocol/reply_keys.h"
#include "ui/loss/loss_chart.h"
#include "ui/loss/loss_names.h"
#include "ui/loss/loss_tags_dialog.h"
#include "ui/theme.h"
#include "ui/timeline/colors.h"
#include "ui/widgets/table_cells.h"

namespace strata {

namespace reply = protocol::keys;

namespace {

constexpr float kSideW = 280;

LossFile* by_id(LossView* v, uint32_t id) {
  for (LossFile& f : v->files)
    if (f.id == id) return &f;
  return nullptr;
}

size_t index_of(const LossView& v, const LossFile* f) {
  return static_cast<size_t>(f - v.files.data());
}

const std::vector<double>& display_values(LossView* v, LossFile* f) {
  if (!v->smooth) return f->sorted.loss;
  if (f->smoothed_weight != v->smooth_weight || f->smoothed.size() != f->sorted.size()) {
    f->smoothed = ema(f->sorted.loss, v->smooth_weight);
    f->smoothed_weight = v->smooth_weight;
  }
  return f->smoothed;
}

std::string csv_name(std::string s) {
  for (char& c : s)
    if (c == '/' || c == '\\' || c == ' ' || c == ':') c = '_';
  return s;
}

void side_list(LossView* v, float x, float y, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(kSideW, h));
  ImGui::Begin(
      "##loss_files", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::Button("Import Files...")) host_open_file_picker();
  ImGui::SameLine();
  ImGui::TextDisabled("(%zu)", v->files.size());
  ImGui::Separator();
  for (size_t i = 0; i < v->files.size(); ++i) {
    LossFile& f = v->files[i];
    ImGui::PushID(static_cast<int>(f.id));
    ImGui::PushStyleColor(ImGuiCol_CheckMark, ImGui::ColorConvertU32ToFloat4(loss_series_color(i)));
    ImGui::Checkbox("##on", &f.checked);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    const std::string shown = ellipsize(f.label, ImGui::GetContentRegionAvail().x);
    ImGui::TextUnformatted(shown.c_str());
    if (shown != f.label) note_cut(f.label, shown);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n%.1f MB, scanned at %.0f MB/s", f.name.c_str(), f.bytes / 1e6,
                        f.scan_mbps);
    ImGui::Indent(28);
    if (f.pending)
      ImGui::TextDisabled("re-extracting...");
    else
      ImGui::TextDisabled("%zu points  [%s] [%s]", f.points.size(), f.loss_tag.c_str(),
                          f.iteration_tag.c_str());
    if (!f.note.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(theme::kErrorText));
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kSideW - 40);
      ImGui::TextUnformatted(f.note.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
    }
    if (ImGui::SmallButton("Tags")) {
      v->config_id = f.id;
      v->open_config = true;
      std::snprintf(v->loss_buf, sizeof v->loss_buf, "%s", f.loss_tag.c_str());
      std::snprintf(v->iteration_buf, sizeof v->iteration_buf, "%s", f.iteration_tag.c_str());
      v->key_filter[0] = 0;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Export CSV"))
      host_download((csv_name(f.name) + ".csv").c_str(), loss_points_csv(f.points).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Remove")) {
      v->remove_id = f.id;
      v->open_remove = true;
    }
    ImGui::Unindent(28);
    ImGui::Separator();
    ImGui::PopID();
  }
  ImGui::Checkbox("Smoothing (EMA)", &v->smooth);
  if (v->smooth) {
    ImGui::SetNextItemWidth(kSideW - 30);
    ImGui::SliderFloat("##w", &v->smooth_weight, 0.0f, 0.99f, "weight %.2f");
  }
  ImGui::Checkbox("Log-scale loss axis", &v->log_y);
  ImGui::End();
}

void popups(LossView* v) {
  if (v->open_config) ImGui::OpenPopup("Configure tags"), v->open_config = false;
  if (v->open_remove) ImGui::OpenPopup("Remove file"), v->open_remove = false;
  if (ImGui::BeginPopupModal("Configure tags", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    loss_tags_dialog(v, by_id(v, v->config_id));
    ImGui::EndPopup();
  }
  if (ImGui::BeginPopupModal("Remove file", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    LossFile* f = by_id(v, v->remove_id);
    ImGui::Text("Remove %s from the loss view?", f ? f->name.c_str() : "(removed)");
    if (ImGui::Button("Remove", ImVec2(90, 0)) && f) {
      host_loss_remove(f->id);
      v->files.erase(v->files.begin() + static_cast<long>(index_of(*v, f)));
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(90, 0)) || !f) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
}

const Comparison& cached_comparison(LossView* v, LossFile* a, LossFile* b) {
  char key[96];
  std::snprintf(key, sizeof key, "%u:%u,%u:%u,%d", a->id, a->version, b->id, b->version,
                static_cast<int>(v->mode));
  if (v->compare_key != key) {
    v->comparison = compare_series(a->sorted, b->sorted, v->mode);
    v->compare_key = key;
  }
  return v->comparison;
}

void append_value(std::string* out, double v) {
  if (std::isfinite(v))
    *out += format_double(v);
  else
    *out += "null";
}

void value_cell(double v) {
  if (std::isnan(v)) {
    ImGui::TextDisabled("NA");
    return;
  }
  char exact[32], shorter[32];
  std::snprintf(exact, sizeof exact, "%.6g", v);
  std::snprintf(shorter, sizeof shorter, "%.3g", v);
  cell_number(exact, {shorter});
}

void iteration_cell(int64_t it) { cell_number(std::to_string(it)); }

// The X axis title: "iteration", with the iteration tag when every file reads the same one.
std::string axis_iteration_title(const std::vector<LossFile*>& files) {
  std::string tag = files.empty() ? std::string() : files[0]->iteration_tag;
  for (const LossFile* f : files)
    if (f->iteration_tag != tag) tag.clear();
  return tag.empty() ? "iteration" : "iteration (" + tag + ")";
}

// Every iteration of the checked files, NA where a file has none.
void full_table_view(LossView* v, const std::vector<LossFile*>& checked, float h) {
  std::string key;
  for (LossFile* f : checked) key += std::to_string(f->id) + ":" + std::to_string(f->version) + ",";
  if (key != v->table_key) {
    std::vector<const LossSeries*> series;
    for (LossFile* f : checked) series.push_back(&f->sorted);
    v->table = full_table(series);
    v->table_key = key;
  }
  const FullTable& t = v->table;
  const int cols = static_cast<int>(checked.size()) + 1;
  if (!ImGui::BeginTable("full", std::min(cols, 64),
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Borders |
                             ImGuiTableFlags_ScrollX | ImGuiTableFlags_Resizable,
                         ImVec2(0, h)))
    return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("Iteration");
  for (int c = 1; c < std::min(cols, 64); ++c)
    ImGui::TableSetupColumn(checked[c - 1]->label.c_str());
  ImGui::TableHeadersRow();
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(t.iteration.size()));
  while (clip.Step()) {
    for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const bool at_cursor =
          std::isfinite(v->cursor_iter) && static_cast<double>(t.iteration[r]) == v->cursor_iter;
      if (at_cursor) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, theme::kRowHighlight);
      iteration_cell(t.iteration[r]);
      for (int c = 1; c < std::min(cols, 64); ++c) {
        ImGui::TableNextColumn();
        value_cell(t.values[c - 1][r]);
      }
    }
  }
  ImGui::EndTable();
}

void data_board(LossView* v, const std::vector<LossFile*>& checked, float w, float h) {
  ImGui::TextUnformatted("Loss data");
  std::vector<ChartSeries> series;
  for (LossFile* f : checked)
    series.push_back({&f->sorted.iteration, &display_values(v, f),
                      loss_series_color(index_of(*v, f)), f->label.c_str()});
  const float chart_w = std::max(200.0f, w * 0.62f),
              body_h = h - ImGui::GetFrameHeightWithSpacing();
  bool here = false;
  v->data_x_title = axis_iteration_title(checked);
  v->data_y_title =
      std::string(v->smooth ? "loss (EMA smoothed)" : "loss") + (v->log_y ? ", log scale" : "");
  draw_loss_chart("##loss_chart", series, v->log_y, &v->cursor_iter, &here, chart_w, body_h,
                  v->data_x_title.c_str(), v->data_y_title.c_str());
  ImGui::SameLine();
  full_table_view(v, checked, body_h);
}

void comparison_board(LossView* v, const std::vector<LossFile*>& checked, float w, float h) {
  LossFile *a = nullptr, *b = nullptr;
  if (!loss_view_pair(v, &a, &b)) return;
  ImGui::TextUnformatted("Comparison");
  auto chooser = [&](const char* label, uint32_t* id, LossFile* cur) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(180);
    if (ImGui::BeginCombo(label, cur->label.c_str())) {
      for (LossFile* f : checked) {
        ImGui::PushID(static_cast<int>(f->id));
        if (ImGui::Selectable(f->label.c_str(), f == cur)) *id = f->id;
        if (ImGui::IsItemHovered() && f->label != f->name) ImGui::SetTooltip("%s", f->name.c_str());
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  };
  chooser("first", &v->first, a);
  chooser("second", &v->second, b);
  static const char* kModes[] = {"Normal (second - first)", "Absolute |second - first|",
                                 "Relative |second - first| / first"};
  const Comparison& c = cached_comparison(v, a, b);
  ImGui::SameLine();
  ImGui::Text("  %zu common iterations   mean %.6g   max %.6g", c.count(), c.mean, c.max);
  ImGui::SameLine();
  if (ImGui::SmallButton("Export CSV")) {
    const std::string name =
        csv_name(a->name) + "_vs_" + csv_name(b->name) + "_" + compare_mode_name(v->mode) + ".csv";
    host_download(name.c_str(), comparison_csv(c, a->name, b->name, v->mode).c_str());
  }
  for (int m = 0; m < 3; ++m) {
    if (m) ImGui::SameLine();  // the modes start their own row: file names can be long
    if (ImGui::RadioButton(kModes[m], static_cast<int>(v->mode) == m))
      v->mode = static_cast<CompareMode>(m);
  }
  cached_comparison(v, a, b);  // a new mode: `c` (the cache) is recomputed in place
  std::vector<double> shown = v->smooth ? ema(c.value, v->smooth_weight) : c.value;
  std::vector<ChartSeries> series{
      {&c.iteration, &shown, theme::kCompareLine, compare_mode_name(v->mode)}};
  const float chart_w = std::max(200.0f, w * 0.62f),
              body_h = h - 2 * ImGui::GetFrameHeightWithSpacing();
  bool here = false;
  const bool log_y = v->log_y && v->mode != CompareMode::kNormal;
  v->compare_y_title =
      std::string(kModes[static_cast<int>(v->mode)]) + (log_y ? ", log scale" : "");
  const std::string x_title = axis_iteration_title({a, b});
  draw_loss_chart("##cmp_chart", series, log_y, &v->cursor_iter, &here, chart_w, body_h,
                  x_title.c_str(), v->compare_y_title.c_str());
  ImGui::SameLine();
  if (!ImGui::BeginTable("cmp", 4,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Borders |
                             ImGuiTableFlags_Resizable,
                         ImVec2(0, body_h)))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Iteration");
  ImGui::TableSetupColumn(a->label.c_str());
  ImGui::TableSetupColumn(b->label.c_str());
  ImGui::TableSetupColumn(compare_mode_name(v->mode));
  ImGui::TableHeadersRow();
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(c.count()));
  while (clip.Step()) {
    for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      iteration_cell(c.iteration[r]);
      ImGui::TableNextColumn();
      value_cell(c.a[r]);
      ImGui::TableNextColumn();
      value_cell(c.b[r]);
      ImGui::TableNextColumn();
      value_cell(c.value[r]);
    }
  }
  ImGui::EndTable();
}

}  // namespace

void loss_view_init(LossView* v) { v->cursor_iter = std::nan(""); }

bool loss_view_pair(LossView* v, LossFile** a, LossFile** b) {
  std::vector<LossFile*> checked;
  for (LossFile& f : v->files)
    if (f.checked) checked.push_back(&f);
  if (checked.size() < 2) return false;
  LossFile* fa = by_id(v, v->first);
  LossFile* fb = by_id(v, v->second);
  if (!fa || !fa->checked) fa = checked[0];
  if (!fb || !fb->checked || fb == fa) fb = checked[0] == fa ? checked[1] : checked[0];
  v->first = fa->id, v->second = fb->id;
  *a = fa, *b = fb;
  return true;
}

void loss_view_frame(LossView* v, float x, float y, float w, float h) {
  std::vector<std::string> names;
  for (const LossFile& f : v->files) names.push_back(f.name);
  const std::vector<std::string> labels = loss_short_names(names);
  for (size_t i = 0; i < v->files.size(); ++i) v->files[i].label = labels[i];
  side_list(v, x, y, h);
  popups(v);
  const float rx = x + kSideW, rw = w - kSideW;
  ImGui::SetNextWindowPos(ImVec2(rx, y));
  ImGui::SetNextWindowSize(ImVec2(rw, h));
  ImGui::Begin(
      "##loss_boards", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  std::vector<LossFile*> checked;
  for (LossFile& f : v->files)
    if (f.checked) checked.push_back(&f);
  if (checked.empty()) {
    const char* msg = v->files.empty() ? "Import Files: drop training logs here, or click"
                                       : "Check a file on the left to see its loss";
    ImGui::SetCursorPos(ImVec2(rw / 2 - 180, h / 2 - 20));
    ImGui::TextDisabled("%s", msg);
    if (v->files.empty()) {
      ImGui::SetCursorPosX(rw / 2 - 60);
      if (ImGui::Button("Import Files...")) host_open_file_picker();
    }
  } else {
    const float inner_w = ImGui::GetContentRegionAvail().x,
                inner_h = ImGui::GetContentRegionAvail().y;
    const bool compare = checked.size() >= 2;
    const float data_h = compare ? inner_h * 0.5f - 4 : inner_h;
    ImGui::BeginChild("##data", ImVec2(inner_w, data_h));
    data_board(v, checked, inner_w, data_h);
    ImGui::EndChild();
    if (compare) {
      ImGui::Separator();
      ImGui::BeginChild("##cmp", ImVec2(inner_w, ImGui::GetContentRegionAvail().y));
      comparison_board(v, checked, inner_w, ImGui::GetContentRegionAvail().y);
      ImGui::EndChild();
    }
  }
  ImGui::End();
}

void loss_view_points(LossView* v, uint32_t id, const char* name, const char* loss_tag,
                      const char* iteration_tag, double bytes, double mbps, const double* pairs,
                      uint32_t n) {
  LossFile* f = by_id(v, id);
  if (!f) {
    v->files.push_back(LossFile{});
    f = &v->files.back();
    f->id = id;
  }
  f->name = name;
  f->loss_tag = loss_tag;
  f->iteration_tag = iteration_tag;
  f->bytes = bytes;
  f->scan_mbps = mbps;
  f->pending = false;
  f->points = LossSeries{};
  f->points.iteration.resize(n);
  f->points.loss.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    f->points.iteration[i] = static_cast<int64_t>(pairs[2 * i]);
    f->points.loss[i] = pairs[2 * i + 1];
  }
  f->sorted = unique_by_iteration(f->points);
  f->smoothed.clear();
  f->smoothed_weight = -1;
  ++f->version;
}

LossFile* loss_view_find(LossView* v, const std::string& name) {
  for (LossFile& f : v->files)
    if (f.name == name) return &f;
  return nullptr;
}

bool loss_view_set_comparison(LossView* v, const std::string& a, const std::string& b,
                              const std::string& mode) {
  LossFile* fa = loss_view_find(v, a);
  LossFile* fb = loss_view_find(v, b);
  CompareMode m = v->mode;
  if (!fa || !fb || fa == fb || (!mode.empty() && !parse_compare_mode(mode, &m))) return false;
  fa->checked = fb->checked = true;
  v->first = fa->id, v->second = fb->id, v->mode = m;
  return true;
}

std::string loss_view_json(LossView* v, bool with_points) {
  std::string out = "{\"files\":[";
  for (size_t i = 0; i < v->files.size(); ++i) {
    const LossFile& f = v->files[i];
    out += i ? ",{\"name\":" : "{\"name\":";
    json_append_string(&out, f.name);
    out += ",\"label\":";
    json_append_string(&out, f.label.empty() ? f.name : f.label);
    protocol::append_key(&out, reply::loss_info::kLossTag);
    json_append_string(&out, f.loss_tag);
    protocol::append_key(&out, reply::loss_info::kIterationTag);
    json_append_string(&out, f.iteration_tag);
    protocol::append_key(&out, reply::loss_info::kFormat);
    json_append_string(&out, f.format);
    protocol::append_key(&out, reply::loss_info::kSeriesKeys);
    out += '[';
    for (size_t k = 0; k < f.series_keys.size(); ++k) {
      if (k) out += ',';
      json_append_string(&out, f.series_keys[k]);
    }
    out += ']';
    protocol::append_key(&out, reply::loss_info::kNote);
    json_append_string(&out, f.note);
    out += std::string(",\"checked\":") + (f.checked ? "true" : "false");
    out += ",\"bytes\":";
    json_append_number(&out, f.bytes);
    out += ",\"scanMbps\":";
    json_append_number(&out, std::round(f.scan_mbps * 10) / 10);
    out += ",\"count\":" + std::to_string(f.points.size());
    out += ",\"points\":[";
    for (size_t k = 0; with_points && k < f.points.size(); ++k) {
      out += k ? ",[" : "[";
      json_append_int(&out, f.points.iteration[k]);
      out += ",";
      append_value(&out, f.points.loss[k]);
      out += "]";
    }
    out += "]}";
  }
  out += "],\"axes\":{\"x\":";
  json_append_string(&out, v->data_x_title);
  out += ",\"y\":";
  json_append_string(&out, v->data_y_title);
  out += ",\"comparisonY\":";
  json_append_string(&out, v->compare_y_title);
  out += "},\"comparison\":";
  LossFile *a = nullptr, *b = nullptr;
  if (!loss_view_pair(v, &a, &b)) return out + "null}";
  const Comparison& c = cached_comparison(v, a, b);
  out += "{\"a\":";
  json_append_string(&out, a->name);
  out += ",\"b\":";
  json_append_string(&out, b->name);
  out += std::string(",\"mode\":\"") + compare_mode_name(v->mode) + "\",\"mean\":";
  append_value(&out, c.mean);
  out += ",\"max\":";
  append_value(&out, c.max);
  out += ",\"count\":" + std::to_string(c.count());
  out += ",\"points\":[";
  for (size_t k = 0; with_points && k < c.count(); ++k) {
    out += k ? ",[" : "[";
    json_append_int(&out, c.iteration[k]);
    out += ",";
    append_value(&out, c.value[k]);
    out += "]";
  }
  return out + "]}}";
}

}  // namespace strata
