// The timeline: sections (processes) with tracks (threads, counters), rows by depth, a ruler,
// and the navigation of chrome://tracing / XProf (wheel and W/S zoom about the cursor, drag and
// A/D pan, click selects). Geometry goes into a RectBatch for our instanced shader; text and
// widgets are Dear ImGui.
#pragma once
#include <cstdint>
#include <vector>

#include "core/view/time_view.h"
#include "platform/gl/rect_renderer.h"
#include "ui/trace_data.h"

namespace strata {

// Keys the timeline reacts to, by KeyboardEvent.code (so W is the key at W's place on any
// keyboard layout). Filled by the platform's key handlers.
struct NavKeys {
  bool zoom_in = false, zoom_out = false, pan_left = false, pan_right = false;
  int zoom_in_presses = 0, zoom_out_presses = 0, pan_left_presses = 0, pan_right_presses = 0;
};

struct TimelineLayout {
  float x0 = 0, y0 = 0, w = 0, h = 0;   // events area, CSS px
  float label_w = 200;                  // track-name column left of the events area
  std::vector<float> track_y;           // per display track: top, relative to content
  std::vector<float> track_h;           // 0 when hidden (threads with no events)
  std::vector<float> process_y;         // per process: header top, relative to content
  float content_h = 0;
};

struct Timeline {
  TimeView view;
  ViewLimits limits;
  bool has_view = false;
  float scroll_y = 0;
  TimelineLayout layout;

  int64_t selected_event = -1;
  bool selection_changed = false;

  // Outstanding request to the engine.
  uint32_t next_request_id = 1;
  uint32_t in_flight_id = 0;
  double in_flight_since_ms = 0;

  // Mouse gesture in the events area.
  bool dragging = false;
  float drag_moved = 0;

  double last_frame_ms = 0;
  double key_held_ms[4] = {0, 0, 0, 0};
};

// Resets view and selection for a newly loaded trace.
void timeline_reset(Timeline* t, const TraceData& d);
// Draws the timeline in the region (x, y, w, h) CSS px, handles its input, and fills `batch`.
void timeline_frame(Timeline* t, const TraceData& d, NavKeys* keys, float x, float y, float w,
                    float h, double now_ms, RectBatch* batch);
// Sends a view request when the data on hand does not cover the view at its resolution.
// `send` posts the request bytes to the engine.
void timeline_request_data(Timeline* t, const TraceData& d, void (*send)(const void*, size_t));
// True when the latest reply covers the view at the current resolution and nothing is pending.
bool timeline_settled(const Timeline& t, const TraceData& d);
// Marks a reply as arrived.
void timeline_reply_arrived(Timeline* t, uint32_t request_id);
// Scrolls the tracks so that `event` (present in the latest reply) is on screen; false when
// the reply does not hold it.
bool timeline_reveal(Timeline* t, const TraceData& d, uint32_t event);
// Centre of a visible, unfolded event on screen (CSS px), or false.
bool timeline_locate(const Timeline& t, const TraceData& d, uint32_t event, float* x, float* y);
void timeline_set_view(Timeline* t, double start_rel, double end_rel);

}  // namespace strata
