// Which tab shows what: the tabs' names, for the script API.
#include <cstring>

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

}  // namespace strata
