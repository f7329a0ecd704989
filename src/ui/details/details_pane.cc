#include "ui/details/details_pane.h"

#include <cstdlib>

#include "core/view/time_view.h"
#include "imgui.h"
#include "ui/timeline/colors.h"

namespace strata {

void details_set(DetailsPane* p, int64_t event, const char* json) {
  p->event = event;
  p->waiting = false;
  p->lines.clear();
  p->error.clear();
  std::string err;
  if (!json_flatten(json ? json : "null", &p->lines, &err)) {
    p->lines.clear();
    p->error = "details unavailable: " + err;
  }
}

namespace {

const JsonLine* field(const std::vector<JsonLine>& lines, const char* key) {
  for (const JsonLine& l : lines)
    if (l.depth == 0 && l.key == key) return &l;
  return nullptr;
}

void row(const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.65f, 1), "%s", label);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextUnformatted(value.c_str());
}

// Draws lines[i..] that are deeper than `depth` as a tree; returns the index after them.
size_t draw_tree(const std::vector<JsonLine>& lines, size_t i, uint16_t depth) {
  while (i < lines.size() && lines[i].depth > depth) {
    const JsonLine& l = lines[i];
    if (l.kind == 'o' || l.kind == 'a') {
      ImGui::PushID(static_cast<int>(i));
      bool open = ImGui::TreeNodeEx(l.key.c_str(), ImGuiTreeNodeFlags_DefaultOpen, "%s", l.key.c_str());
      ImGui::PopID();
      if (open) {
        i = draw_tree(lines, i + 1, l.depth);
        ImGui::TreePop();
      } else {
        ++i;
        while (i < lines.size() && lines[i].depth > l.depth) ++i;
      }
    } else {
      ImGui::Bullet();
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.65f, 0.8f, 1, 1), "%s", l.key.c_str());
      ImGui::SameLine();
      ImGui::TextUnformatted(l.kind == 's' ? ("\"" + l.value + "\"").c_str() : l.value.c_str());
      ++i;
    }
  }
  return i;
}

}  // namespace

void details_draw(const DetailsPane& p, int64_t origin_ns, float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin("Details", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  if (p.event < 0) {
    ImGui::TextDisabled("Click an event to see its details.");
  } else if (p.waiting && p.lines.empty()) {
    ImGui::TextDisabled("Loading details...");
  } else if (!p.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", p.error.c_str());
  } else {
    auto text = [&](const char* k) {
      const JsonLine* l = field(p.lines, k);
      return l ? l->value : std::string();
    };
    int64_t start = std::strtoll(text("startNs").c_str(), nullptr, 10);
    int64_t dur = std::strtoll(text("durNs").c_str(), nullptr, 10);
    if (ImGui::BeginTable("fields", 2, ImGuiTableFlags_SizingFixedFit)) {
      row("Name", text("name"));
      row("Category", text("cat"));
      row("Start", format_tick(static_cast<double>(start - origin_ns), 1) + "   (" +
                       text("startNs") + " ns)");
      if (text("phase") != "i") {
        row("Duration", format_duration(static_cast<double>(dur)) + "   (" + text("durNs") + " ns)");
        row("End", format_tick(static_cast<double>(start + dur - origin_ns), 1));
      }
      row("Process", text("process") + "  (pid " + text("pid") + ")");
      row("Thread", text("thread") + "  (tid " + text("tid") + ")");
      ImGui::EndTable();
    }
    // Args: the record's "args" object, as a tree.
    for (size_t i = 0; i < p.lines.size(); ++i) {
      const JsonLine& rec = p.lines[i];
      if (rec.depth != 0 || rec.key != "record" || rec.kind != 'o') continue;
      for (size_t j = i + 1; j < p.lines.size() && p.lines[j].depth > 0; ++j) {
        const JsonLine& a = p.lines[j];
        if (a.depth != 1 || a.key != "args") continue;
        ImGui::Separator();
        ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.65f, 1), "Args");
        if (a.kind == 'o' || a.kind == 'a')
          draw_tree(p.lines, j + 1, a.depth);
        else
          ImGui::TextUnformatted(a.value.c_str());
      }
    }
  }
  ImGui::End();
}

}  // namespace strata
