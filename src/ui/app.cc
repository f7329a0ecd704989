#include "ui/app.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "imgui.h"
#include "imgui_internal.h"  // RenderTextEllipsis, the line's text baseline
#include "platform/browser/host.h"
#include "platform/browser/runs_host.h"
#include "protocol/reply_keys.h"
#include "ui/compare/compare_details.h"
#include "ui/help/help_overlay.h"
#include "ui/labels.h"
#include "ui/memory/memory_links.h"
#include "ui/timeline/colors.h"

namespace strata {

namespace reply = protocol::keys;

namespace {

constexpr float kTopBarH = 34.0f;
constexpr float kToolBarH = 32.0f;
constexpr float kMinTitleW = 40.0f;      // narrower than this, the title is not drawn
constexpr float kBannerMinLines = 3;     // a banner shows at least this many lines before scrolling
constexpr float kBannerMaxShare = 0.3f;  // and at most this share of the page's height
App* g_app = nullptr;                    // for query callbacks (one App per UI module)
// The kind a query of B's engine is filed under until answered (not an engine query name).
constexpr const char* kCompareSelectQuery = "compare:select";
constexpr const char* kCompareMatchQuery = "compare:match";  // the linked selection's
// A matched pair brought into view fills at most this share of the timelines' width.
constexpr double kMatchViewFill = 0.8;

uint32_t send_query(const char* kind, const std::string& args) {
  uint32_t id = g_app->next_query_id++;
  g_app->queries[id] = kind;
  host_query(id, kind, args.c_str());
  return id;
}

// The tab's title after the tabs: clipped before `right` (where the page's own buttons start),
// ending in "..." with the whole text in a tooltip.
void clipped_title(App* app, const std::string& text, float right) {
  ImVec2 pos = ImGui::GetCursorScreenPos();
  const float avail = right - pos.x;
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  app->top_layout.title = text;
  app->top_layout.title_clipped = size.x > avail;
  if (avail < kMinTitleW) return;
  const float shown = std::min(size.x, avail);
  ImGui::Dummy(ImVec2(shown, size.y));  // an item, for the hover
  pos.y += ImGui::GetCurrentWindow()->DC.CurrLineTextBaseOffset;
  ImGui::RenderTextEllipsis(ImGui::GetWindowDrawList(), pos, ImVec2(pos.x + shown, pos.y + size.y),
                            pos.x + shown, pos.x + shown, text.c_str(), nullptr, &size);
  if (app->top_layout.title_clipped && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", text.c_str());
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
  tab_button("Analysis", ViewTab::kAnalysis);
  tab_button("Compare", ViewTab::kCompare);
  if (app->pod.loaded) tab_button("Pod", ViewTab::kPod);  // once a pod manifest is open
  const LoadProgress& p = app->progress;
  const std::string title = app_tab_title(*app);
  const float right = w - app->top_bar_reserved - ImGui::GetStyle().ItemSpacing.x;
  TopBarLayout& layout = app->top_layout;
  layout.title.clear();
  layout.title_clipped = false;
  layout.tabs_right = ImGui::GetItemRectMax().x;
  if (p.active || !title.empty()) {  // a separator only before something
    ImGui::TextDisabled("|");
    ImGui::SameLine();
  }
  if (p.active) {
    char overlay[160];
    float frac = p.total > 0 ? static_cast<float>(p.loaded / p.total) : 0.0f;
    std::snprintf(overlay, sizeof overlay, "%s  %s / %s  %.0f MB/s", p.name.c_str(),
                  byte_label(p.loaded, ByteUnits::kDecimal).c_str(),
                  byte_label(p.total, ByteUnits::kDecimal).c_str(), p.mb_per_s);
    const float bar_w = std::min({520.0f, w * 0.5f, right - ImGui::GetCursorScreenPos().x});
    ImGui::ProgressBar(frac, ImVec2(std::max(bar_w, kMinTitleW), 0), overlay);
  } else if (!title.empty()) {
    clipped_title(app, title, right);
  }
  layout.items_right = ImGui::GetItemRectMax().x;
  ImGui::End();
}

// A note under the top bar, wrapped to the window's width and scrolled when longer than its
// share of the height, with its button at the right. Returns its height.
float banner(const char* id, const std::string& text, uint32_t colour, const char* button,
             bool* pressed, float y, float w, float h, BannerLayout* layout) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float button_w = ImGui::CalcTextSize(button).x + st.FramePadding.x * 2;
  const float wrap_w = std::max(
      kMinTitleW, w - button_w - st.WindowPadding.x * 2 - st.ItemSpacing.x * 2 - st.ScrollbarSize);
  const float text_h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap_w).y;
  const float box_h =
      std::min(text_h, std::max(ImGui::GetTextLineHeight() * kBannerMinLines, h * kBannerMaxShare));
  const float banner_h = std::max(box_h, ImGui::GetFrameHeight()) + st.WindowPadding.y * 2;
  ImGui::SetNextWindowPos(ImVec2(0, y));
  ImGui::SetNextWindowSize(ImVec2(w, banner_h));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, theme::kBannerBg);
  ImGui::Begin(
      id, nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  ImGui::BeginChild("##text", ImVec2(wrap_w + st.ScrollbarSize, box_h), false);
  ImGui::PushTextWrapPos(wrap_w);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::SameLine();
  *pressed = ImGui::Button(button);
  const ImVec2 b0 = ImGui::GetItemRectMin(), b1 = ImGui::GetItemRectMax();
  *layout = {y, banner_h, {b0.x, b0.y, b1.x - b0.x, b1.y - b0.y}};
  ImGui::End();
  ImGui::PopStyleColor();
  return banner_h;
}

// The load error, then the first visit's note, under the top bar; returns their height.
float banners(App* app, float w, float h) {
  float y = kTopBarH;
  bool pressed = false;
  app->top_layout.error = app->top_layout.welcome = BannerLayout{};
  if (!app->error_banner.empty()) {
    y += banner("##error", app->error_banner, theme::kErrorText, "Dismiss", &pressed, y, w, h,
                &app->top_layout.error);
    if (pressed) app->error_banner.clear();
  }
  if (app->welcome && !app->embedded) {
    y += banner("##welcome",
                "Welcome to Strata. Drop trace files or profiler folders anywhere on this page "
                "to open them (or use Open... and Open folder...): Chrome / Perfetto JSON, "
                "PyTorch Kineto, XPlane, HLO, training logs, .gz and .zst. Press ? for the "
                "shortcuts of the tab shown.",
                theme::kText, "Got it", &pressed, y, w, h, &app->top_layout.welcome);
    if (pressed) app->welcome = false;
  }
  return y - kTopBarH;
}

// `?` and Esc for the help overlay, whichever tab is shown (the tabs' own keys come after).
void route_help_commands(App* app) {
  bool& open = app->timeline.show_help;
  auto& cmds = app->keys.commands;
  for (auto it = cmds.begin(); it != cmds.end();) {
    if (*it == Command::kHelp || (*it == Command::kEscape && open)) {
      open = *it == Command::kHelp ? !open : false;
      it = cmds.erase(it);
    } else {
      ++it;
    }
  }
}

void tool_bar(App* app, float y, float w, double now_ms) {
  ImGui::SetNextWindowPos(ImVec2(0, y));
  ImGui::SetNextWindowSize(ImVec2(w, kToolBarH));
  ImGui::Begin("##toolbar", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  timeline_toolbar(&app->timeline, app->data, 0, y, w);
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  search_panel_draw(&app->search, &app->timeline, app->data, now_ms, send_query);
  timeline_toolbar_extras(&app->timeline, ImGui::GetWindowContentRegionMax().x);
  ImGui::End();
}

// What an empty Timeline or Memory tab says to open (the other tabs draw their own).
std::string empty_state(ViewTab tab, float w, float h, bool embedded) {
  const char* lines[3] = {};
  if (tab == ViewTab::kMemory) {
    lines[0] = "No memory data yet.";
    lines[1] = embedded ? "The host page opens files."
                        : "Open a trace with memory events (PyTorch profiler with profile_memory, "
                          "XPlane)";
    lines[2] = embedded ? nullptr : "or an Ascend memory_record.csv: drop it anywhere, or Open...";
  } else {
    lines[0] = "No trace loaded yet.";
    lines[1] = embedded ? "The host page opens files."
                        : "Drop trace files or a profiler folder anywhere on this page, or use "
                          "Open... / Open folder...";
    lines[2] = embedded ? nullptr
                        : "Chrome / Perfetto JSON, PyTorch Kineto, XPlane (.pb), HLO, training "
                          "logs; .gz and .zst";
  }
  float y = h / 2 - ImGui::GetTextLineHeightWithSpacing();
  std::string said;
  for (const char* line : lines) {
    if (!line) continue;
    const ImVec2 sz = ImGui::CalcTextSize(line);
    ImGui::GetBackgroundDrawList()->AddText(ImVec2((w - sz.x) / 2, y), theme::kTextDim, line);
    y += ImGui::GetTextLineHeightWithSpacing();
    said += (said.empty() ? "" : "\n") + std::string(line);
  }
  return said;
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

bool linking(const App& app) {
  return app.tab == ViewTab::kCompare && app.compare.model.has_b &&
         app.compare.timelines.b_data.loaded;
}

void compare_match(App* app, bool from_b);

// Selection changed: one event → its details; several → the engine's summary. On the Compare
// tab, unless `link` is false (the selection is the answer of a match), the counterparts in B
// follow.
void selection_changed(App* app, bool link = true) {
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
  if (link && linking(*app)) compare_match(app, false);
}

// The select query's args for a timeline's last drag: its rows over its time range.
std::string region_args(const Timeline& t) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "{\"t0\":%.17g,\"t1\":%.17g,\"limit\":100000,\"rows\":[",
                t.region_t0, t.region_t1);
  std::string args = buf;
  for (size_t i = 0; i + 2 < t.region_rows.size(); i += 3)
    args += (i ? ",[" : "[") + std::to_string(t.region_rows[i]) + "," +
            std::to_string(t.region_rows[i + 1]) + "," + std::to_string(t.region_rows[i + 2]) + "]";
  return args + "]}";
}

void region_requested(App* app) {
  Timeline& t = app->timeline;
  t.region_pending = false;
  const std::string args = region_args(t);
  app->details = DetailsPane{};
  app->details.multi = true;
  app->details.summary_waiting = true;
  app->selection_query = send_query("select", args);
  if (linking(*app)) app->compare.timelines.a_link_select = app->selection_query;
}

// A select query of B's engine (a diff row's events, a drag on B's timeline); its answer is B's
// selection.
void compare_select_in_b(App* app, const std::string& args) {
  const uint32_t id = app->next_query_id++;
  app->queries[id] = kCompareSelectQuery;
  app->compare.timelines.b_select_query = id;
  host_compare_query(id, "select", args.c_str());
}

// The counterparts of one side's selection in the other (the engine's match; the answer:
// app_query_result). An empty selection empties the other's.
void compare_match(App* app, bool from_b) {
  CompareTimelines& c = app->compare.timelines;
  const std::vector<SelectedEvent>& sel = from_b ? c.b.selection : app->timeline.selection;
  c.match_query = 0;
  if (sel.empty()) {
    c.match = CompareMatch{};
    if (from_b) {
      app->timeline.selection.clear();
      app->details = DetailsPane{};
      host_selection_changed(-1);
    } else {
      c.b.selection.clear();
      c.b_details = DetailsPane{};
    }
    return;
  }
  std::string args = "{\"events\":[";
  for (size_t i = 0; i < sel.size(); ++i) args += (i ? "," : "") + std::to_string(sel[i].event);
  args += "]}";
  const uint32_t id = app->next_query_id++;
  app->queries[id] = kCompareMatchQuery;
  c.match_query = id;
  host_compare_match(id, from_b, args.c_str());
}

// The first selected event of A and of B both in view: A's view (B's follows it) is moved, and
// widened when needed, to hold both (B's in A's time) when one is outside it.
void show_matched(App* app) {
  const Timeline& a = app->timeline;
  const CompareTimelines& c = app->compare.timelines;
  if (a.selection.empty() || c.b.selection.empty()) return;
  const double off = app->compare.model.alignment.offset_ns;
  const double lo = std::min(a.selection[0].start, c.b.selection[0].start - off);
  const double hi = std::max(a.selection[0].end, c.b.selection[0].end - off);
  if (lo >= a.view.start && hi <= a.view.end) return;
  const double span = std::max(a.view.end - a.view.start, (hi - lo) / kMatchViewFill);
  const double mid = (lo + hi) / 2;
  timeline_set_view(&app->timeline, mid - span / 2, mid + span / 2);
}

// B's selection changed by a click in B's timeline: its details, and its counterparts in A
// (several: after B's engine answers their summary).
void b_selection_changed(App* app) {
  CompareTimelines& c = app->compare.timelines;
  compare_timelines_b_selection_changed(&c);
  if (c.b.selection.size() > 1) {
    std::string args = "{\"events\":[";
    for (size_t i = 0; i < c.b.selection.size(); ++i)
      args += (i ? "," : "") + std::to_string(c.b.selection[i].event);
    compare_select_in_b(app, args + "]}");
    c.b_link_select = c.b_select_query;
    return;
  }
  compare_match(app, true);
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
    analysis_view_reset(&app->analysis);
    // A new A: the diff and the alignment against B are asked again (the same alignment).
    const CompareAlignment& al = app->compare.model.alignment;
    if (app->compare.model.has_b)
      host_compare_align(al.mode.c_str(), static_cast<double>(al.step), al.event.c_str());
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
    if (l.key == reply::event::kStartNs)
      start = static_cast<double>(std::strtoll(l.value.c_str(), nullptr, 10) - app->data.origin_ns);
    else if (l.key == reply::event::kDurNs)
      dur = num(l.value);
    else if (l.key == reply::event::kTrack)
      track = static_cast<uint32_t>(num(l.value));
    else if (l.key == reply::event::kDepth)
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
      in_flows = l.key == reply::details::kFlows;
    } else if (in_flows && l.depth == 1) {
      flush();
      started = true;
    } else if (in_flows && l.depth == 2) {
      if (l.key == reply::event::kEvent)
        other = static_cast<uint32_t>(num(l.value));
      else if (l.key == reply::event::kStartNs)
        o_start =
            static_cast<double>(std::strtoll(l.value.c_str(), nullptr, 10) - app->data.origin_ns);
      else if (l.key == reply::event::kDurNs)
        o_dur = num(l.value);
      else if (l.key == reply::event::kTrack)
        o_track = static_cast<uint32_t>(num(l.value));
      else if (l.key == reply::event::kDepth)
        o_depth = static_cast<uint32_t>(num(l.value));
      else if (l.key == reply::details::kIncoming)
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
  if (kind == "analysis") {
    analysis_view_result(&app->analysis, id, json);
    return;
  }
  CompareTimelines& ct = app->compare.timelines;
  if (kind == kCompareSelectQuery) {  // B's events of a diff row or a drag, from B's engine
    if (id != ct.b_select_query) return;
    compare_timelines_select_answer(&ct, json);
    if (id == ct.b_link_select) {  // a drag or ctrl-click in B: A follows
      ct.b_link_select = 0;
      compare_match(app, true);
    }
    return;
  }
  if (kind == kCompareMatchQuery) {  // the counterparts of one side's selection
    if (id != ct.match_query) return;
    if (compare_timelines_match_answer(&ct, json)) {  // A's
      Timeline& t = app->timeline;
      t.selection.clear();
      const CompareMatch& m = ct.match;
      for (size_t i = 0; i < m.events.size() && i < m.starts.size() && i < m.ends.size(); ++i)
        t.selection.push_back({m.events[i], m.starts[i], m.ends[i]});
      compare_timelines_reveal_match(m, &t, app->data);
      selection_changed(app, false);
    }
    show_matched(app);
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
    if (app->show_selection_on_answer) summary_show_longest(app->details.summary, &t, app->data);
    app->show_selection_on_answer = false;
    if (t.selection.size() == 1) {  // a rectangle around one event is a click on it
      t.selection_changed = true;
    } else {
      host_selection_changed(t.selection.empty() ? -1 : static_cast<int64_t>(t.selection[0].event));
      if (id == ct.a_link_select && linking(*app)) compare_match(app, false);  // a drag in A
    }
    if (id == ct.a_link_select) ct.a_link_select = 0;
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
  app->batch_b.clear();
  app->graph.gpu.visible = false;  // the Graph tab shows it when it draws
  top_bar(app, w);
  const float top = kTopBarH + banners(app, w, h);
  const float below = h - top;
  route_help_commands(app);
  app->empty_message.clear();
  if (app->tab == ViewTab::kGraph) {
    app->keys.commands.clear();
    graph_view_frame(&app->graph, &app->keys, 0, top, w, below, now_ms);
  } else if (app->tab == ViewTab::kLoss) {
    app->keys.commands.clear();
    loss_view_frame(&app->loss, 0, top, w, below);
  } else if (app->tab == ViewTab::kCompare) {
    CompareView& c = app->compare;
    // With a B: the tables above, A's and B's timelines aligned below.
    const bool timelines = c.model.has_b && app->data.loaded;
    const float tables_h = timelines ? below * kCompareTablesShare : below;
    compare_view_frame(&c, 0, top, w, tables_h);
    if (timelines) {
      // Under the tables: the two timelines, then A's and B's details side by side.
      const float details_h = compare_details_height(c.timelines, below - tables_h);
      const float tl_h = below - tables_h - details_h;
      compare_timelines_frame(&c.timelines, c.model, compare_view_table(c), c.results,
                              &app->timeline, app->data, &app->keys, 0, top + tables_h, w, tl_h,
                              now_ms, &app->batch, &app->batch_b);
      if (c.timelines.b_data.loaded)
        compare_details_frame(&c.timelines, &app->details, &app->timeline, app->data, 0,
                              top + tables_h + tl_h, w, details_h);
      timeline_request_data(&app->timeline, app->data, host_post_to_engine);
      timeline_request_overview(&app->timeline, &app->data, host_post_to_engine);
      if (app->timeline.selection_changed) selection_changed(app);
      if (app->timeline.region_pending) region_requested(app);
      if (c.timelines.b.selection_changed) b_selection_changed(app);
      if (c.timelines.b.region_pending) {  // a drag on B's timeline selects there, then in A
        c.timelines.b.region_pending = false;
        compare_select_in_b(app, region_args(c.timelines.b));
        c.timelines.b_link_select = c.timelines.b_select_query;
      }
    } else {
      app->keys.commands.clear();
    }
    if (!c.select_request.empty()) {  // a row's events become A's and B's selection
      app->selection_query = send_query("select", c.select_request);
      compare_select_in_b(app, c.select_request);
      c.select_request.clear();
    }
  } else if (app->tab == ViewTab::kAnalysis) {
    app->keys.commands.clear();
    AnalysisView& a = app->analysis;
    analysis_view_frame(&a, app->data.loaded, 0, top, w, below, send_query);
    if (!a.select_request.empty()) {  // a row's events become the timeline's selection
      app->selection_query = send_query("select", a.select_request);
      a.select_request.clear();
    }
    if (a.zoom_request) timeline_set_view(&app->timeline, a.zoom_start, a.zoom_end);
    a.zoom_request = false;
    if (a.open_timeline) {  // there, the longest of the row's events in view
      app->tab = ViewTab::kTimeline;
      app->show_selection_on_answer = app->queries.count(app->selection_query) > 0;
      if (!app->show_selection_on_answer)
        summary_show_longest(app->details.summary, &app->timeline, app->data);
    }
    a.open_timeline = false;
  } else if (app->tab == ViewTab::kRuns) {
    app->keys.commands.clear();
    runs_view_frame(&app->runs, 0, top, w, below);
  } else if (app->tab == ViewTab::kPod) {
    app->keys.commands.clear();
    pod_view_frame(&app->pod, 0, top, w, below);
  } else if (app->data.loaded && app->tab == ViewTab::kMemory) {
    app->keys.commands.clear();
    memory_view_frame(&app->memory, &app->timeline, app->data, &app->keys, 0, top, w, below, now_ms,
                      send_query);
  } else if (app->data.loaded) {
    tool_bar(app, top, w, now_ms);
    const float tl_top = top + kToolBarH;
    const float details_h = details_pane_height(app->details_layout, h, h - tl_top);
    const float tl_h = h - tl_top - details_h;
    route_search_commands(app);
    timeline_frame(&app->timeline, app->data, &app->keys, 0, tl_top, w, tl_h, now_ms, &app->batch);
    timeline_request_data(&app->timeline, app->data, host_post_to_engine);
    timeline_request_overview(&app->timeline, &app->data, host_post_to_engine);
    if (app->timeline.selection_changed) selection_changed(app);
    if (app->timeline.region_pending) region_requested(app);
    details_draw(&app->details, &app->details_layout, &app->timeline, app->data,
                 app->data.origin_ns, 0, tl_top + tl_h, w, details_h);
  } else {
    app->keys.commands.clear();
    if (!app->progress.active) app->empty_message = empty_state(app->tab, w, h, app->embedded);
  }
  help_overlay_draw(&app->timeline.show_help, app->tab, w, h);
  memory_links_apply(app);
}

}  // namespace strata
