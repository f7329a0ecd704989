#include "ui/memory/memory_links.h"

#include "ui/app.h"

namespace strata {

namespace {
constexpr const char* kMemoryViewer = "memory_viewer";  // the analysis of the Memory Viewer
}  // namespace

void memory_links_apply(App* app) {
  MemoryView& m = app->memory;
  if (m.open_viewer_request) {
    m.open_viewer_request = false;
    const MemoryView::XlaRun& r = m.live_run;
    if (r.valid && r.graph_module >= 0) {
      memory_viewer_chart_choose(&app->analysis.memview, r.graph_module, r.point);
      analysis_view_open(&app->analysis, kMemoryViewer, std::string());
      app->tab = ViewTab::kAnalysis;
    }
  }
  MemoryViewerChart& c = app->analysis.memview;
  if (c.memory_tab_request) {
    c.memory_tab_request = false;
    if (!c.data.module_name.empty()) {
      memory_view_show_module(&m, c.data.module_name, c.data.program_id);
      app->tab = ViewTab::kMemory;
    }
  }
}

}  // namespace strata
