// Which tab shows what: the tabs' names (the script API's), the tab a newly opened file brings
// to the front, and the top bar's title for the tab shown. The page reports what opened; the
// choice is made here.
#include <cstdio>
#include <cstring>
#include <string>

#include "ui/app.h"

namespace strata {
namespace {
struct TabName {
  ViewTab tab;
  const char* name;
};
constexpr TabName kTabNames[] = {{ViewTab::kTimeline, "timeline"}, {ViewTab::kMemory, "memory"},
                                 {ViewTab::kLoss, "loss"},         {ViewTab::kRuns, "runs"},
                                 {ViewTab::kGraph, "graph"},       {ViewTab::kAnalysis, "analysis"},
                                 {ViewTab::kCompare, "compare"},   {ViewTab::kPod, "pod"}};
}  // namespace

const char* view_tab_name(ViewTab tab) {
  for (const TabName& t : kTabNames)
    if (t.tab == tab) return t.name;
  return "timeline";
}

bool view_tab_from_name(const char* name, ViewTab* tab) {
  for (const TabName& t : kTabNames)
    if (name && std::strcmp(name, t.name) == 0) {
      *tab = t.tab;
      return true;
    }
  return false;
}

void app_file_opened(App* app, const std::string& kind, bool memory_added) {
  if (memory_added) {  // memory data for the trace shown: its chart has news
    memory_view_reset(&app->memory);
    app->tab = ViewTab::kMemory;
  } else if (kind == "ascend-csv") {  // a memory CSV on its own: nothing for the timeline
    app->tab = ViewTab::kMemory;
  } else if (kind == "training-log") {
    app->tab = ViewTab::kLoss;
  } else if (kind == "hlo-text" || kind == "hlo-proto") {
    app->tab = ViewTab::kGraph;
  } else if (kind == "strata-pod") {  // hosts picked in the Pod tab: their timeline
    app->tab = ViewTab::kTimeline;
  }
  // A trace (chrome-json, xplane) opens behind whichever tab is shown.
}

std::string app_tab_title(const App& app) {
  char buf[96];
  switch (app.tab) {
    case ViewTab::kRuns: {
      const RunDiscovery& d = app.runs.discovery;
      if (d.runs.empty()) return "";
      std::snprintf(buf, sizeof buf, "  |  %zu run%s", d.runs.size(),
                    d.runs.size() == 1 ? "" : "s");
      return "Runs folder " + (d.root.empty() ? std::string("(no common root)") : d.root) + buf;
    }
    case ViewTab::kGraph: {
      const GraphView& g = app.graph;
      if (g.module < 0 || g.module >= static_cast<int>(g.modules.size())) return "";
      const GraphModuleInfo& m = g.modules[static_cast<size_t>(g.module)];
      std::snprintf(buf, sizeof buf, "  |  %u instructions", m.instructions);
      std::string title = "HLO module " + m.name;
      if (!m.source.empty() && m.source != m.name) title += "  (" + m.source + ")";
      return title + buf;
    }
    case ViewTab::kLoss: {
      const std::vector<LossFile>& files = app.loss.files;
      if (files.empty()) return "";
      std::string title = files.size() == 1 ? "Training log " : "Training logs ";
      for (size_t i = 0; i < files.size(); ++i) title += (i ? ", " : "") + files[i].name;
      return title;
    }
    case ViewTab::kMemory:
      return app.file_label.empty() ? "" : "Memory of " + app.file_label;
    case ViewTab::kAnalysis:
      return app.file_label.empty() ? "" : "Analysis of " + app.file_label;
    case ViewTab::kCompare: {
      const CompareModel& m = app.compare.model;
      return m.has_b ? "Compare " + m.a_name + " (A) with " + m.b_name + " (B)" : "";
    }
    case ViewTab::kPod:
      return app.pod.loaded ? "Pod " + app.pod.name : "";
    case ViewTab::kTimeline:
      break;
  }
  return app.file_label;
}

void app_runs_profile_loaded(App* app) {
  const RunView view = static_cast<RunView>(app->runs.view);
  if (view == RunView::kTrace) app->tab = ViewTab::kTimeline;
  if (view == RunView::kMemory) app->tab = ViewTab::kMemory;
}

void app_runs_folder_opened(App* app) {
  if (!app->runs.discovery.runs.empty()) app->tab = ViewTab::kRuns;
}

}  // namespace strata
