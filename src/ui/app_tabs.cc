// Which tab shows what: the tabs' names (the script API's), and the tab a newly opened file
// brings to the front. The page reports what opened; the choice is made here.
#include <cstring>
#include <string>

#include "ui/app.h"

namespace strata {
namespace {
struct TabName {
  ViewTab tab;
  const char* name;
};
constexpr TabName kTabNames[] = {{ViewTab::kTimeline, "timeline"},
                                 {ViewTab::kMemory, "memory"},
                                 {ViewTab::kLoss, "loss"},
                                 {ViewTab::kRuns, "runs"},
                                 {ViewTab::kGraph, "graph"}};
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
  }
  // A trace (chrome-json, xplane) opens behind whichever tab is shown.
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
