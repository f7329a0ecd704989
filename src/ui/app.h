// The UI application state and its frame: top bar (open, file, progress, errors), toolbar and
// search, the timeline and the details pane. One instance lives in the UI module;
// web/page/strata.js feeds it engine messages, query answers and load progress through
// src/ui/exports/.
#pragma once
#include <map>
#include <string>

#include "platform/gl/rect_renderer.h"
#include "ui/analysis/analysis_view.h"
#include "ui/compare/compare_view.h"
#include "ui/details/details_pane.h"
#include "ui/graph/graph_view.h"
#include "ui/loss/loss_view.h"
#include "ui/memory/memory_view.h"
#include "ui/pod/pod_view.h"
#include "ui/runs/runs_view.h"
#include "ui/search/search_panel.h"
#include "ui/timeline/timeline.h"
#include "ui/trace_data.h"

namespace strata {

struct LoadProgress {
  bool active = false;
  std::string name;
  double loaded = 0, total = 0;  // bytes
  double mb_per_s = 0;
  double records = 0;
};

// CPU time of building frames, for strata.frameStats() and scripts/bench-frame.
struct FrameStats {
  static constexpr int kRing = 4096;
  float ms[kRing] = {};
  uint64_t frames = 0;
};

// The top-level views, chosen by the tab buttons in the top bar (or strata.setTab).
enum class ViewTab { kTimeline, kMemory, kLoss, kRuns, kGraph, kAnalysis, kCompare, kPod };
// The tabs' names in the script API ("timeline", "memory", "loss", "runs", "graph", "analysis",
// "compare", "pod").
const char* view_tab_name(ViewTab tab);
bool view_tab_from_name(const char* name, ViewTab* tab);  // false for an unknown name

// Where the top bar and the banners under it drew in the last frame (CSS px), for
// strata.state(): what the title says, where the tabs end, where a banner and its button are.
struct BannerLayout {
  float y = 0, h = 0;              // h 0: not shown
  float button[4] = {0, 0, 0, 0};  // x, y, w, h
};
struct TopBarLayout {
  std::string title;  // the title the top bar drew
  bool title_clipped = false;
  float tabs_right = 0, items_right = 0;  // the tab buttons' right end; the last item's
  BannerLayout error, welcome;
};

struct App {
  ViewTab tab = ViewTab::kTimeline;
  LossView loss;
  GraphView graph;
  AnalysisView analysis;
  CompareView compare;
  MemoryView memory;
  RunsView runs;
  PodView pod;
  TraceData data;
  Timeline timeline;
  NavKeys keys;
  DetailsPane details;
  DetailsLayout details_layout;  // the pane's height and collapse, kept across selections
  SearchPanel search;
  LoadProgress progress;
  std::string file_label;      // "name | 12.3 MB | 45,678 events"
  std::string error_banner;    // the last load error, until dismissed
  bool embedded = false;       // embed=1: the host page opens files, so no Open... or drop hint
  bool welcome = false;        // first visit: a note on dropping files, until dismissed or a load
  float top_bar_reserved = 0;  // px at the top bar's right end that the page's own buttons cover
  TopBarLayout top_layout;     // where the top bar and its banners drew last frame
  std::string empty_message;   // what an empty Timeline / Memory tab says, "" when not empty
  RectBatch batch;
  RectBatch batch_b;  // a second timeline's (the Compare tab's B), drawn after `batch`
  double last_frame_ms = 0;
  FrameStats frame_stats;
  uint32_t next_query_id = 1;
  std::map<uint32_t, std::string> queries;  // query id → kind, until answered
  uint32_t selection_query = 0;             // the "select" query whose answer is awaited
  bool show_selection_on_answer = false;    // its events come into view when it is answered
};

// The top bar's title for the tab shown: the timeline's trace, the Runs folder, the graph's
// module, the loss logs; "" when the tab holds nothing yet.
std::string app_tab_title(const App& app);
// Builds one frame: ImGui widgets, and the timeline geometry in app->batch.
void app_frame(App* app, float width, float height, double now_ms);
// A protocol message from the engine.
void app_receive(App* app, const uint8_t* data, size_t n);
// The selected event's details arrived (JSON from the engine).
void app_details(App* app, int64_t event, const char* json);
// The engine's answer to a panel query.
void app_query_result(App* app, uint32_t id, const char* json);
// A file finished opening: kind is the engine's name for it ("chrome-json", "xplane", "hlo-text",
// "hlo-proto", "ascend-csv", "training-log"); memory_added: memory data added to the trace shown.
// Brings the tab that shows it to the front (a trace stays behind the tab shown).
void app_file_opened(App* app, const std::string& kind, bool memory_added);
// The Runs selection's profile is loaded for its Trace or Memory view: that tab comes forward.
void app_runs_profile_loaded(App* app);
// A profiler folder was discovered: the Runs tab comes forward when it holds runs.
void app_runs_folder_opened(App* app);
// Selects these events on the timeline (the graph's "Show in timeline") and searches `name`.
void app_select_events(App* app, const std::vector<uint32_t>& events, const char* name);

}  // namespace strata
