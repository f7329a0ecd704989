#include "ui/help/help_overlay.h"

#include <cstdio>

#include "imgui.h"
#include "ui/app.h"
#include "ui/theme.h"

namespace strata {
namespace {

constexpr HelpRow kTimeline[] = {
    {"W / S", "zoom in / out about the mouse (hold to keep going)"},
    {"A / D", "pan earlier / later (shift: faster)"},
    {"wheel, shift+wheel", "zoom; scroll the tracks"},
    {"right or middle drag", "pan with any tool"},
    {"1 2 3 4", "tools: select, pan, zoom, timing"},
    {"click, ctrl-click", "select an event; add or remove one"},
    {"drag (select tool)", "select every event in a rectangle"},
    {"click \"N events\"", "a folded run of events too small to draw: zooms in until they show"},
    {"f", "zoom to the selection (or the timing interval)"},
    {"m", "mark the selection's time range (m with nothing selected clears marks)"},
    {"0", "show the whole trace"},
    {"/", "search the whole trace"},
    {"Enter, shift+Enter", "next / previous search result"},
    {"g", "grid on / off"},
    {"Esc", "clear the selection and the timing interval"},
    {"click a process header", "collapse or expand its section"},
    {"right-click a track name", "track menu: pin to the top of its section, hide, show hidden"},
    {"Flow events box", "draw every flow arrow; a selected event always shows its own"},
    {"Flows in the details", "click one to select the event at its other end"},
};
constexpr HelpRow kAnalysis[] = {
    {"click a row", "select its events in the timeline (the selection summary lists them)"},
    {"double-click a row", "select them and show the timeline"},
    {"click a header", "sort by it (numbers largest first); again to reverse"},
};
constexpr HelpRow kMemory[] = {
    {"W / S, wheel", "zoom the chart in / out about the mouse"},
    {"A / D, drag", "pan earlier / later"},
    {"click the chart", "list what was allocated at that time"},
    {"hover the chart", "the memory in use at the cursor (also drawn on the timeline)"},
};
constexpr HelpRow kLoss[] = {
    {"Import Files... or drop", "add training logs (text, .gz); each becomes a curve"},
    {"box before a log", "show or hide its curve"},
    {"Tags", "choose the loss and iteration tags to read from the log"},
    {"hover the chart", "the value of every curve at that iteration"},
    {"Smoothing, Log-scale", "an EMA of each curve; a logarithmic loss axis"},
};
constexpr HelpRow kRuns[] = {
    {"Open folder... or drop", "a profiler folder: its runs, workers and spans"},
    {"run / worker / span", "choose the profile"},
    {"Operator ... Diff", "the profile's views; Trace and Memory open it in their tabs"},
    {"click a column header", "sort by that column (again: the other way)"},
};
constexpr HelpRow kGraph[] = {
    {"drag, right drag", "pan the graph"},
    {"wheel, W / S", "zoom about the mouse"},
    {"click a node", "select it: its details, inputs and users"},
    {"double-click a fusion or call", "open it in place"},
    {"Fit", "the whole graph in view"},
    {"Show in timeline", "the selected op's events on the Timeline tab"},
};
constexpr HelpRow kPage[] = {
    {"drop files or folders", "anywhere on the page: traces, HLO, training logs, profiler folders"},
    {"?", "this help (for the tab shown); Esc closes it"},
};

template <size_t N>
HelpRows rows(const char* title, const HelpRow (&r)[N]) {
  return {title, r, N};
}

void rows_of(const HelpRows& r) {
  for (size_t i = 0; i < r.count; ++i) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccentText), "%s", r.rows[i].keys);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(r.rows[i].what);
  }
}

}  // namespace

HelpRows help_rows(ViewTab tab) {
  switch (tab) {
    case ViewTab::kMemory:
      return rows("Memory shortcuts", kMemory);
    case ViewTab::kLoss:
      return rows("Loss shortcuts", kLoss);
    case ViewTab::kRuns:
      return rows("Runs shortcuts", kRuns);
    case ViewTab::kGraph:
      return rows("Graph shortcuts", kGraph);
    case ViewTab::kAnalysis:
      return rows("Analysis shortcuts", kAnalysis);
    case ViewTab::kPod:      // no keys of its own
    case ViewTab::kCompare:  // no keys of its own: the timeline's, for A's and B's timelines
    case ViewTab::kTimeline:
      break;
  }
  return rows("Timeline shortcuts", kTimeline);
}

HelpRows help_page_rows() { return rows("Everywhere", kPage); }

void help_overlay_draw(bool* open, ViewTab tab, float w, float h) {
  if (!*open) return;
  const HelpRows own = help_rows(tab);
  ImGui::SetNextWindowPos(ImVec2(w / 2, h / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  // The window's title is the tab's; its id stays one window whichever tab is shown.
  char title[64];
  std::snprintf(title, sizeof title, "%s###help", own.title);
  ImGui::Begin(title, open,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoCollapse);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    rows_of(own);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", help_page_rows().title);
    rows_of(help_page_rows());
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace strata
