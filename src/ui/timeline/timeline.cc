#include "ui/timeline/timeline.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/types.h"
#include "imgui.h"
#include "ui/timeline/colors.h"
#include "ui/timeline/ruler.h"

namespace strata {

namespace {

constexpr float kRowH = 18.0f;
constexpr float kTrackPad = 4.0f;
constexpr float kProcessHeaderH = 22.0f;
constexpr float kCounterH = 44.0f;
constexpr float kRulerH = 26.0f;
// Requests cover the view plus half a view either side, so small pans need no new data.
constexpr double kOverscan = 0.5;

void compute_layout(Timeline* t, const TraceData& d) {
  TimelineLayout& L = t->layout;
  L.track_y.assign(d.tracks.size(), 0);
  L.track_h.assign(d.tracks.size(), 0);
  L.process_y.assign(d.processes.size(), 0);
  float y = 0;
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const UiProcess& pr = d.processes[p];
    float start = y;
    y += kProcessHeaderH;
    bool any = false;
    for (uint32_t i = pr.first_track; i < pr.first_track + pr.track_count && i < d.tracks.size(); ++i) {
      const UiTrack& tr = d.tracks[i];
      float h = 0;
      if (tr.kind == 1)
        h = kCounterH;
      else if (tr.event_count > 0)
        h = static_cast<float>(tr.rows) * kRowH + kTrackPad;
      L.track_y[i] = y;
      L.track_h[i] = h;
      y += h;
      any |= h > 0;
    }
    if (!any) y = start;  // a process with nothing to draw takes no space
    L.process_y[p] = any ? start : -1;
  }
  L.content_h = y;
}

double ns_per_px(const TimeView& v, float w) { return v.span() / std::max(1.0f, w); }

// Where a reply's row geometry lands on screen.
struct RowGeom {
  float top;     // CSS px of the track's first row
  bool visible;  // track intersects the events area
};

RowGeom track_geom(const Timeline& t, uint32_t track) {
  const TimelineLayout& L = t.layout;
  float top = L.y0 - t.scroll_y + L.track_y[track];
  bool vis = L.track_h[track] > 0 && top + L.track_h[track] >= L.y0 && top <= L.y0 + L.h;
  return {top, vis};
}

float to_x(const Timeline& t, double rel) {
  double px = time_to_px(t.view, rel, t.layout.w);
  px = std::clamp(px, -10.0, static_cast<double>(t.layout.w) + 10.0);
  return t.layout.x0 + static_cast<float>(px);
}

void handle_navigation(Timeline* t, NavKeys* keys, bool hovered, float mouse_x, double dt_ms) {
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
  if (hovered && io.MouseWheel != 0) {
    if (io.KeyShift) {
      t->scroll_y -= io.MouseWheel * 60;
    } else {
      t->view = zoom_about(t->view, anchor, std::pow(0.85, io.MouseWheel), t->limits);
    }
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

void draw_backgrounds(const Timeline& t, const TraceData& d, RectBatch* batch) {
  const TimelineLayout& L = t.layout;
  for (size_t p = 0; p < d.processes.size(); ++p) {
    if (L.process_y[p] < 0) continue;
    float y = L.y0 - t.scroll_y + L.process_y[p];
    if (y + kProcessHeaderH >= L.y0 && y <= L.y0 + L.h)
      batch->add(L.x0, y, L.x0 + L.w, y + kProcessHeaderH, theme::kProcessHeader);
  }
  for (size_t i = 0; i < d.tracks.size(); ++i) {
    RowGeom g = track_geom(t, static_cast<uint32_t>(i));
    if (!g.visible) continue;
    batch->add(L.x0, g.top, L.x0 + L.w, g.top + L.track_h[i], (i % 2) ? theme::kRowOdd : theme::kRowEven);
  }
}

void draw_slices(const Timeline& t, const TraceData& d, RectBatch* batch, ImDrawList* dl) {
  const TimelineLayout& L = t.layout;
  const float char_w = ImGui::CalcTextSize("M").x;
  const float text_h = ImGui::GetFontSize();
  for (const proto::SliceEntry& s : d.reply.slices) {
    RowGeom g = track_geom(t, s.track);
    if (!g.visible) continue;
    float y0 = g.top + static_cast<float>(s.depth) * kRowH + 1;
    float y1 = y0 + kRowH - 2;
    if (y1 < L.y0 || y0 > L.y0 + L.h) continue;
    float x0 = to_x(t, s.start), x1 = to_x(t, s.end);
    if (x1 < L.x0 || x0 > L.x0 + L.w) continue;
    const bool folded = s.event == kNone;
    const bool instant = !folded && s.end <= s.start;
    uint32_t col = folded ? theme::kFolded : d.name_colors[s.name];
    if (instant) {
      batch->add(x0 - 1.5f, y0, x0 + 1.5f, y1, shade(col, 0.85f));
      continue;
    }
    batch->add(x0, y0, x1, y1, col);
    if (static_cast<int64_t>(s.event) == t.selected_event && !folded) {
      float e = 2;
      uint32_t sc = theme::kSelection;
      batch->add(x0 - e, y0 - e, x1 + e, y0, sc);
      batch->add(x0 - e, y1, x1 + e, y1 + e, sc);
      batch->add(x0 - e, y0, x0, y1, sc);
      batch->add(x1, y0, x1 + e, y1, sc);
    }
    // Labels: only where they fit, elided with ".." and clipped to the slice.
    float vx0 = std::max(x0, L.x0), vx1 = std::min(x1, L.x0 + L.w);
    float room = vx1 - vx0 - 4;
    if (room < char_w * 3) continue;
    char buf[64];
    const char* txt;
    size_t len;
    if (folded) {
      std::snprintf(buf, sizeof buf, "%u events", s.count);
      txt = buf;
      len = std::strlen(buf);
    } else {
      const std::string& nm = d.name(s.name);
      txt = nm.c_str();
      len = nm.size();
    }
    size_t fit = static_cast<size_t>(room / char_w);
    ImVec2 pos(vx0 + 2, y0 + (y1 - y0 - text_h) / 2);
    uint32_t tc = text_color_on(col);
    ImVec4 clip(vx0, y0, vx1, y1);
    if (len <= fit) {
      dl->AddText(nullptr, 0, pos, tc, txt, txt + len, 0, &clip);
    } else if (fit > 2) {
      std::string el(txt, fit - 2);
      el += "..";
      dl->AddText(nullptr, 0, pos, tc, el.c_str(), el.c_str() + el.size(), 0, &clip);
    }
  }
}

void draw_counters(const Timeline& t, const TraceData& d, RectBatch* batch) {
  const TimelineLayout& L = t.layout;
  const auto& b = d.reply.buckets;
  for (size_t i = 0; i < b.size(); ++i) {
    const UiSeries& se = d.series[b[i].series];
    RowGeom g = track_geom(t, se.track);
    if (!g.visible) continue;
    double lo = std::min(0.0, se.min), hi = std::max(se.max, lo + 1e-12);
    float x0 = to_x(t, b[i].start);
    bool next_same = i + 1 < b.size() && b[i + 1].series == b[i].series;
    float x1 = next_same ? to_x(t, b[i + 1].start) : L.x0 + L.w;
    if (x1 < L.x0 || x0 > L.x0 + L.w) continue;
    float base = g.top + kCounterH - 3;
    float top = base - static_cast<float>((b[i].max - lo) / (hi - lo)) * (kCounterH - 8);
    uint32_t col = (se.name.empty() ? theme::kCounter : color_for_name(se.name));
    batch->add(x0, top, std::max(x1, x0 + 1), base, (col & 0x00FFFFFFu) | 0xC0000000u);
  }
}

void draw_labels(const Timeline& t, const TraceData& d, float x, float w_label, ImDrawList* dl) {
  const TimelineLayout& L = t.layout;
  dl->PushClipRect(ImVec2(x, L.y0), ImVec2(x + w_label, L.y0 + L.h), true);
  for (size_t p = 0; p < d.processes.size(); ++p) {
    if (L.process_y[p] < 0) continue;
    float y = L.y0 - t.scroll_y + L.process_y[p];
    if (y + kProcessHeaderH < L.y0 || y > L.y0 + L.h) continue;
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w_label, y + kProcessHeaderH), theme::kProcessHeader);
    dl->AddText(ImVec2(x + 6, y + 4), theme::kText, d.processes[p].name.c_str());
  }
  for (size_t i = 0; i < d.tracks.size(); ++i) {
    RowGeom g = track_geom(t, static_cast<uint32_t>(i));
    if (!g.visible) continue;
    dl->AddRectFilled(ImVec2(x, g.top), ImVec2(x + w_label, g.top + L.track_h[i]),
                      (i % 2) ? theme::kRowOdd : theme::kRowEven);
    dl->AddText(ImVec2(x + 14, g.top + 2), theme::kTextDim, d.tracks[i].name.c_str());
  }
  dl->PopClipRect();
}

}  // namespace

void timeline_reset(Timeline* t, const TraceData& d) {
  Timeline fresh;
  fresh.next_request_id = t->next_request_id;  // ids stay unique across traces
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

  // The events area is one invisible button: ImGui then tells us hover/drag/click, and any
  // popup or window above it takes the mouse first.
  ImGui::SetCursorScreenPos(ImVec2(L.x0, L.y0));
  ImGui::InvisibleButton("##events", ImVec2(L.w, L.h));
  const bool hovered = ImGui::IsItemHovered();
  ImGuiIO& io = ImGui::GetIO();
  // Pan by the mouse's motion while held, but not on the press frame itself: the motion that
  // brought the cursor to the press point is not a drag.
  if (ImGui::IsItemActive() && !ImGui::IsItemActivated()) {
    ImVec2 dd = io.MouseDelta;
    t->drag_moved += std::fabs(dd.x) + std::fabs(dd.y);
    if (dd.x != 0) t->view = pan_by(t->view, -dd.x * ns_per_px(t->view, L.w), t->limits);
    t->scroll_y -= dd.y;
  }
  if (ImGui::IsItemActivated()) t->drag_moved = 0;
  if (ImGui::IsItemDeactivated() && t->drag_moved < 4) {
    const proto::SliceEntry* s = hit_test(*t, d, io.MousePos.x, io.MousePos.y);
    if (s && s->event == kNone) {  // a folded run: zoom into it
      double pad = (s->end - s->start) * 0.1 + 1;
      timeline_set_view(t, s->start - pad, s->end + pad);
    } else {
      int64_t sel = s ? static_cast<int64_t>(s->event) : -1;
      if (sel != t->selected_event) t->selection_changed = true;
      t->selected_event = sel;
    }
  }
  // Wheel over the label column scrolls the tracks.
  if (!hovered && io.MouseWheel != 0 && io.MousePos.x >= x && io.MousePos.x < L.x0 &&
      io.MousePos.y >= L.y0 && io.MousePos.y < L.y0 + L.h)
    t->scroll_y -= io.MouseWheel * 60;
  if (!io.WantTextInput) handle_navigation(t, keys, hovered, io.MousePos.x, dt_ms);

  batch->clip[0] = L.x0;
  batch->clip[1] = L.y0;
  batch->clip[2] = L.w;
  batch->clip[3] = L.h;
  draw_backgrounds(*t, d, batch);
  draw_ruler_grid(t->view, L.x0, L.y0, L.w, L.h, batch);
  if (d.reply.valid) {
    dl->PushClipRect(ImVec2(L.x0, L.y0), ImVec2(L.x0 + L.w, L.y0 + L.h), true);
    draw_counters(*t, d, batch);
    draw_slices(*t, d, batch, dl);
    dl->PopClipRect();
  }
  draw_labels(*t, d, x, L.label_w, dl);
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
  t->in_flight_id = msg.h.request_id;
  t->in_flight_since_ms = t->last_frame_ms;
  send(&msg, sizeof msg);
}

bool timeline_settled(const Timeline& t, const TraceData& d) {
  const ViewReply& r = d.reply;
  if (!r.valid || r.width_px == 0) return false;
  if (r.start > t.view.start + 1 || r.end < t.view.end - 1) return false;
  double have = (r.end - r.start) / r.width_px;
  double want = ns_per_px(t.view, t.layout.w);
  return have <= want * 1.5 && have >= want / 1.5;
}

void timeline_reply_arrived(Timeline* t, uint32_t request_id) {
  if (request_id == t->in_flight_id) t->in_flight_id = 0;
}

bool timeline_reveal(Timeline* t, const TraceData& d, uint32_t event) {
  for (const proto::SliceEntry& s : d.reply.slices) {
    if (s.event != event) continue;
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
