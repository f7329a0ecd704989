#include "ui/app.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "imgui.h"
#include "platform/browser/host.h"
#include "ui/timeline/colors.h"

namespace strata {

namespace {

constexpr float kTopBarH = 34.0f;

std::string human_bytes(double b) {
  char buf[32];
  if (b >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  else if (b >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f KB", b / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  return buf;
}

void top_bar(App* app, float w) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(w, kTopBarH));
  ImGui::Begin("##topbar", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::TextColored(ImVec4(0.55f, 0.78f, 1, 1), "Strata");
  ImGui::SameLine();
  if (ImGui::Button("Open...")) host_open_file_picker();
  ImGui::SameLine();
  const LoadProgress& p = app->progress;
  if (p.active) {
    char overlay[160];
    float frac = p.total > 0 ? static_cast<float>(p.loaded / p.total) : 0.0f;
    std::snprintf(overlay, sizeof overlay, "%s  %s / %s  %.0f MB/s", p.name.c_str(),
                  human_bytes(p.loaded).c_str(), human_bytes(p.total).c_str(), p.mb_per_s);
    ImGui::ProgressBar(frac, ImVec2(std::min(520.0f, w * 0.5f), 0), overlay);
  } else {
    ImGui::TextUnformatted(app->file_label.c_str());
  }
  if (!app->error_banner.empty()) {
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.4f, 1));
    ImGui::TextUnformatted(app->error_banner.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("x")) app->error_banner.clear();
  }
  ImGui::End();
}

void empty_state(float w, float h) {
  const char* msg = "Drop a trace here, or click Open...  (Chrome Trace Event JSON)";
  ImVec2 sz = ImGui::CalcTextSize(msg);
  ImGui::GetBackgroundDrawList()->AddText(ImVec2((w - sz.x) / 2, h / 2), theme::kTextDim, msg);
}

}  // namespace

void app_receive(App* app, const uint8_t* data, size_t n) {
  proto::Header h{};
  if (n < sizeof h) return;
  std::memcpy(&h, data, sizeof h);
  const bool is_track_list = h.type == proto::MsgType::kTrackList;
  if (!app->data.apply(data, n)) return;
  if (is_track_list) {
    timeline_reset(&app->timeline, app->data);
    app->details = DetailsPane{};
  } else {
    timeline_reply_arrived(&app->timeline, h.request_id);
  }
}

void app_frame(App* app, float w, float h, double now_ms) {
  app->batch.clear();
  top_bar(app, w);
  const float details_h = std::clamp(h * 0.28f, 120.0f, 320.0f);
  const float tl_h = h - kTopBarH - details_h;
  if (app->data.loaded) {
    timeline_frame(&app->timeline, app->data, &app->keys, 0, kTopBarH, w, tl_h, now_ms, &app->batch);
    timeline_request_data(&app->timeline, app->data, host_post_to_engine);
    Timeline& t = app->timeline;
    if (t.selection_changed) {
      t.selection_changed = false;
      app->details = DetailsPane{};
      app->details.event = t.selected_event;
      if (t.selected_event >= 0) {
        app->details.waiting = true;
        host_request_details(static_cast<uint32_t>(t.selected_event));
      }
      host_selection_changed(t.selected_event);
    }
    details_draw(app->details, app->data.origin_ns, 0, kTopBarH + tl_h, w, details_h);
  } else if (!app->progress.active) {
    empty_state(w, h);
  }
}

}  // namespace strata
