#include "ui/timeline/timeline.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/types.h"
#include "imgui.h"
#include "ui/timeline/colors.h"
#include "ui/timeline/draw.h"
#include "ui/timeline/layout.h"
#include "ui/timeline/ruler.h"

namespace strata {

namespace {

// Requests cover the view plus half a view either side, so small pans need no new data.
constexpr double kOverscan = 0.5;
constexpr float kClickSlop = 4;  // px a press may move and still be a click

void handle_keys(Timeline* t, const TraceData& d, NavKeys* keys, bool hovered, float mouse_x, double dt_ms) {
  ImGuiIO& io = ImGui::GetIO();
  const double span = t->view.span();
  double anchor = hovered ? px_to_time(t->view, mouse_x - t->layout.x0, t->layout.w)
                          : (t->view.start + t->view.end) / 2;
  // Key presses act at once (one step each), held keys keep going smoothly.
  const double dt = std::min(dt_ms, 100.0) / 1000.0;
  const double speed = io.KeyShift ? 3.0 : 1.0;
  for (int i = 0; i < keys->zoom_in_presses; ++i) t->view = zoom_about(t->view, anchor, 0.8, t->limits);
  for (int i = 0; i < keys->zoom_out_presses; ++i) t->view = zoom_about(t->view, anchor, 1.25, t->limits);
  for (int i = 0; i < keys->pan_left_presses; ++i) t->view = pan_by(t->view, -0.1 * span * speed, t->limits);
  for (int i = 0; i < keys->pan_right_presses; ++i) t->view = pan_by(t->view, 0.1 * span * speed, t->limits);
  keys->zoom_in_presses = keys->zoom_out_presses = keys->pan_left_presses = keys->pan_right_presses = 0;
  bool held[4] = {keys->zoom_in, keys->zoom_out, keys->pan_left, keys->pan_right};
  for (int i = 0; i < 4; ++i) {
    t->key_held_ms[i] = held[i] ? t->key_held_ms[i] + dt_ms : 0;
    if (t->key_held_ms[i] < 150) continue;  // a tap is the press step alone
    switch (i) {
      case 0: t->view = zoom_about(t->view, anchor, std::pow(0.25, dt * speed), t->limits); break;
      case 1: t->view = zoom_about(t->view, anchor, std::pow(4.0, dt * speed), t->limits); break;
      case 2: t->view = pan_by(t->view, -t->view.span() * dt * speed, t->limits); break;
      case 3: t->view = pan_by(t->view, t->view.span() * dt * speed, t->limits); break;
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
  if (hovered && io.MouseWheelH != 0) t->view = pan_by(t->view, -io.MouseWheelH * 0.1 * span, t->limits);
}

// The slice under (mx, my), from the latest reply.
const proto::SliceEntry* hit_test(const Timeline& t, const TraceData& d, float mx, float my) {
  const proto::SliceEntry* best = nullptr;
  for (const proto::SliceEntry& s : d.reply.slices) {
    RowGeom g = track_geom(t, s.track);
    if (!g.visible) continue;
    float y0 = g.top + static_cast<float>(s.depth) * kRowH;
    if (my < y0 || my >= y0 + kRowH) continue;
    float x0 = to_x(t, s.start), x1 = std::max(to_x(t, s.end), x0 + 3.0f);
    if (mx >= x0 - 1 && mx <= x1 + 1) {
      best = &s;
      if (mx >= x0 && mx <= x1) break;  // exact hit beats a near one
    }
  }
  return best;
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
    auto it = std::find_if(t->selection.begin(), t->selection.end(), [&](const SelectedEvent& x) { return x.event == e.event; });
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
    auto row = [&](float y) { return static_cast<uint32_t>(std::clamp((y - top) / kRowH, 0.0f, static_cast<float>(d.tracks[i].rows - 1))); };
    t->region_rows.insert(t->region_rows.end(), {i, row(ya), row(yb)});
  }
  t->region_pending = !t->region_rows.empty();
}

void track_menu(Timeline* t, const TraceData& d, int track) {
  if (!ImGui::BeginPopup("##trackmenu")) return;
  if (track >= 0 && track < static_cast<int>(d.tracks.size())) {
    ImGui::TextDisabled("%s", d.tracks[track].name.c_str());
    if (ImGui::MenuItem(t->pinned[track] ? "Unpin" : "Pin to top of its section")) t->pinned[track] ^= 1;
    if (ImGui::MenuItem("Hide track")) t->hidden[track] = 1;
  }
  int hidden = 0;
  for (uint8_t h : t->hidden) hidden += h;
  if (ImGui::MenuItem("Show hidden tracks", nullptr, false, hidden > 0)) std::fill(t->hidden.begin(), t->hidden.end(), 0);
  ImGui::EndPopup();
}

}  // namespace

void timeline_reset(Timeline* t, const TraceData& d) {
  Timeline fresh;
  fresh.next_request_id = t->next_request_id;  // ids stay unique across traces
  fresh.tool = t->tool;
  fresh.show_grid = t->show_grid;
  fresh.show_flows = t->show_flows;
  *t = std::move(fresh);
  t->limits = limits_for_extent(d.extent_ns);
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
    for (const SelectedEvent& s : t->selection) *a = std::min(*a, s.start), *b = std::max(*b, s.end);
    return true;
  };
  double a, b;
  switch (c) {
    case Command::kToolSelect: t->tool = Tool::kSelect; break;
    case Command::kToolPan: t->tool = Tool::kPan; break;
    case Command::kToolZoom: t->tool = Tool::kZoom; break;
    case Command::kToolTiming: t->tool = Tool::kTiming; break;
    case Command::kZoomToSelection:
      if (selection_range(&a, &b) || (t->has_timing && ((a = std::min(t->timing_t0, t->timing_t1)), (b = std::max(t->timing_t0, t->timing_t1)), true))) {
        double pad = std::max((b - a) * 0.1, 50.0);
        timeline_set_view(t, a - pad, b + pad);
      }
      break;
    case Command::kMark:
      if (selection_range(&a, &b))
        t->marks.push_back({a, b});
      else if (t->has_timing)
        t->marks.push_back({std::min(t->timing_t0, t->timing_t1), std::max(t->timing_t0, t->timing_t1)});
      else
        t->marks.clear();  // `m` with nothing selected clears the marks
      break;
    case Command::kReset:
      t->view.start = 0;
      t->view.end = std::max(d.extent_ns, 1000.0);
      t->view = clamp_view(t->view, t->limits);
      t->scroll_y = 0;
      break;
    case Command::kGrid: t->show_grid = !t->show_grid; break;
    case Command::kHelp: t->show_help = !t->show_help; break;
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
    default: break;  // search commands belong to the search panel
  }
}

void timeline_frame(Timeline* t, const TraceData& d, NavKeys* keys, float x, float y, float w,
                    float h, double now_ms, RectBatch* batch) {
  const double dt_ms = t->last_frame_ms > 0 ? now_ms - t->last_frame_ms : 16;
  t->last_frame_ms = now_ms;
  TimelineLayout& L = t->layout;
  L.label_w = std::min(220.0f, w * 0.25f);
  L.x0 = x + L.label_w;
  L.y0 = y + kRulerH;
  L.w = std::max(1.0f, w - L.label_w);
  L.h = std::max(1.0f, h - kRulerH);
  compute_layout(t, d);
  t->scroll_y = std::clamp(t->scroll_y, 0.0f, std::max(0.0f, L.content_h - L.h * 0.5f));

  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin("##timeline", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGuiIO& io = ImGui::GetIO();

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
    t->drag_button = ImGui::IsMouseDown(ImGuiMouseButton_Left) ? 0 : ImGui::IsMouseDown(ImGuiMouseButton_Right) ? 1 : 2;
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
      if (t->drag_button == 0) click(t, d, io.MousePos.x, io.MousePos.y, keys->press_ctrl, keys->press_shift);
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
  const bool in_labels = io.MousePos.x >= x && io.MousePos.x < L.x0 && io.MousePos.y >= L.y0 &&
                         io.MousePos.y < L.y0 + L.h && ImGui::IsWindowHovered();
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
  if (t->show_grid) draw_ruler_grid(t->view, L.x0, L.y0, L.w, L.h, batch);
  if (d.reply.valid || d.overview.valid) {
    dl->PushClipRect(ImVec2(L.x0, L.y0), ImVec2(L.x0 + L.w, L.y0 + L.h), true);
    draw_counters(*t, d, batch);
    if (d.overview.valid && (d.reply.start > t->view.start || d.reply.end < t->view.end))
      draw_slices(*t, d, d.overview.slices, d.reply.start, d.reply.end, batch, dl);
    draw_slices(*t, d, d.reply.slices, 0, 0, batch, dl);
    if (t->show_flows) draw_flows(*t, d.reply.flows, dl, 0x90C8C8C8);
    draw_flows(*t, t->selected_flows, dl, 0xFF00D7FF);
    dl->PopClipRect();
  }
  draw_overlays(*t, dl, drag_x0, drag_y0, drag_x1, drag_y1, drag_is_range);
  draw_labels(t, d, x, dl);
  draw_ruler(t->view, L.x0, y, L.w, kRulerH, dl);
  if (hovered) {  // cursor line and time
    float mx = io.MousePos.x;
    dl->AddLine(ImVec2(mx, L.y0), ImVec2(mx, L.y0 + L.h), 0x60FFFFFF);
    double tm = px_to_time(t->view, mx - L.x0, L.w);
    std::string label = format_tick(tm, tick_step(t->view.span(), L.w, 2));
    ImVec2 sz = ImGui::CalcTextSize(label.c_str());
    ImVec2 at(mx + 4, L.y0 + 2);
    dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + sz.x + 2, at.y + sz.y + 1), 0xE0202020);
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

void timeline_request_data(Timeline* t, const TraceData& d, void (*send)(const void*, size_t)) {
  if (!d.loaded || !t->has_view) return;
  if (timeline_settled(*t, d)) return;
  if (t->in_flight_id != 0 && t->last_frame_ms - t->in_flight_since_ms < 500) return;
  const double span = t->view.span();
  struct {
    proto::Header h;
    proto::ViewRequestBody b;
  } msg{};
  msg.h = {proto::MsgType::kViewRequest, sizeof msg, d.generation, t->next_request_id++};
  msg.b.start = t->view.start - span * kOverscan;
  msg.b.end = t->view.end + span * kOverscan;
  msg.b.width_px = static_cast<uint32_t>(std::ceil(t->layout.w * (1 + 2 * kOverscan)));
  msg.b.flags = t->show_flows ? proto::kWantFlows : 0;
  t->in_flight_flags = msg.b.flags;
  t->in_flight_id = msg.h.request_id;
  t->in_flight_since_ms = t->last_frame_ms;
  send(&msg, sizeof msg);
}

bool timeline_settled(const Timeline& t, const TraceData& d) {
  const ViewReply& r = d.reply;
  if (!r.valid || r.width_px == 0) return false;
  if (t.reply_flags != (t.show_flows ? proto::kWantFlows : 0u)) return false;
  if (r.start > t.view.start + 1 || r.end < t.view.end - 1) return false;
  double have = (r.end - r.start) / r.width_px;
  double want = ns_per_px(t.view, t.layout.w);
  return have <= want * 1.5 && have >= want / 1.5;
}

void timeline_reply_arrived(Timeline* t, uint32_t request_id) {
  if (request_id != t->in_flight_id) return;
  t->in_flight_id = 0;
  t->reply_flags = t->in_flight_flags;
}

bool timeline_reveal(Timeline* t, const TraceData& d, uint32_t event) {
  for (const proto::SliceEntry& s : d.reply.slices) {
    if (s.event != event) continue;
    if (t->layout.track_h[s.track] <= 0) {  // in a collapsed section or hidden: show it
      t->hidden[s.track] = 0;
      for (size_t p = 0; p < d.processes.size(); ++p)
        if (s.track >= d.processes[p].first_track && s.track < d.processes[p].first_track + d.processes[p].track_count)
          t->collapsed[p] = 0;
      compute_layout(t, d);
    }
    float y = t->layout.track_y[s.track] + static_cast<float>(s.depth) * kRowH;
    float top = t->scroll_y, bottom = t->scroll_y + t->layout.h - kRowH;
    if (y < top || y > bottom) t->scroll_y = std::max(0.0f, y - t->layout.h / 2);
    return true;
  }
  return false;
}

bool timeline_locate(const Timeline& t, const TraceData& d, uint32_t event, float* x, float* y) {
  for (const proto::SliceEntry& s : d.reply.slices) {
    if (s.event != event) continue;
    RowGeom g = track_geom(t, s.track);
    if (!g.visible) return false;
    float x0 = std::max(to_x(t, s.start), t.layout.x0);
    float x1 = std::min(std::max(to_x(t, s.end), x0 + 1), t.layout.x0 + t.layout.w);
    if (x1 < x0) return false;
    *x = (x0 + x1) / 2;
    *y = g.top + static_cast<float>(s.depth) * kRowH + kRowH / 2;
    return *y >= t.layout.y0 && *y <= t.layout.y0 + t.layout.h;
  }
  return false;
}

}  // namespace strata
