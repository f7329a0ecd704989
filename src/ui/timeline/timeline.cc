#include "ui/timeline/timeline.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "core/base/types.h"
#include "imgui.h"
#include "platform/browser/host.h"
#include "ui/timeline/colors.h"
#include "ui/timeline/draw.h"
#include "ui/timeline/headers.h"
#include "ui/timeline/hover.h"
#include "ui/timeline/layout.h"
#include "ui/timeline/ruler.h"

namespace strata {

namespace {

// Tile requests in flight at once: enough to keep the worker busy, few enough that a fast zoom
// does not queue up tiles for levels it has already left.
constexpr size_t kMaxTilesInFlight = 4;
// A tile request unanswered for this long may be sent again.
constexpr double kTileRetryMs = 3000;
constexpr size_t kMaxLate = 32;  // given-up requests whose answers are still welcome
constexpr float kClickSlop = 4;  // px a press may move and still be a click
// The name column: its default share of the window (at most kLabelDefaultW), the narrowest and
// widest share a drag may give it, and the grab zone of its right edge.
constexpr float kLabelDefaultW = 220;
constexpr float kLabelDefaultShare = 0.25f;
constexpr float kLabelMinW = 60;
constexpr float kLabelMaxShare = 0.7f;
constexpr float kSplitterGrab = 4;
// The narrowest window a zoom may reach: a few nanoseconds (events are whole ns, so below
// this a pixel shows nothing new).
constexpr double kMinViewSpanNs = 2;

void handle_keys(Timeline* t, const TraceData& d, NavKeys* keys, bool hovered, float mouse_x,
                 double dt_ms) {
  ImGuiIO& io = ImGui::GetIO();
  const double span = t->view.span();
  double anchor = hovered ? px_to_time(t->view, mouse_x - t->layout.x0, t->layout.w)
                          : (t->view.start + t->view.end) / 2;
  // Key presses act at once (one step each), held keys keep going smoothly.
  const double dt = std::min(dt_ms, 100.0) / 1000.0;
  const double speed = io.KeyShift ? 3.0 : 1.0;
  for (int i = 0; i < keys->zoom_in_presses; ++i)
    t->view = zoom_about(t->view, anchor, 0.8, t->limits);
  for (int i = 0; i < keys->zoom_out_presses; ++i)
    t->view = zoom_about(t->view, anchor, 1.25, t->limits);
  for (int i = 0; i < keys->pan_left_presses; ++i)
    t->view = pan_by(t->view, -0.1 * span * speed, t->limits);
  for (int i = 0; i < keys->pan_right_presses; ++i)
    t->view = pan_by(t->view, 0.1 * span * speed, t->limits);
  keys->zoom_in_presses = keys->zoom_out_presses = keys->pan_left_presses =
      keys->pan_right_presses = 0;
  bool held[4] = {keys->zoom_in, keys->zoom_out, keys->pan_left, keys->pan_right};
  for (int i = 0; i < 4; ++i) {
    t->key_held_ms[i] = held[i] ? t->key_held_ms[i] + dt_ms : 0;
    if (t->key_held_ms[i] < 150) continue;  // a tap is the press step alone
    switch (i) {
      case 0:
        t->view = zoom_about(t->view, anchor, std::pow(0.25, dt * speed), t->limits);
        break;
      case 1:
        t->view = zoom_about(t->view, anchor, std::pow(4.0, dt * speed), t->limits);
        break;
      case 2:
        t->view = pan_by(t->view, -t->view.span() * dt * speed, t->limits);
        break;
      case 3:
        t->view = pan_by(t->view, t->view.span() * dt * speed, t->limits);
        break;
    }
  }
  for (Command c : keys->commands) timeline_command(t, d, c);
  keys->commands.clear();
  if (hovered && io.MouseWheel != 0) {
    if (io.KeyShift)
      t->scroll_y -= io.MouseWheel * 60;
    else
      t->view = zoom_about(t->view, anchor, std::pow(0.85, io.MouseWheel), t->limits);
  }
  if (hovered && io.MouseWheelH != 0)
    t->view = pan_by(t->view, -io.MouseWheelH * 0.1 * span, t->limits);
}

// Calls f(slice) for the slices of the tiles (or the overview) that draw the view, each within
// its part of the view, until f returns true. Pointers stay valid until the tile cache changes.
template <typename F>
void visit_view_slices(const Timeline& t, const TraceData& d, F f) {
  std::vector<TileSegment> plan;
  plan_tiles(t.tiles, timeline_tile_level(t), t.view.start, t.view.end, &plan);
  for (const TileSegment& g : plan) {
    const ViewReply* v = g.tile ? &g.tile->data : d.overview.valid ? &d.overview : nullptr;
    if (!v) continue;
    for (const proto::SliceEntry& s : v->slices) {
      if (s.end < g.a || s.start > g.b) continue;
      if (f(s)) return;
    }
  }
}

// The slice under (mx, my), from the tiles on screen.
const proto::SliceEntry* hit_test(const Timeline& t, const TraceData& d, float mx, float my) {
  const proto::SliceEntry* best = nullptr;
  visit_view_slices(t, d, [&](const proto::SliceEntry& s) {
    RowGeom g = track_geom(t, s.track);
    if (!g.visible) return false;
    float y0 = g.top + static_cast<float>(s.depth) * kRowH;
    if (my < y0 || my >= y0 + kRowH) return false;
    float x0 = to_x(t, s.start), x1 = std::max(to_x(t, s.end), x0 + 3.0f);
    if (mx >= x0 - 1 && mx <= x1 + 1) {
      best = &s;
      return mx >= x0 && mx <= x1;  // exact hit beats a near one
    }
    return false;
  });
  return best;
}

// Draws the view from its tiles: each segment from its tile (or the overview), counters and
// slices clipped to the segment; a slice crossing into the next tile of the same level is
// drawn once, whole, so its label is not cut at tile edges.
void draw_tiles(Timeline* t, const TraceData& d, RectBatch* batch, ImDrawList* dl) {
  std::vector<TileSegment>& plan = t->plan;
  plan_tiles(t->tiles, timeline_tile_level(*t), t->view.start, t->view.end, &plan);
  auto data_of = [&](const TileSegment& g) {
    return g.tile ? &g.tile->data : d.overview.valid ? &d.overview : nullptr;
  };
  for (const TileSegment& g : plan) {
    if (g.tile) tile_touch(&t->tiles, g.key);
    if (const ViewReply* v = data_of(g)) draw_counters(*t, d, v->buckets, g.a, g.b, batch);
  }
  double run_from = -1e300;  // where the current run of same-level segments began
  for (size_t i = 0; i < plan.size(); ++i) {
    const TileSegment& g = plan[i];
    const bool first_of_run = i == 0 || plan[i - 1].level != g.level;
    if (first_of_run && i > 0) run_from = g.a;
    const double skip_from = first_of_run ? g.a : run_from;
    const double right = i + 1 < plan.size() && plan[i + 1].level != g.level ? g.b : 1e300;
    if (const ViewReply* v = data_of(g))
      draw_slices(*t, d, v->slices, g.a, g.b, skip_from, right, batch, dl);
  }
  if (t->show_flows) {  // an arrow between two tiles comes with both: draw it once
    t->plan_flows.clear();
    for (const TileSegment& g : plan)
      if (g.tile)
        t->plan_flows.insert(t->plan_flows.end(), g.tile->data.flows.begin(),
                             g.tile->data.flows.end());
    auto key = [](const proto::FlowEntry& f) {
      return (uint64_t(f.from_event) << 32) | f.to_event;
    };
    std::sort(
        t->plan_flows.begin(), t->plan_flows.end(),
        [&](const proto::FlowEntry& x, const proto::FlowEntry& y) { return key(x) < key(y); });
    t->plan_flows.erase(std::unique(t->plan_flows.begin(), t->plan_flows.end(),
                                    [&](const proto::FlowEntry& x, const proto::FlowEntry& y) {
                                      return key(x) == key(y);
                                    }),
                        t->plan_flows.end());
    draw_flows(*t, t->plan_flows, dl, theme::kFlow);
  }
}

void click(Timeline* t, const TraceData& d, float mx, float my, bool ctrl, bool shift) {
  const double at = px_to_time(t->view, mx - t->layout.x0, t->layout.w);
  if (t->tool == Tool::kZoom) {
    t->view = zoom_about(t->view, at, shift ? 2.0 : 0.5, t->limits);
    return;
  }
  if (t->tool == Tool::kTiming) {
    t->has_timing = false;
    return;
  }
  const proto::SliceEntry* s = hit_test(*t, d, mx, my);
  if (s && s->event == kNone) {  // a folded run: zoom into it
    double pad = (s->end - s->start) * 0.1 + 1;
    timeline_set_view(t, s->start - pad, s->end + pad);
    return;
  }
  if (!s) {
    if (!ctrl && !t->selection.empty()) {
      t->selection.clear();
      t->selection_changed = true;
    }
    return;
  }
  SelectedEvent e{s->event, s->start, s->end};
  if (ctrl) {  // ctrl-click (cmd-click) adds or removes one event
    auto it = std::find_if(t->selection.begin(), t->selection.end(),
                           [&](const SelectedEvent& x) { return x.event == e.event; });
    if (it != t->selection.end())
      t->selection.erase(it);
    else
      t->selection.push_back(e);
  } else {
    t->selection.assign(1, e);
  }
  t->selection_changed = true;
}

// A drag in the select tool: every row the rectangle touches, over its time range.
void region_select(Timeline* t, const TraceData& d, float x0, float y0, float x1, float y1) {
  const TimelineLayout& L = t->layout;
  t->region_t0 = px_to_time(t->view, std::min(x0, x1) - L.x0, L.w);
  t->region_t1 = px_to_time(t->view, std::max(x0, x1) - L.x0, L.w);
  t->region_rows.clear();
  const float ya = std::min(y0, y1), yb = std::max(y0, y1);
  for (uint32_t i = 0; i < d.tracks.size(); ++i) {
    if (L.track_h[i] <= 0 || d.tracks[i].kind == 1) continue;
    float top = L.y0 - t->scroll_y + L.track_y[i];
    float bottom = top + static_cast<float>(d.tracks[i].rows) * kRowH;
    if (bottom < ya || top > yb) continue;
    auto row = [&](float y) {
      return static_cast<uint32_t>(
          std::clamp((y - top) / kRowH, 0.0f, static_cast<float>(d.tracks[i].rows - 1)));
    };
    t->region_rows.insert(t->region_rows.end(), {i, row(ya), row(yb)});
  }
  t->region_pending = !t->region_rows.empty();
}

void track_menu(Timeline* t, const TraceData& d, int track) {
  if (!ImGui::BeginPopup("##trackmenu")) return;
  if (track >= 0 && track < static_cast<int>(d.tracks.size())) {
    ImGui::TextDisabled("%s", d.tracks[track].name.c_str());
    if (ImGui::MenuItem(t->pinned[track] ? "Unpin" : "Pin to top of its section"))
      t->pinned[track] ^= 1;
    if (ImGui::MenuItem("Hide track")) t->hidden[track] = 1;
  }
  int hidden = 0;
  for (uint8_t h : t->hidden) hidden += h;
  if (ImGui::MenuItem("Show hidden tracks", nullptr, false, hidden > 0))
    std::fill(t->hidden.begin(), t->hidden.end(), 0);
  ImGui::EndPopup();
}

// The full text of the name-column entry under y (process: its pid and labels too).
void label_tooltip(Timeline* t, const TraceData& d, float my) {
  TooltipState& tip = t->tooltip;
  int p = process_header_at(*t, d, my);
  uint32_t track, depth;
  if (p >= 0) {
    const UiProcess& pr = d.processes[p];
    tip.kind = "process";
    tip.lines.push_back(t->process_texts[p]);
    if (!pr.name.empty()) tip.lines.push_back("Name: " + pr.name);
    tip.lines.push_back("pid: " + (pr.key.empty() ? std::to_string(pr.pid) : pr.key));
    if (!pr.labels.empty()) tip.lines.push_back("Labels: " + pr.labels);
  } else if (row_at(*t, d, my, &track, &depth)) {
    const UiTrack& tr = d.tracks[track];
    tip.kind = "track";
    tip.lines.push_back(t->track_texts[track]);
    if (tr.kind == 0) tip.lines.push_back("tid: " + std::to_string(tr.tid));
    if (tr.process < t->process_texts.size())
      tip.lines.push_back("Process: " + t->process_texts[tr.process]);
  } else {
    return;
  }
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(tip.lines[0].c_str());
  for (size_t i = 1; i < tip.lines.size(); ++i) ImGui::TextDisabled("%s", tip.lines[i].c_str());
  ImGui::EndTooltip();
}

}  // namespace

void timeline_reset(Timeline* t, const TraceData& d) {
  Timeline fresh;
  fresh.next_request_id = t->next_request_id;  // ids stay unique across traces
  fresh.tool = t->tool;
  fresh.show_grid = t->show_grid;
  fresh.show_flows = t->show_flows;
  fresh.label_w_user = t->label_w_user;  // the column keeps the width the user gave it
  *t = std::move(fresh);
  t->limits = limits_for_extent(d.extent_ns);
  t->limits.min_span = kMinViewSpanNs;
  t->view.origin = d.origin_ns;
  t->view.start = 0;
  t->view.end = std::max(d.extent_ns, 1000.0);
  t->view = clamp_view(t->view, t->limits);
  t->has_view = true;
}

void timeline_set_view(Timeline* t, double start_rel, double end_rel) {
  if (!(end_rel > start_rel)) return;
  t->view.start = start_rel;
  t->view.end = end_rel;
  t->view = clamp_view(t->view, t->limits);
}

void timeline_select(Timeline* t, const SelectedEvent& e, bool reveal_time) {
  t->selection.assign(1, e);
  t->selection_changed = true;
  if (!reveal_time) return;
  // Bring it into view, wide enough to see: keep the zoom when it already shows the event at a
  // few pixels or more, else zoom so that it takes about a twentieth of the view.
  const double dur = std::max(e.end - e.start, 1.0);
  const double px = dur / ns_per_px(t->view, t->layout.w);
  const bool inside = e.start >= t->view.start && e.end <= t->view.end;
  if (inside && px >= 4) return;
  double span = px >= 4 ? std::max(t->view.span(), dur * 1.5) : dur * 20;
  double c = (e.start + e.end) / 2;
  timeline_set_view(t, c - span / 2, c + span / 2);
}

void timeline_command(Timeline* t, const TraceData& d, Command c) {
  auto selection_range = [&](double* a, double* b) {
    if (t->selection.empty()) return false;
    *a = t->selection[0].start, *b = t->selection[0].end;
    for (const SelectedEvent& s : t->selection)
      *a = std::min(*a, s.start), *b = std::max(*b, s.end);
    return true;
  };
  double a, b;
  switch (c) {
    case Command::kToolSelect:
      t->tool = Tool::kSelect;
      break;
    case Command::kToolPan:
      t->tool = Tool::kPan;
      break;
    case Command::kToolZoom:
      t->tool = Tool::kZoom;
      break;
    case Command::kToolTiming:
      t->tool = Tool::kTiming;
      break;
    case Command::kZoomToSelection:
      if (selection_range(&a, &b) ||
          (t->has_timing && ((a = std::min(t->timing_t0, t->timing_t1)),
                             (b = std::max(t->timing_t0, t->timing_t1)), true))) {
        double pad = std::max((b - a) * 0.1, 50.0);
        timeline_set_view(t, a - pad, b + pad);
      }
      break;
    case Command::kMark:
      if (selection_range(&a, &b))
        t->marks.push_back({a, b});
      else if (t->has_timing)
        t->marks.push_back(
            {std::min(t->timing_t0, t->timing_t1), std::max(t->timing_t0, t->timing_t1)});
      else
        t->marks.clear();  // `m` with nothing selected clears the marks
      break;
    case Command::kReset:
      t->view.start = 0;
      t->view.end = std::max(d.extent_ns, 1000.0);
      t->view = clamp_view(t->view, t->limits);
      t->scroll_y = 0;
      break;
    case Command::kGrid:
      t->show_grid = !t->show_grid;
      break;
    case Command::kHelp:
      t->show_help = !t->show_help;
      break;
    case Command::kEscape:
      if (t->show_help) {
        t->show_help = false;
        break;
      }
      t->has_timing = false;
      if (!t->selection.empty()) {
        t->selection.clear();
        t->selection_changed = true;
      }
      break;
    default:
      break;  // search commands belong to the search panel
  }
}

void timeline_frame(Timeline* t, const TraceData& d, NavKeys* keys, float x, float y, float w,
                    float h, double now_ms, RectBatch* batch) {
  const double dt_ms = t->last_frame_ms > 0 ? now_ms - t->last_frame_ms : 16;
  t->last_frame_ms = now_ms;
  TimelineLayout& L = t->layout;
  L.label_w = t->label_w_user > 0 ? std::clamp(t->label_w_user, kLabelMinW,
                                               std::max(kLabelMinW, w * kLabelMaxShare))
                                  : std::min(kLabelDefaultW, w * kLabelDefaultShare);
  L.label_x = x;
  L.x0 = x + L.label_w;
  L.y0 = y + kRulerH;
  L.w = std::max(1.0f, w - L.label_w);
  L.h = std::max(1.0f, h - kRulerH);
  compute_layout(t, d);
  t->scroll_y = std::clamp(t->scroll_y, 0.0f, std::max(0.0f, L.content_h - L.h * 0.5f));

  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin(t->window_id, nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGuiIO& io = ImGui::GetIO();
  t->tooltip = TooltipState{};
  if (t->header_generation != d.generation || t->process_texts.size() != d.processes.size() ||
      t->track_texts.size() != d.tracks.size()) {
    t->process_texts = process_header_texts(d);
    t->track_texts = track_label_texts(d);
    t->header_generation = d.generation;
  }

  // The name column's right edge: drag to resize, double-click for the default width. Submitted
  // before the events area so that it takes the mouse where the two meet.
  ImGui::SetCursorScreenPos(ImVec2(L.x0 - kSplitterGrab, y));
  ImGui::InvisibleButton("##labelsplit", ImVec2(kSplitterGrab * 1.5f, h));
  if (ImGui::IsItemHovered() || ImGui::IsItemActive())
    ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  if (ImGui::IsItemActive() && io.MouseDelta.x != 0)
    t->label_w_user =
        std::clamp(io.MousePos.x - x, kLabelMinW, std::max(kLabelMinW, w * kLabelMaxShare));
  if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
    t->label_w_user = 0;
  const bool splitter_active = ImGui::IsItemActive() || ImGui::IsItemHovered();
  if (ImGui::IsItemActive() || ImGui::IsItemHovered())
    dl->AddLine(ImVec2(L.x0 - 1, y), ImVec2(L.x0 - 1, y + h), theme::kCursorStrong, 2);

  // The events area is one invisible button: ImGui then tells us hover/drag/click, and any
  // popup or window above it takes the mouse first.
  ImGui::SetCursorScreenPos(ImVec2(L.x0, L.y0));
  ImGui::InvisibleButton("##events", ImVec2(L.w, L.h),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  const bool hovered = ImGui::IsItemHovered();
  float drag_x0 = -1, drag_y0 = 0, drag_x1 = 0, drag_y1 = 0;
  bool drag_is_range = false;
  if (ImGui::IsItemActivated()) {
    t->drag_moved = 0;
    t->press_x = io.MousePos.x;
    t->press_y = io.MousePos.y;
    t->drag_button = ImGui::IsMouseDown(ImGuiMouseButton_Left)    ? 0
                     : ImGui::IsMouseDown(ImGuiMouseButton_Right) ? 1
                                                                  : 2;
  }
  if (ImGui::IsItemActive() && !ImGui::IsItemActivated()) {
    // Not on the press frame itself: the motion that brought the cursor there is not a drag.
    ImVec2 dd = io.MouseDelta;
    t->drag_moved += std::fabs(dd.x) + std::fabs(dd.y);
    const bool pan = t->drag_button != 0 || t->tool == Tool::kPan;
    if (pan) {
      if (dd.x != 0) t->view = pan_by(t->view, -dd.x * ns_per_px(t->view, L.w), t->limits);
      t->scroll_y -= dd.y;
    } else if (t->drag_moved >= kClickSlop) {
      drag_x0 = t->press_x, drag_y0 = t->press_y, drag_x1 = io.MousePos.x, drag_y1 = io.MousePos.y;
      drag_is_range = t->tool != Tool::kSelect;
      if (t->tool == Tool::kTiming) {
        t->has_timing = true;
        t->timing_t0 = px_to_time(t->view, t->press_x - L.x0, L.w);
        t->timing_t1 = px_to_time(t->view, io.MousePos.x - L.x0, L.w);
      }
    }
  }
  if (ImGui::IsItemDeactivated()) {
    const bool pan = t->drag_button != 0 || t->tool == Tool::kPan;
    if (t->drag_moved < kClickSlop) {
      if (t->drag_button == 0)
        click(t, d, io.MousePos.x, io.MousePos.y, keys->press_ctrl, keys->press_shift);
    } else if (!pan && t->tool == Tool::kSelect) {
      region_select(t, d, t->press_x, t->press_y, io.MousePos.x, io.MousePos.y);
    } else if (!pan && t->tool == Tool::kZoom) {
      double a = px_to_time(t->view, std::min(t->press_x, io.MousePos.x) - L.x0, L.w);
      double b = px_to_time(t->view, std::max(t->press_x, io.MousePos.x) - L.x0, L.w);
      timeline_set_view(t, a, b);
    }
    t->drag_button = -1;
  }

  // The name column: click a section header to collapse it; right-click a track for its menu.
  static int menu_track = -1;
  const bool in_labels = io.MousePos.x >= x && io.MousePos.x < L.x0 - kSplitterGrab &&
                         io.MousePos.y >= L.y0 && io.MousePos.y < L.y0 + L.h &&
                         ImGui::IsWindowHovered() && !splitter_active;
  if (in_labels && io.MouseWheel != 0) t->scroll_y -= io.MouseWheel * 60;
  if (in_labels && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    int p = process_header_at(*t, d, io.MousePos.y);
    if (p >= 0) t->collapsed[p] ^= 1;
  }
  if (in_labels && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    uint32_t tr, depth;
    menu_track = row_at(*t, d, io.MousePos.y, &tr, &depth) ? static_cast<int>(tr) : -1;
    ImGui::OpenPopup("##trackmenu");
  }
  track_menu(t, d, menu_track);

  if (!io.WantTextInput) handle_keys(t, d, keys, hovered, io.MousePos.x, dt_ms);

  batch->clip[0] = L.x0;
  batch->clip[1] = L.y0;
  batch->clip[2] = L.w;
  batch->clip[3] = L.h;
  draw_backgrounds(*t, d, batch);
  if (t->show_grid) {
    TimeView counted = t->view;  // the ruler's time (ruler_shift)
    counted.start -= t->ruler_shift;
    counted.end -= t->ruler_shift;
    draw_ruler_grid(counted, L.x0, L.y0, L.w, L.h, batch);
  }
  dl->PushClipRect(ImVec2(L.x0, L.y0), ImVec2(L.x0 + L.w, L.y0 + L.h), true);
  draw_tiles(t, d, batch, dl);
  draw_counter_scales(*t, d, dl);
  draw_flows(*t, t->selected_flows, dl, theme::kSelection);
  dl->PopClipRect();
  draw_overlays(*t, dl, drag_x0, drag_y0, drag_x1, drag_y1, drag_is_range);
  draw_labels(t, d, x, dl);
  draw_ruler(t, L.x0, y, L.w, kRulerH, dl);
  draw_search_marks(&t->search_marks, t->view, L.x0, y, L.w, kRulerH, dl);
  if (in_labels && !ImGui::IsPopupOpen("##trackmenu")) label_tooltip(t, d, io.MousePos.y);
  if (hovered && t->drag_button < 0)
    timeline_hover_tooltip(t, d, io.MousePos.x, io.MousePos.y, true,
                           hit_test(*t, d, io.MousePos.x, io.MousePos.y));
  else
    t->hover_event = kNone;
  if (hovered) {  // cursor line and time
    float mx = io.MousePos.x;
    dl->AddLine(ImVec2(mx, L.y0), ImVec2(mx, L.y0 + L.h), theme::kCursorLine);
    double tm = px_to_time(t->view, mx - L.x0, L.w);
    std::string label =
        ruler_time_label(*t, tm - t->ruler_shift, tick_step(t->view.span(), L.w, 2));
    ImVec2 sz = ImGui::CalcTextSize(label.c_str());
    ImVec2 at(mx + 4, L.y0 + 2);
    dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + sz.x + 2, at.y + sz.y + 1),
                      theme::kLabelBg);
    dl->AddText(at, theme::kText, label.c_str());
  }
  ImGui::End();
}

void timeline_request_overview(Timeline* t, TraceData* d, void (*send)(const void*, size_t)) {
  if (!d->loaded || d->overview_request != 0) return;
  struct {
    proto::Header h;
    proto::ViewRequestBody b;
  } msg{};
  msg.h = {proto::MsgType::kViewRequest, sizeof msg, d->generation, t->next_request_id++};
  msg.b.start = t->limits.min_time;
  msg.b.end = t->limits.max_time;
  msg.b.width_px = 2048;
  d->overview_request = msg.h.request_id;
  send(&msg, sizeof msg);
}

int timeline_tile_level(const Timeline& t) {
  return tile_level_for(ns_per_px(t.view, std::max(t.layout.w, 1.0f)));
}

void timeline_request_data(Timeline* t, const TraceData& d, void (*send)(const void*, size_t)) {
  if (!d.loaded || !t->has_view || t->layout.w < 2) return;
  // The hovered event's details for its tooltip: one request at a time, the latest wanted next.
  if (t->hover_in_flight != kNone && t->last_frame_ms - t->hover_sent_ms > kTileRetryMs)
    t->hover_in_flight = kNone;  // never answered (no details for it): stop waiting
  if (t->ask_hover_details && t->hover_event != kNone && t->hover_in_flight == kNone &&
      t->hover_details.event != t->hover_event) {
    t->hover_in_flight = t->hover_event;
    t->hover_sent_ms = t->last_frame_ms;
    host_request_hover_details(t->hover_event);
  }
  TileCache& c = t->tiles;
  // Unanswered for too long (the worker was busy loading, or a message got lost): ask again.
  const double now = t->last_frame_ms;
  for (size_t i = 0; i < c.in_flight.size();) {
    if (now - c.in_flight[i].sent_ms <= kTileRetryMs) {
      ++i;
      continue;
    }
    if (c.late.size() >= kMaxLate) c.late.erase(c.late.begin());
    c.late.push_back(c.in_flight[i]);
    c.in_flight.erase(c.in_flight.begin() + static_cast<std::ptrdiff_t>(i));
  }
  const int level = timeline_tile_level(*t);
  // Hits and misses: each tile that comes into view at the view's level, cached or not.
  std::vector<TileKey> visible;
  tiles_covering(level, t->view.start, t->view.end, &visible);
  if (visible != c.last_visible) {
    for (const TileKey& k : visible) {
      if (std::find(c.last_visible.begin(), c.last_visible.end(), k) != c.last_visible.end())
        continue;
      if (tile_find(c, k))
        ++c.hits;
      else
        ++c.misses;
    }
    c.last_visible = visible;
  }
  if (c.in_flight.size() >= kMaxTilesInFlight) return;
  const uint32_t flags = t->show_flows ? proto::kWantFlows : 0;
  std::vector<TileKey> wanted;
  tiles_wanted(c, level, t->view.start, t->view.end, t->limits.min_time, t->limits.max_time, flags,
               &wanted);
  for (const TileKey& k : wanted) {
    if (c.in_flight.size() >= kMaxTilesInFlight) break;
    // A tile request is a view request for the tile's range at the tile's width.
    struct {
      proto::Header h;
      proto::ViewRequestBody b;
    } msg{};
    msg.h = {proto::MsgType::kViewRequest, sizeof msg, d.generation, t->next_request_id++};
    msg.b.start = tile_start(k);
    msg.b.end = tile_end(k);
    msg.b.width_px = kTilePx;
    msg.b.flags = flags;
    c.in_flight.push_back({msg.h.request_id, k, flags, now});
    ++c.requests;
    send(&msg, sizeof msg);
  }
}

bool timeline_settled(const Timeline& t, const TraceData& d) {
  if (!d.loaded || !t.has_view || t.layout.w < 2 || !t.tiles.in_flight.empty()) return false;
  std::vector<TileKey> wanted;
  tiles_wanted(t.tiles, timeline_tile_level(t), t.view.start, t.view.end, t.limits.min_time,
               t.limits.max_time, t.show_flows ? proto::kWantFlows : 0, &wanted);
  return wanted.empty();
}

void timeline_reply_arrived(Timeline* t, TraceData* d, uint32_t request_id) {
  TileCache& c = t->tiles;
  auto answered = [&](const TileRequest& r) { return r.id == request_id; };
  std::vector<TileRequest>* from = &c.in_flight;
  auto it = std::find_if(from->begin(), from->end(), answered);
  if (it == from->end()) {
    from = &c.late;
    it = std::find_if(from->begin(), from->end(), answered);
    if (it == from->end()) return;  // the overview
  }
  const TileRequest r = *it;
  from->erase(it);
  if (!d->reply.valid || d->reply.request_id != request_id) return;
  tile_insert(&c, r.key, r.flags, std::move(d->reply));
  d->reply = ViewReply{};
}

bool timeline_reveal(Timeline* t, const TraceData& d, uint32_t event) {
  proto::SliceEntry found{};
  bool have = false;
  visit_view_slices(*t, d, [&](const proto::SliceEntry& s) {
    if (s.event != event) return false;
    found = s;
    return have = true;
  });
  if (have) timeline_scroll_to_row(t, d, found.track, found.depth);
  return have;
}

void timeline_scroll_to_row(Timeline* t, const TraceData& d, uint32_t track, uint32_t depth) {
  if (t->layout.track_h[track] <= 0) {  // in a collapsed section or hidden: show it
    t->hidden[track] = 0;
    for (size_t p = 0; p < d.processes.size(); ++p)
      if (track >= d.processes[p].first_track &&
          track < d.processes[p].first_track + d.processes[p].track_count)
        t->collapsed[p] = 0;
    compute_layout(t, d);
  }
  float y = t->layout.track_y[track] + static_cast<float>(depth) * kRowH;
  float top = t->scroll_y, bottom = t->scroll_y + t->layout.h - kRowH;
  if (y < top || y > bottom) t->scroll_y = std::max(0.0f, y - t->layout.h / 2);
}

std::vector<proto::SliceEntry> timeline_folded_runs(const Timeline& t, const TraceData& d,
                                                    size_t limit) {
  std::vector<proto::SliceEntry> out;
  visit_view_slices(t, d, [&](const proto::SliceEntry& s) {
    if (s.event == kNone) out.push_back(s);
    return out.size() >= limit;
  });
  return out;
}

bool timeline_locate(const Timeline& t, const TraceData& d, uint32_t event, float* x, float* y) {
  proto::SliceEntry s{};
  bool have = false;
  visit_view_slices(t, d, [&](const proto::SliceEntry& e) {
    if (e.event != event) return false;
    s = e;
    return have = true;
  });
  if (!have) return false;
  RowGeom g = track_geom(t, s.track);
  if (!g.visible) return false;
  float x0 = std::max(to_x(t, s.start), t.layout.x0);
  float x1 = std::min(std::max(to_x(t, s.end), x0 + 1), t.layout.x0 + t.layout.w);
  if (x1 < x0) return false;
  *x = (x0 + x1) / 2;
  *y = g.top + static_cast<float>(s.depth) * kRowH + kRowH / 2;
  return *y >= t.layout.y0 && *y <= t.layout.y0 + t.layout.h;
}

}  // namespace strata
