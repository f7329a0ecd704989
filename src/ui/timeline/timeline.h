// The timeline: sections (processes) with tracks (threads, counters), rows by depth, a ruler,
// and the seed trace viewer's interaction model: W/S zoom about the cursor, A/D pan (shift =
// faster), tools 1-4 (select, pan, zoom, timing), click / ctrl-click / drag selection, `f` zoom
// to selection, `m` mark, `0` reset, `g` grid, `?` shortcuts. Geometry goes into a RectBatch
// for our instanced shader; text and widgets are Dear ImGui.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/view/time_view.h"
#include "platform/gl/rect_renderer.h"
#include "ui/input/keymap.h"
#include "ui/search/search_marks.h"
#include "ui/timeline/tiles.h"
#include "ui/trace_data.h"

namespace strata {

enum class Tool : uint8_t { kSelect = 1, kPan = 2, kZoom = 3, kTiming = 4 };

struct SelectedEvent {
  uint32_t event;
  double start, end;  // relative ns
};

struct TimelineLayout {
  float x0 = 0, y0 = 0, w = 0, h = 0;  // events area, CSS px
  float label_w = 200;                 // track-name column left of the events area
  float label_x = 0;                   // the column's left edge
  std::vector<float> track_y;          // per display track: top, relative to content
  std::vector<float> track_h;          // 0 when hidden or collapsed
  std::vector<float> process_y;        // per process: header top; < 0 when not shown
  float content_h = 0;
};

// What the engine said of the slice under the cursor (its details JSON, read for the tooltip).
struct HoverDetails {
  uint32_t event = 0xffffffffu;
  std::string cat;
  double self_ns = -1;                                    // < 0: not given (instants)
  std::vector<std::pair<std::string, std::string>> args;  // the first few, as written
};

// The tooltip drawn this frame, for the script API (strata.tooltip()).
struct TooltipState {
  std::string kind;  // "slice", "folded", "counter", "process", "track"; "" when none
  std::vector<std::string> lines;
};

// The ruler as drawn this frame (strata.ruler()): its tick labels and, at deep zoom, the base
// they count from.
struct RulerState {
  bool has_base = false;
  bool base_from_mark = false;
  double base = 0;        // relative ns
  std::string base_text;  // "1.234567891 s"
  double step = 0;        // ns between labelled ticks
  std::vector<std::string> labels;
};

// One name-column entry as drawn this frame (strata.trackHeaders()).
struct DrawnHeader {
  bool process = false;
  uint32_t index = 0;  // process or display track index
  float y = 0;         // CSS px of its text row
  std::string text;    // the full text
  std::string shown;   // what fitted ("..." at the end when cut)
};

struct Timeline {
  TimeView view;
  ViewLimits limits;
  bool has_view = false;
  float scroll_y = 0;
  TimelineLayout layout;

  Tool tool = Tool::kSelect;
  bool show_grid = true;
  bool show_help = false;
  bool show_flows = false;

  std::vector<uint8_t> collapsed;  // per process
  std::vector<uint8_t> pinned;     // per track: drawn in its process's first place
  std::vector<uint8_t> hidden;     // per track

  std::vector<SelectedEvent> selection;
  bool selection_changed = false;
  // Rows × time of the last drag selection (for the engine's region query).
  bool region_pending = false;
  double region_t0 = 0, region_t1 = 0;
  std::vector<uint32_t> region_rows;  // (track, depth_lo, depth_hi) triples, display indices

  std::vector<std::pair<double, double>> marks;  // `m`: marked ranges, relative ns
  bool has_timing = false;
  double timing_t0 = 0, timing_t1 = 0;  // timing tool interval, relative ns

  // Search highlight: names that match (by string id); empty = no search active.
  std::vector<uint8_t> name_match;
  bool search_active = false;
  SearchMarks search_marks;  // every match's tick in the ruler (ui/search/search_marks.h)

  // Flow arrows of the selected event (from its details), drawn whatever the toggle says.
  std::vector<proto::FlowEntry> selected_flows;

  // View data: tiles per zoom level (tiles.h), their requests in flight, and this frame's plan
  // of which tile draws which part of the view.
  uint32_t next_request_id = 1;
  TileCache tiles;
  std::vector<TileSegment> plan;
  std::vector<proto::FlowEntry> plan_flows;  // flow arrows of the planned tiles, de-duplicated

  // Mouse gesture in the events area.
  float drag_moved = 0;
  float press_x = 0, press_y = 0;
  int drag_button = -1;

  double last_frame_ms = 0;
  double key_held_ms[4] = {0, 0, 0, 0};

  // A second timeline beside the main one (the Compare tab's B) sets these each frame: the ImGui
  // window it draws in, and whether a hover asks the engine for details (B's event indices are
  // not the main engine's).
  const char* window_id = "##timeline";
  bool ask_hover_details = true;
  // The ruler and grid count time from here (relative ns of this view): the Compare tab's B
  // timeline counts in A's time, B's time minus the alignment's offset.
  double ruler_shift = 0;
  // Names outlined (by string id), whatever the search: the Compare tab's names on one side only.
  std::vector<uint8_t> name_outline;

  // The name column: its width as the user dragged it (0: the default share of the window),
  // the header texts of the current track list, and the entries drawn this frame.
  float label_w_user = 0;
  uint32_t header_generation = 0xffffffffu;
  std::vector<std::string> process_texts, track_texts;
  std::vector<DrawnHeader> drawn_headers;

  // Hover: the event under the cursor, the details asked for it (one request in flight at a
  // time; the latest wanted goes next) and the tooltip drawn.
  uint32_t hover_event = 0xffffffffu;
  uint32_t hover_in_flight = 0xffffffffu;
  double hover_sent_ms = 0;
  HoverDetails hover_details;
  TooltipState tooltip;
  RulerState ruler;
};

// Resets view, selection and layout state for a newly loaded trace.
void timeline_reset(Timeline* t, const TraceData& d);
// Draws the timeline in the region (x, y, w, h) CSS px, handles its input, fills `batch`.
void timeline_frame(Timeline* t, const TraceData& d, NavKeys* keys, float x, float y, float w,
                    float h, double now_ms, RectBatch* batch);
// Asks once per trace for the coarse whole-trace overview (see TraceData::overview).
void timeline_request_overview(Timeline* t, TraceData* d, void (*send)(const void*, size_t));
// Requests the tiles the view lacks at its level (and a margin tile either side), a few at a
// time, never one already in flight.
void timeline_request_data(Timeline* t, const TraceData& d, void (*send)(const void*, size_t));
// True when every tile the view wants is cached and nothing is in flight.
bool timeline_settled(const Timeline& t, const TraceData& d);
// A view reply arrived (now in d->reply): files it in the tile cache when it answers a tile.
void timeline_reply_arrived(Timeline* t, TraceData* d, uint32_t request_id);
// The tile level the current view draws at.
int timeline_tile_level(const Timeline& t);
bool timeline_reveal(Timeline* t, const TraceData& d, uint32_t event);
// Scrolls a row (track, depth) into view, opening its section and showing its track if needed.
// The layout must be current.
void timeline_scroll_to_row(Timeline* t, const TraceData& d, uint32_t track, uint32_t depth);
bool timeline_locate(const Timeline& t, const TraceData& d, uint32_t event, float* x, float* y);
void timeline_set_view(Timeline* t, double start_rel, double end_rel);
// Replaces the selection (one event) and brings it into view when `reveal_time`.
void timeline_select(Timeline* t, const SelectedEvent& e, bool reveal_time);
// Runs a command (keys and toolbar share this).
void timeline_command(Timeline* t, const TraceData& d, Command c);
// The toolbar row (tools, toggles) at (x, y), width w; returns its height.
float timeline_toolbar(Timeline* t, const TraceData& d, float x, float y, float w);
// Folded runs the view shows (from the tiles drawn), left to right per tile, at most `limit`.
std::vector<proto::SliceEntry> timeline_folded_runs(const Timeline& t, const TraceData& d,
                                                    size_t limit);
// The engine's details of a hovered event arrived (ui_set_hover_details).
void timeline_hover_details(Timeline* t, uint32_t event, const char* json);
// "Show N hidden" / "Clear marks" when there is something to show or clear, ending at `right`.
void timeline_toolbar_extras(Timeline* t, float right);

}  // namespace strata
