#include "ui/timeline/layout.h"

#include <algorithm>

namespace strata {

void compute_layout(Timeline* t, const TraceData& d) {
  TimelineLayout& L = t->layout;
  L.track_y.assign(d.tracks.size(), 0);
  L.track_h.assign(d.tracks.size(), 0);
  L.process_y.assign(d.processes.size(), -1);
  if (t->collapsed.size() != d.processes.size()) t->collapsed.assign(d.processes.size(), 0);
  if (t->pinned.size() != d.tracks.size()) t->pinned.assign(d.tracks.size(), 0);
  if (t->hidden.size() != d.tracks.size()) t->hidden.assign(d.tracks.size(), 0);
  float y = 0;
  std::vector<uint32_t> order;
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const UiProcess& pr = d.processes[p];
    const uint32_t end =
        std::min<uint32_t>(pr.first_track + pr.track_count, static_cast<uint32_t>(d.tracks.size()));
    // Pinned tracks first, then the rest in the engine's order.
    order.clear();
    for (uint32_t i = pr.first_track; i < end; ++i)
      if (t->pinned[i]) order.push_back(i);
    for (uint32_t i = pr.first_track; i < end; ++i)
      if (!t->pinned[i]) order.push_back(i);
    bool any = false;
    for (uint32_t i : order)
      any |= !t->hidden[i] && (d.tracks[i].kind == 1 || d.tracks[i].event_count > 0);
    if (!any) continue;  // a process with nothing to draw takes no space
    L.process_y[p] = y;
    y += kProcessHeaderH;
    if (t->collapsed[p]) continue;
    for (uint32_t i : order) {
      const UiTrack& tr = d.tracks[i];
      float h = 0;
      if (t->hidden[i])
        h = 0;
      else if (tr.kind == 1)
        h = kCounterH;
      else if (tr.event_count > 0)
        h = static_cast<float>(tr.rows) * kRowH + kTrackPad;
      L.track_y[i] = y;
      L.track_h[i] = h;
      y += h;
    }
  }
  L.content_h = y;
}

RowGeom track_geom(const Timeline& t, uint32_t track) {
  const TimelineLayout& L = t.layout;
  float top = L.y0 - t.scroll_y + L.track_y[track];
  bool vis = L.track_h[track] > 0 && top + L.track_h[track] >= L.y0 && top <= L.y0 + L.h;
  return {top, vis};
}

double ns_per_px(const TimeView& v, float w) { return v.span() / std::max(1.0f, w); }

float to_x(const Timeline& t, double rel) {
  double px = time_to_px(t.view, rel, t.layout.w);
  px = std::clamp(px, -10.0, static_cast<double>(t.layout.w) + 10.0);
  return t.layout.x0 + static_cast<float>(px);
}

bool row_at(const Timeline& t, const TraceData& d, float y, uint32_t* track, uint32_t* depth) {
  const TimelineLayout& L = t.layout;
  float cy = y - L.y0 + t.scroll_y;
  for (uint32_t i = 0; i < d.tracks.size(); ++i) {
    if (L.track_h[i] <= 0 || cy < L.track_y[i] || cy >= L.track_y[i] + L.track_h[i]) continue;
    *track = i;
    float r = (cy - L.track_y[i]) / kRowH;
    *depth = static_cast<uint32_t>(
        std::max(0.0f, std::min(r, static_cast<float>(d.tracks[i].rows - 1))));
    return true;
  }
  return false;
}

int process_header_at(const Timeline& t, const TraceData& d, float y) {
  const TimelineLayout& L = t.layout;
  float cy = y - L.y0 + t.scroll_y;
  for (size_t p = 0; p < d.processes.size(); ++p)
    if (L.process_y[p] >= 0 && cy >= L.process_y[p] && cy < L.process_y[p] + kProcessHeaderH)
      return static_cast<int>(p);
  return -1;
}

}  // namespace strata
