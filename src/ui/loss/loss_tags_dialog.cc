#include "ui/loss/loss_tags_dialog.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "core/formats/json/json_flat.h"
#include "imgui.h"
#include "platform/browser/host.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

constexpr float kFieldW = 260;
constexpr float kKeyListH = 220;
constexpr float kButtonW = 90;

bool contains_folded(const std::string& s, const char* part) {
  if (!*part) return true;
  const size_t n = std::strlen(part);
  for (size_t i = 0; i + n <= s.size(); ++i) {
    size_t k = 0;
    while (k < n && (s[i + k] | 0x20) == (part[k] | 0x20)) ++k;
    if (k == n) return true;
  }
  return false;
}

void structured_fields(LossView* v, const LossFile& f) {
  ImGui::TextDisabled(
      "%s: every %s with numbers is a series; a record gives a point\n"
      "when it has the series and the step.",
      f.format == "tfevents" ? "TensorBoard event file" : f.format.c_str(),
      f.format == "csv"        ? "column"
      : f.format == "tfevents" ? "scalar tag"
                               : "key");
  ImGui::SetNextItemWidth(kFieldW);
  ImGui::InputText("filter", v->key_filter, sizeof v->key_filter);
  if (ImGui::BeginListBox("##series", ImVec2(kFieldW, kKeyListH))) {
    for (const std::string& k : f.series_keys) {
      if (!contains_folded(k, v->key_filter)) continue;
      if (ImGui::Selectable(k.c_str(), k == v->loss_buf))
        std::snprintf(v->loss_buf, sizeof v->loss_buf, "%s", k.c_str());
    }
    ImGui::EndListBox();
  }
  ImGui::SetNextItemWidth(kFieldW);
  ImGui::InputText("Series", v->loss_buf, sizeof v->loss_buf);
  if (f.format == "tfevents") {
    ImGui::TextDisabled("Step: the event's step");
    return;
  }
  ImGui::SetNextItemWidth(kFieldW);
  if (ImGui::BeginCombo("Step", v->iteration_buf)) {
    for (const std::string& k : f.step_keys)
      if (ImGui::Selectable(k.c_str(), k == v->iteration_buf))
        std::snprintf(v->iteration_buf, sizeof v->iteration_buf, "%s", k.c_str());
    ImGui::EndCombo();
  }
}

}  // namespace

void loss_tags_dialog(LossView* v, LossFile* f) {
  ImGui::TextUnformatted(f ? f->name.c_str() : "(removed)");
  if (f && f->format != "text") {
    structured_fields(v, *f);
  } else {
    ImGui::TextDisabled(
        "A line gives a point when both tags match on it: a number after the\n"
        "Loss Tag, an integer after the Iteration Tag (spaces between allowed).");
    ImGui::SetNextItemWidth(kFieldW);
    ImGui::InputText("Loss Tag", v->loss_buf, sizeof v->loss_buf);
    ImGui::SetNextItemWidth(kFieldW);
    ImGui::InputText("Iteration Tag", v->iteration_buf, sizeof v->iteration_buf);
  }
  if (ImGui::Button("OK", ImVec2(kButtonW, 0)) && f) {
    f->pending = true;
    host_loss_set_tags(f->id, v->loss_buf, v->iteration_buf);
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(kButtonW, 0)) || !f) ImGui::CloseCurrentPopup();
}

void loss_view_detail(LossView* v, uint32_t id, const char* json) {
  LossFile* f = nullptr;
  for (LossFile& g : v->files)
    if (g.id == id) f = &g;
  if (!f) return;
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json ? json : "", &lines, &error)) return;
  namespace k = protocol::keys::loss_info;
  f->series_keys.clear();
  f->step_keys.clear();
  std::vector<std::string>* list = nullptr;
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      list = l.key == k::kSeriesKeys ? &f->series_keys
             : l.key == k::kStepKeys ? &f->step_keys
                                     : nullptr;
      if (l.key == k::kFormat) f->format = l.value;
      if (l.key == k::kNote) f->note = l.value;
    } else if (l.depth == 1 && list && l.kind == 's') {
      list->push_back(l.value);
    }
  }
}

}  // namespace strata
