#include "ui/app.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "imgui.h"
#include "platform/browser/host.h"
#include "platform/browser/runs_host.h"
#include "ui/labels.h"
#include "ui/timeline/colors.h"

namespace strata {

namespace {

constexpr float kTopBarH = 34.0f;
constexpr float kToolBarH = 32.0f;
App* g_app = nullptr;  // for query callbacks (one App per UI module)

uint32_t send_query(const char* kind, const std::string& args) {
  uint32_t id = g_app->next_query_id++;
  g_app->queries[id] = kind;
  host_query(id, kind, args.c_str());
  return id;
}

void top_bar(App* app, float w) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(w, kTopBarH));
  ImGui::Begin("##topbar", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccentText), "Strata");
  ImGui::SameLine();
  if (!app->embedded) {
    if (ImGui::Button("Open...")) host_open_file_picker();
    ImGui::SameLine();
    if (ImGui::Button("Open folder...")) host_open_folder_picker();
    ImGui::SameLine();
  }
  // View tabs.
  auto tab_button = [&](const char* label, ViewTab tab) {
    const ImVec2 size(ImGui::CalcTextSize(label).x + 12, 0);
    if (ImGui::Selectable(label, app->tab == tab, 0, size)) app->tab = tab;
    ImGui::SameLine();
  };
  tab_button("Timeline", ViewTab::kTimeline);
  tab_button("Memory", ViewTab::kMemory);
  tab_button("Loss", ViewTab::kLoss);
  tab_button("Runs", ViewTab::kRuns);
  tab_button("Graph", ViewTab::kGraph);
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  const LoadProgress& p = app->progress;
  if (p.active) {
    char overlay[160];
    float frac = p.total > 0 ? static_cast<float>(p.loaded / p.total) : 0.0f;
    std::snprintf(overlay, sizeof overlay, "%s  %s / %s  %.0f MB/s", p.name.c_str(),
                  byte_label(p.loaded, ByteUnits::kDecimal).c_str(),
                  byte_label(p.total, ByteUnits::kDecimal).c_str(), p.mb_per_s);
    ImGui::ProgressBar(frac, ImVec2(std::min(520.0f, w * 0.5f), 0), overlay);
  } else {
    ImGui::TextUnformatted(app->file_label.c_str());
  }
  if (!app->error_banner.empty()) {
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, theme::kErrorText);
    ImGui::TextUnformatted(app->error_banner.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("x")) app->error_banner.clear();
  }
  ImGui::End();
}

void tool_bar(App* app, float w, double now_ms) {
  ImGui::SetNextWindowPos(ImVec2(0, kTopBarH));
  ImGui::SetNextWindowSize(ImVec2(w, kToolBarH));
  ImGui::Begin("##toolbar", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  timeline_toolbar(&app->timeline, app->data, 0, kTopBarH, w);
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  search_panel_draw(&app->search, &app->timeline, app->data, now_ms, send_query);
  ImGui::End();
}

void empty_state(float w, float h, bool embedded) {
  const char* msg =
      embedded ? "No trace loaded yet"
               : "Drop a trace here, or click Open...  (Chrome Trace Event JSON, .gz, .zst)";
  ImVec2 sz = ImGui::CalcTextSize(msg);
  ImGui::GetBackgroundDrawList()->AddText(ImVec2((w - sz.x) / 2, h / 2), theme::kTextDim, msg);
}

// Search keys go to the search panel; everything else to the timeline.
void route_search_commands(App* app) {
  auto& cmds = app->keys.commands;
  for (auto it = cmds.begin(); it != cmds.end();) {
    if (*it == Command::kFocusSearch) {
      app->search.focus_request = true;
    } else if (*it == Command::kNextResult || *it == Command::kPrevResult) {
      if (app->timeline.search_active)
        search_panel_step(&app->search, &app->timeline, app->data,
                          *it == Command::kNextResult ? 1 : -1);
    } else {
      ++it;
      continue;
    }
    it = cmds.erase(it);
  }
}

// Selection changed: one event → its details; several → the engine's summary.
void selection_changed(App* app) {
  Timeline& t = app->timeline;
  t.selection_changed = false;
  t.selected_flows.clear();
  app->details = DetailsPane{};
  if (t.selection.size() == 1) {
    app->details.event = t.selection[0].event;
    app->details.waiting = true;
    host_request_details(t.selection[0].event);
  } else if (t.selection.size() > 1) {
    std::string args = "{\"events\":[";
    for (size_t i = 0; i < t.selection.size(); ++i)
      args += (i ? "," : "") + std::to_string(t.selection[i].event);
    app->details.multi = true;
    app->details.summary_waiting = true;
    app->details.selection_count = t.selection.size();
    app->selection_query = send_query("select", args + "]}");
  }
  host_selection_changed(t.selection.empty() ? -1 : static_cast<int64_t>(t.selection[0].event));
}

void region_requested(App* app) {
  Timeline& t = app->timeline;
  t.region_pending = false;
  char buf[96];
  std::snprintf(buf, sizeof buf, "{\"t0\":%.17g,\"t1\":%.17g,\"limit\":100000,\"rows\":[",
                t.region_t0, t.region_t1);
  std::string args = buf;
  for (size_t i = 0; i + 2 < t.region_rows.size(); i += 3)
    args += (i ? ",[" : "[") + std::to_string(t.region_rows[i]) + "," +
            std::to_string(t.region_rows[i + 1]) + "," + std::to_string(t.region_rows[i + 2]) + "]";
  app->details = DetailsPane{};
  app->details.multi = true;
  app->details.summary_waiting = true;
  app->selection_query = send_query("select", args + "]}");
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
    app->search.sent.clear();  // search again in the new trace
    app->queries.clear();
    memory_view_reset(&app->memory);
  } else {
    timeline_reply_arrived(&app->timeline, &app->data, h.request_id);
  }
}

void app_details(App* app, int64_t event, const char* json) {
  if (event != app->details.event) return;  // the selection moved on
  details_set(&app->details, event, json);
  // The selected event's flow arrows, from the details' own place and its neighbours'.
  Timeline& t = app->timeline;
  t.selected_flows.clear();
  const auto& lines = app->details.lines;
  auto num = [](const std::string& v) { return std::strtod(v.c_str(), nullptr); };
  double start = 0, dur = 0;
  uint32_t track = 0, depth = 0;
  for (const JsonLine& l : lines) {
    if (l.depth != 0) continue;
    if (l.key == "startNs")
      start = static_cast<double>(std::strtoll(l.value.c_str(), nullptr, 10) - app->data.origin_ns);
    else if (l.key == "durNs")
      dur = num(l.value);
    else if (l.key == "track")
      track = static_cast<uint32_t>(num(l.value));
    else if (l.key == "depth")
      depth = static_cast<uint32_t>(num(l.value));
  }
  bool in_flows = false;
  proto::FlowEntry f{};
  bool incoming = false, started = false;
  uint32_t other = 0;
  double o_start = 0, o_dur = 0;
  uint32_t o_track = 0, o_depth = 0;
  auto flush = [&] {
    if (!started || o_track >= app->data.tracks.size() || track >= app->data.tracks.size()) return;
    if (incoming)
      f = {o_start + o_dur, start, o_track, o_depth,
           track,           depth, other,   static_cast<uint32_t>(event)};
    else
      f = {start + dur, o_start, track, depth, o_track, o_depth, static_cast<uint32_t>(event),
           other};
    t.selected_flows.push_back(f);
    started = false;
  };
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      if (in_flows) flush();
      in_flows = l.key == "flows";
    } else if (in_flows && l.depth == 1) {
      flush();
      started = true;
    } else if (in_flows && l.depth == 2) {
      if (l.key == "event")
        other = static_cast<uint32_t>(num(l.value));
      else if (l.key == "startNs")
        o_start =
            static_cast<double>(std::strtoll(l.value.c_str(), nullptr, 10) - app->data.origin_ns);
      else if (l.key == "durNs")
        o_dur = num(l.value);
      else if (l.key == "track")
        o_track = static_cast<uint32_t>(num(l.value));
      else if (l.key == "depth")
        o_depth = static_cast<uint32_t>(num(l.value));
      else if (l.key == "incoming")
        incoming = l.value == "true";
    }
  }
  if (in_flows) flush();
}

void app_query_result(App* app, uint32_t id, const char* json) {
  auto it = app->queries.find(id);
  if (it == app->queries.end()) return;  // from a previous trace
  std::string kind = it->second;
  app->queries.erase(it);
  if (kind.compare(0, 6, "memory") == 0) {
    memory_view_result(&app->memory, id, json);
    return;
  }
  if (kind == "find") {
    search_panel_result(&app->search, &app->timeline, app->data, id, json);
  } else if (kind == "select" && id == app->selection_query) {
    std::vector<uint32_t> events;
    std::vector<double> starts, ends;
    details_set_summary(&app->details, json, &events, &starts, &ends);
    Timeline& t = app->timeline;
    t.selection.clear();
    for (size_t i = 0; i < events.size() && i < starts.size() && i < ends.size(); ++i)
      t.selection.push_back({events[i], starts[i], ends[i]});
    if (t.selection.size() == 1) {  // a rectangle around one event is a click on it
      t.selection_changed = true;
    } else {
      host_selection_changed(t.selection.empty() ? -1 : static_cast<int64_t>(t.selection[0].event));
    }
  }
}

void app_select_events(App* app, const std::vector<uint32_t>& events, const char* name) {
  app->tab = ViewTab::kTimeline;
  std::snprintf(app->search.text, sizeof app->search.text, "%s", name);
  app->search.changed_ms = 0;
  if (events.empty()) return;
  std::string args = "{\"events\":[";
  for (size_t i = 0; i < events.size(); ++i) {
    if (i) args += ',';
    args += std::to_string(events[i]);
  }
  app->selection_query = send_query("select", args + "]}");
}

void app_frame(App* app, float w, float h, double now_ms) {
  g_app = app;
  app->batch.clear();
  app->graph.gpu.visible = false;  // the Graph tab shows it when it draws
  top_bar(app, w);
  if (app->tab == ViewTab::kGraph) {
    app->keys.commands.clear();
    graph_view_frame(&app->graph, &app->keys, 0, kTopBarH, w, h - kTopBarH, now_ms);
  } else if (app->tab == ViewTab::kLoss) {
    app->keys.commands.clear();
    loss_view_frame(&app->loss, 0, kTopBarH, w, h - kTopBarH);
  } else if (app->tab == ViewTab::kRuns) {
    app->keys.commands.clear();
    runs_view_frame(&app->runs, 0, kTopBarH, w, h - kTopBarH);
  } else if (app->data.loaded && app->tab == ViewTab::kMemory) {
    app->keys.commands.clear();
    memory_view_frame(&app->memory, &app->timeline, app->data, &app->keys, 0, kTopBarH, w,
                      h - kTopBarH, now_ms, send_query);
  } else if (app->data.loaded) {
    tool_bar(app, w, now_ms);
    const float top = kTopBarH + kToolBarH;
    const float details_h = details_pane_height(app->details_layout, h, h - top);
    const float tl_h = h - top - details_h;
    route_search_commands(app);
    timeline_frame(&app->timeline, app->data, &app->keys, 0, top, w, tl_h, now_ms, &app->batch);
    timeline_request_data(&app->timeline, app->data, host_post_to_engine);
    timeline_request_overview(&app->timeline, &app->data, host_post_to_engine);
    if (app->timeline.selection_changed) selection_changed(app);
    if (app->timeline.region_pending) region_requested(app);
    details_draw(&app->details, &app->details_layout, &app->timeline, app->data,
                 app->data.origin_ns, 0, top + tl_h, w, details_h);
    timeline_help(&app->timeline, w, h);
  } else {
    app->keys.commands.clear();
    if (!app->progress.active) empty_state(w, h, app->embedded);
  }
}

}  // namespace strata
