#include "ui/search/search_panel.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "imgui.h"
#include "platform/browser/redraw.h"
#include "protocol/reply_keys.h"
#include "ui/theme.h"
#include "ui/timeline/layout.h"
#include "ui/timeline/timeline.h"

namespace strata {

namespace reply = protocol::keys;

namespace {
constexpr double kTypingPauseMs = 150;
constexpr int kResultLimit = 1000;
// The result list's first placement (CSS px); the user may move and resize it after.
constexpr float kResultsW = 640, kResultsMinW = 320, kResultsH = 320;
constexpr float kResultsLeft = 220;  // right of the timeline's track-name column
constexpr float kResultsTop = 80, kResultsMargin = 12;

void go_to(SearchPanel* p, Timeline* t, const TraceData& d, int i) {
  if (p->matches.empty()) return;
  int n = static_cast<int>(p->matches.size());
  p->current = ((i % n) + n) % n;
  const SearchMatch& m = p->matches[p->current];
  timeline_select(t, {m.event, m.start, m.end}, true);
  // Scroll its track into view (sections it is in open up).
  if (m.track < d.tracks.size()) {
    compute_layout(t, d);
    timeline_scroll_to_row(t, d, m.track, m.depth);
  }
}
}  // namespace

std::string search_track_label(const TraceData& d, uint32_t track) {
  if (track >= d.tracks.size()) return std::string();
  const UiTrack& tr = d.tracks[track];
  std::string out = tr.process < d.processes.size() ? d.processes[tr.process].name : std::string();
  if (!out.empty()) out += " / ";
  return out + (tr.name.empty() ? std::to_string(tr.tid) : tr.name);
}

void search_panel_step(SearchPanel* p, Timeline* t, const TraceData& d, int dir) {
  // The text changed and its answer has not arrived (or not even been asked): walk the new
  // results once they are here, not the old ones.
  const std::string key = std::string(p->regex ? "r:" : "s:") + p->text;
  if (p->pending_id != 0 || key != p->sent) {
    p->step_when_answered = dir;
    return;
  }
  go_to(p, t, d, p->current < 0 ? (dir > 0 ? 0 : -1) : p->current + dir);
}

void search_panel_draw(SearchPanel* p, Timeline* t, const TraceData& d, double now_ms,
                       uint32_t (*send)(const char* kind, const std::string& args)) {
  if (p->focus_request) {
    ImGui::SetKeyboardFocusHere();
    p->focus_request = false;
  }
  ImGui::SetNextItemWidth(220);
  bool enter = ImGui::InputTextWithHint("##search", "Search all events  (/)", p->text,
                                        sizeof p->text, ImGuiInputTextFlags_EnterReturnsTrue);
  const bool editing = ImGui::IsItemActive();
  if (ImGui::IsItemEdited()) p->changed_ms = now_ms;
  ImGui::SameLine();
  if (ImGui::Checkbox("regex", &p->regex)) p->changed_ms = now_ms;
  // Send once typing pauses; an empty box ends the search.
  std::string key = std::string(p->regex ? "r:" : "s:") + p->text;
  // Frames are drawn on demand: keep them coming until the pause is over and the query is out.
  if (key != p->sent) request_redraw();
  if (key != p->sent && now_ms - p->changed_ms >= kTypingPauseMs) {
    p->sent = key;
    p->matches.clear();
    p->count = 0;
    p->current = -1;
    p->error.clear();
    search_marks_clear(&t->search_marks);
    if (p->text[0] == 0) {
      t->search_active = false;
      p->pending_id = 0;
    } else {
      std::string args = "{\"text\":";
      json_append_string(&args, p->text);
      args += std::string(",\"regex\":") + (p->regex ? "true" : "false") +
              ",\"limit\":" + std::to_string(kResultLimit) + "}";
      p->pending_id = send("find", args);
    }
  }
  if (enter) {
    search_panel_step(p, t, d, ImGui::GetIO().KeyShift ? -1 : 1);
    ImGui::SetKeyboardFocusHere(-1);  // stay in the box so Enter keeps walking
  }
  (void)editing;
  if (t->search_active || !p->error.empty()) {
    ImGui::SameLine();
    if (!p->error.empty()) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s", p->error.c_str());
    } else {
      const float count_x = ImGui::GetCursorPosX();  // a fixed slot: the buttons stay put
      if (p->current >= 0)
        ImGui::Text("%d of %llu", p->current + 1, static_cast<unsigned long long>(p->count));
      else
        ImGui::Text("%llu found", static_cast<unsigned long long>(p->count));
      ImGui::SameLine(std::max(
          count_x + ImGui::CalcTextSize("0000000 of 0000000").x,
          ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x));
      if (ImGui::SmallButton("<")) search_panel_step(p, t, d, -1);
      ImGui::SameLine();
      if (ImGui::SmallButton(">")) search_panel_step(p, t, d, 1);
      ImGui::SameLine();
      if (ImGui::SmallButton("list")) p->show_results = !p->show_results;
      const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
      p->list_button[0] = lo.x, p->list_button[1] = lo.y;
      p->list_button[2] = hi.x - lo.x, p->list_button[3] = hi.y - lo.y;
    }
  }
  if (p->show_results && t->search_active) {
    // Right of the track names (the timeline's label column) and below the toolbar, so the
    // list never hides which track a result is on.
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float list_w = std::min(kResultsW, std::max(kResultsMinW, display.x - kResultsLeft));
    ImGui::SetNextWindowPos(ImVec2(std::max(kResultsLeft, display.x - list_w - kResultsMargin),
                                   t->layout.y0 > 0 ? t->layout.y0 : kResultsTop),
                            ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(ImVec2(list_w, kResultsH), ImGuiCond_Appearing);
    if (ImGui::Begin("Search results", &p->show_results, ImGuiWindowFlags_NoSavedSettings)) {
      const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
      p->results_rect[0] = at.x, p->results_rect[1] = at.y;
      p->results_rect[2] = size.x, p->results_rect[3] = size.y;
      if (p->count > p->matches.size())
        ImGui::TextDisabled("first %zu of %llu, by time", p->matches.size(),
                            static_cast<unsigned long long>(p->count));
      if (ImGui::BeginTable("results", 4,
                            ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch, 3);
        ImGui::TableSetupColumn("Track", ImGuiTableColumnFlags_WidthStretch, 2);
        ImGui::TableSetupColumn("Start", ImGuiTableColumnFlags_WidthStretch, 1);
        ImGui::TableSetupColumn("Duration", ImGuiTableColumnFlags_WidthStretch, 1);
        ImGui::TableHeadersRow();
        ImGuiListClipper clip;
        clip.Begin(static_cast<int>(p->matches.size()));
        while (clip.Step()) {
          for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const SearchMatch& m = p->matches[i];
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushID(i);
            if (ImGui::Selectable(m.name.c_str(), i == p->current,
                                  ImGuiSelectableFlags_SpanAllColumns))
              go_to(p, t, d, i);
            ImGui::PopID();
            ImGui::TableSetColumnIndex(1);
            const std::string track = search_track_label(d, m.track);
            ImGui::TextUnformatted(track.c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", track.c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::TextUnformatted(format_tick(m.start, 1000).c_str());
            ImGui::TableSetColumnIndex(3);
            ImGui::TextUnformatted(format_duration(m.end - m.start).c_str());
          }
        }
        ImGui::EndTable();
      }
    }
    ImGui::End();
  } else {
    p->results_rect[2] = p->results_rect[3] = 0;
  }
}

void search_panel_result(SearchPanel* p, Timeline* t, const TraceData& d, uint32_t id,
                         const char* json) {
  if (id != p->pending_id) return;  // an older query's answer
  p->pending_id = 0;
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(json, &lines, &err)) return;
  p->matches.clear();
  t->name_match.assign(d.names.size(), 0);
  SearchMarks& marks = t->search_marks;
  search_marks_clear(&marks);
  SearchMatch cur{};
  bool in_matches = false, in_names = false, in_bins = false, started = false;
  auto flush = [&] {
    if (started) p->matches.push_back(cur);
    started = false;
  };
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      if (in_matches) flush();
      in_matches = l.key == reply::find::kMatches;
      in_names = l.key == reply::find::kNameIds;
      in_bins = l.key == reply::find::kBins;
      if (l.key == reply::find::kBinsStart)
        marks.bins_start = std::strtod(l.value.c_str(), nullptr);
      if (l.key == reply::find::kBinsEnd) marks.bins_end = std::strtod(l.value.c_str(), nullptr);
      if (l.key == reply::find::kCount) p->count = std::strtoull(l.value.c_str(), nullptr, 10);
      if (l.key == reply::failure::kError) p->error = l.value;
    } else if (in_bins && l.depth == 1) {
      marks.bins.push_back(static_cast<uint32_t>(std::strtoul(l.value.c_str(), nullptr, 10)));
    } else if (in_names && l.depth == 1) {
      size_t n = std::strtoull(l.value.c_str(), nullptr, 10);
      if (n < t->name_match.size()) t->name_match[n] = 1;
    } else if (in_matches && l.depth == 1) {  // a new match object
      flush();
      cur = SearchMatch{};
      started = true;
    } else if (in_matches && l.depth == 2) {
      if (l.key == reply::event::kEvent)
        cur.event = static_cast<uint32_t>(std::strtoul(l.value.c_str(), nullptr, 10));
      else if (l.key == reply::event::kTrack)
        cur.track = static_cast<uint32_t>(std::strtoul(l.value.c_str(), nullptr, 10));
      else if (l.key == reply::event::kDepth)
        cur.depth = static_cast<uint32_t>(std::strtoul(l.value.c_str(), nullptr, 10));
      else if (l.key == reply::event::kStart)
        cur.start = std::strtod(l.value.c_str(), nullptr);
      else if (l.key == reply::event::kEnd)
        cur.end = std::strtod(l.value.c_str(), nullptr);
      else if (l.key == reply::event::kName)
        cur.name = l.value;
    }
  }
  if (in_matches) flush();
  for (const SearchMatch& m : p->matches) marks.starts.push_back(m.start);
  marks.listed_all = p->matches.size() >= p->count;
  t->search_active = p->error.empty();
  // Enter pressed while this answer was on its way: walk only now that every match is read.
  const int dir = p->step_when_answered;
  p->step_when_answered = 0;
  if (dir != 0 && t->search_active) go_to(p, t, d, dir > 0 ? 0 : -1);
}

}  // namespace strata
