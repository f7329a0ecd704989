// The UI application state and its frame: top bar (open, file, progress, errors), the timeline
// and the details pane. One instance lives in the UI module; web/strata.js feeds it engine
// messages and load progress through the exports in src/ui/main.cc.
#pragma once
#include <string>

#include "platform/gl/rect_renderer.h"
#include "ui/details/details_pane.h"
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

struct App {
  TraceData data;
  Timeline timeline;
  NavKeys keys;
  DetailsPane details;
  LoadProgress progress;
  std::string file_label;    // "name · 12.3 MB · 45,678 events"
  std::string error_banner;  // the last load error, until dismissed
  RectBatch batch;
  double last_frame_ms = 0;
  double frame_cpu_ms = 0;   // CPU time spent building the last frame
};

// Builds one frame: ImGui widgets, and the timeline geometry in app->batch.
void app_frame(App* app, float width, float height, double now_ms);
// A protocol message from the engine.
void app_receive(App* app, const uint8_t* data, size_t n);

}  // namespace strata
