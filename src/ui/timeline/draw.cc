#include "ui/timeline/draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "imgui.h"
#include "ui/theme.h"
#include "ui/timeline/colors.h"
#include "ui/timeline/headers.h"
#include "ui/timeline/hover.h"
#include "ui/timeline/layout.h"

namespace strata {

namespace {

constexpr float kFoldedHatchPx = 6;   // stripe spacing over folded runs
constexpr float kTrackLabelX = 14;    // name-column text insets
constexpr float kProcessLabelX = 16;  // (after the collapse arrow)
constexpr float kLabelRightPad = 4;

bool is_selected(const Timeline& t, uint32_t event) {
  for (const SelectedEvent& s : t.selection)
    if (s.event == event) return true;
  return false;
}

void outline(RectBatch* batch, float x0, float y0, float x1, float y1, float e, uint32_t c) {
  batch->add(x0 - e, y0 - e, x1 + e, y0, c);
  batch->add(x0 - e, y1, x1 + e, y1 + e, c);
  batch->add(x0 - e, y0, x0, y1, c);
  batch->add(x1, y0, x1 + e, y1, c);
}

// Diagonal stripes over [x0, x1] × [y0, y1], each cut to the rectangle, so a folded run reads
// as "many events here", not as one slice.
void hatch(ImDrawList* dl, float x0, float y0, float x1, float y1, uint32_t c) {
  const float h = y1 - y0;
  if (!(h > 0) || !(x1 > x0)) return;
  for (float xa = x0 - h; xa < x1; xa += kFoldedHatchPx) {
    // The stripe runs from (xa, y1) up to (xa + h, y0); keep the part inside [x0, x1].
    const float ta = std::max(0.0f, (x0 - xa) / h), tb = std::min(1.0f, (x1 - xa) / h);
    if (tb <= ta) continue;
    dl->AddLine(ImVec2(xa + ta * h, y1 - ta * h), ImVec2(xa + tb * h, y1 - tb * h), c);
  }
}

float text_width(std::string_view s) {
  return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
}

}  // namespace

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
    batch->add(L.x0, g.top, L.x0 + L.w, g.top + L.track_h[i],
               (i % 2) ? theme::kRowOdd : theme::kRowEven);
  }
}

void draw_slices(const Timeline& t, const TraceData& d,
                 const std::vector<proto::SliceEntry>& slices, double a, double b, double skip_from,
                 double right, RectBatch* batch, ImDrawList* dl) {
  const TimelineLayout& L = t.layout;
  const float char_w = ImGui::CalcTextSize("M").x;
  const float text_h = ImGui::GetFontSize();
  for (const proto::SliceEntry& s : slices) {
    if (s.end < a || s.start > b) continue;
    const bool folded = s.event == kNone;
    // No events behind it: data that could not be read (a bundle's tile), named by its message.
    const bool unreadable = folded && s.count == 0;
    const bool instant = !folded && s.end <= s.start;
    double sa = s.start, sb = s.end;
    if (folded) {
      sa = std::max(sa, a), sb = std::min(sb, b);
    } else if (!instant) {
      if (sa < a) {
        if (sa >= skip_from) continue;  // drawn whole by the tile it starts in
        sa = a;
      }
      sb = std::min(sb, right);
    }
    RowGeom g = track_geom(t, s.track);
    if (!g.visible) continue;
    float y0 = g.top + static_cast<float>(s.depth) * kRowH + 1;
    float y1 = y0 + kRowH - 2;
    if (y1 < L.y0 || y0 > L.y0 + L.h) continue;
    float x0 = to_x(t, sa), x1 = to_x(t, sb);
    if (x1 < L.x0 || x0 > L.x0 + L.w) continue;
    // A folded run is neutral grey (hatched below), darker the emptier the run is: it must not
    // pass for a slice of some name.
    uint32_t col = unreadable ? theme::kErrorText
                   : folded   ? shade(theme::kFolded,
                                      0.6f + 0.4f * static_cast<float>(s.busy_permille) / 1000.0f)
                              : d.name_colors[s.name];
    // Search: matches keep their colour, everything else is dimmed.
    if (t.search_active && !(s.name < t.name_match.size() && t.name_match[s.name]))
      col = search_dim_color(col);
    const bool outlined = !folded && s.name < t.name_outline.size() && t.name_outline[s.name];
    if (instant) {
      batch->add(x0 - 1.5f, y0, x0 + 1.5f, y1, shade(col, 0.85f));
      if (outlined) outline(batch, x0 - 1.5f, y0, x0 + 1.5f, y1, 1, theme::kChartDifference);
      if (is_selected(t, s.event))
        outline(batch, x0 - 1.5f, y0, x0 + 1.5f, y1, 2, theme::kSelection);
      continue;
    }
    batch->add(x0, y0, x1, y1, col);
    if (outlined) outline(batch, x0, y0, x1, y1, 1, theme::kChartDifference);
    if (!folded && is_selected(t, s.event)) outline(batch, x0, y0, x1, y1, 2, theme::kSelection);
    if (folded && x1 - x0 >= kFoldedHatchPx)
      hatch(dl, std::max(x0, L.x0), y0, std::min(x1, L.x0 + L.w), y1, theme::kFoldedHatch);
    // Labels: only where they fit, elided with ".." and clipped to the slice.
    float vx0 = std::max(x0, L.x0), vx1 = std::min(x1, L.x0 + L.w);
    float room = vx1 - vx0 - 4;
    if (room < char_w * 3) continue;
    const char* txt;
    size_t len;
    std::string folded_label;
    if (folded && !unreadable) {  // "N events" whole, or nothing
      folded_label = folded_run_label(s.count, room, text_width);
      if (folded_label.empty()) continue;
      txt = folded_label.c_str();
      len = folded_label.size();
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

void draw_counters(const Timeline& t, const TraceData& d, const std::vector<proto::BucketEntry>& b,
                   double a, double end, RectBatch* batch) {
  const TimelineLayout& L = t.layout;
  for (size_t i = 0; i < b.size(); ++i) {
    const UiSeries& se = d.series[b[i].series];
    RowGeom g = track_geom(t, se.track);
    if (!g.visible) continue;
    double lo = std::min(0.0, se.min), hi = std::max(se.max, lo + 1e-12);
    // A bucket holds until the next one of its series (or the end of the tile).
    bool next_same = i + 1 < b.size() && b[i + 1].series == b[i].series;
    double t0 = std::max(b[i].start, a), t1 = std::min(next_same ? b[i + 1].start : end, end);
    if (!(t1 > t0)) continue;
    float x0 = to_x(t, t0), x1 = to_x(t, t1);
    if (x1 < L.x0 || x0 > L.x0 + L.w) continue;
    float base = g.top + kCounterH - 3;
    float span = kCounterH - 8;
    float top = base - static_cast<float>((b[i].max - lo) / (hi - lo)) * span;
    float last = base - static_cast<float>((b[i].last - lo) / (hi - lo)) * span;
    uint32_t col = se.name.empty() ? theme::kCounter : color_for_name(se.name);
    // An area chart: the value in force fills to the baseline; the bucket's max shows as a
    // lighter cap, so peaks stay visible at every zoom.
    batch->add(x0, last, std::max(x1, x0 + 1), base, (col & 0x00FFFFFFu) | 0xB0000000u);
    if (top < last)
      batch->add(x0, top, std::max(x1, x0 + 1), last, (col & 0x00FFFFFFu) | 0x60000000u);
  }
}

void draw_counter_scales(const Timeline& t, const TraceData& d, ImDrawList* dl) {
  const TimelineLayout& L = t.layout;
  for (size_t i = 0; i < d.tracks.size(); ++i) {
    const UiTrack& tr = d.tracks[i];
    if (tr.kind != 1 || tr.series_count == 0 || tr.first_series >= d.series.size()) continue;
    RowGeom g = track_geom(t, static_cast<uint32_t>(i));
    if (!g.visible) continue;
    // The top of the vertical scale, in the series' unit (byte sizes for memory counters).
    double hi = 0;
    for (uint32_t k = 0; k < tr.series_count && tr.first_series + k < d.series.size(); ++k)
      hi = std::max(hi, d.series[tr.first_series + k].max);
    const std::string label = "max " + counter_value_label(d.series[tr.first_series], hi);
    const ImVec2 at(L.x0 + 4, g.top + 2);
    const ImVec2 sz = ImGui::CalcTextSize(label.c_str());
    dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + sz.x + 2, at.y + sz.y + 1),
                      theme::kLabelBg);
    dl->AddText(at, theme::kTextDim, label.c_str());
  }
}

void draw_labels(Timeline* t, const TraceData& d, float x, ImDrawList* dl) {
  const TimelineLayout& L = t->layout;
  const float w = L.label_w;
  dl->PushClipRect(ImVec2(x, L.y0), ImVec2(x + w, L.y0 + L.h), true);
  t->drawn_headers.clear();
  bool elided = false;
  for (size_t i = 0; i < d.tracks.size(); ++i) {
    RowGeom g = track_geom(*t, static_cast<uint32_t>(i));
    if (!g.visible) continue;
    dl->AddRectFilled(ImVec2(x, g.top), ImVec2(x + w, g.top + L.track_h[i]),
                      (i % 2) ? theme::kRowOdd : theme::kRowEven);
    std::string label = (t->pinned[i] ? "^ " : "") + t->track_texts[i];
    std::string shown =
        elide_to_width(label, w - kTrackLabelX - kLabelRightPad, text_width, &elided);
    dl->AddText(ImVec2(x + kTrackLabelX, g.top + 2), theme::kTextDim, shown.c_str());
    t->drawn_headers.push_back({false, static_cast<uint32_t>(i), g.top + 2, label, shown});
  }
  for (size_t p = 0; p < d.processes.size(); ++p) {
    if (L.process_y[p] < 0) continue;
    float y = L.y0 - t->scroll_y + L.process_y[p];
    if (y + kProcessHeaderH < L.y0 || y > L.y0 + L.h) continue;
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + kProcessHeaderH), theme::kProcessHeader);
    // Collapse arrow: a triangle pointing down (open) or right (collapsed).
    float cx = x + 8, cy = y + kProcessHeaderH / 2;
    if (t->collapsed[p])
      dl->AddTriangleFilled(ImVec2(cx - 3, cy - 4), ImVec2(cx - 3, cy + 4), ImVec2(cx + 3, cy),
                            theme::kText);
    else
      dl->AddTriangleFilled(ImVec2(cx - 4, cy - 3), ImVec2(cx + 4, cy - 3), ImVec2(cx, cy + 3),
                            theme::kText);
    const std::string& text = t->process_texts[p];
    std::string shown =
        elide_to_width(text, w - kProcessLabelX - kLabelRightPad, text_width, &elided);
    dl->AddText(ImVec2(x + kProcessLabelX, y + 4), theme::kText, shown.c_str());
    t->drawn_headers.push_back({true, static_cast<uint32_t>(p), y + 4, text, shown});
  }
  dl->PopClipRect();
}

void draw_flows(const Timeline& t, const std::vector<proto::FlowEntry>& flows, ImDrawList* dl,
                uint32_t color) {
  const TimelineLayout& L = t.layout;
  auto row_mid = [&](uint32_t track, uint32_t depth, float* y) {
    if (track >= L.track_h.size() || L.track_h[track] <= 0) return false;
    *y = L.y0 - t.scroll_y + L.track_y[track] + static_cast<float>(depth) * kRowH + kRowH / 2;
    return true;
  };
  for (const proto::FlowEntry& f : flows) {
    float y0, y1;
    if (!row_mid(f.from_track, f.from_depth, &y0) || !row_mid(f.to_track, f.to_depth, &y1))
      continue;
    float x0 = to_x(t, f.from_end), x1 = to_x(t, f.to_start);
    if ((y0 < L.y0 && y1 < L.y0) || (y0 > L.y0 + L.h && y1 > L.y0 + L.h)) continue;
    if ((x0 < L.x0 && x1 < L.x0) || (x0 > L.x0 + L.w && x1 > L.x0 + L.w)) continue;
    // Horizontal tangents at both ends read as "leaves here, arrives there", even when the
    // target starts before the source ends.
    float dx = std::max(30.0f, std::fabs(x1 - x0) * 0.5f);
    dl->AddBezierCubic(ImVec2(x0, y0), ImVec2(x0 + dx, y0), ImVec2(x1 - dx, y1), ImVec2(x1, y1),
                       color, 1.5f);
    dl->AddTriangleFilled(ImVec2(x1, y1), ImVec2(x1 - 7, y1 - 4), ImVec2(x1 - 7, y1 + 4), color);
  }
}

void draw_overlays(const Timeline& t, ImDrawList* dl, float dx0, float dy0, float dx1, float dy1,
                   bool range) {
  const TimelineLayout& L = t.layout;
  auto band = [&](double a, double b, uint32_t fill, uint32_t edge, const char* label) {
    float x0 = to_x(t, a), x1 = to_x(t, b);
    dl->AddRectFilled(ImVec2(x0, L.y0), ImVec2(x1, L.y0 + L.h), fill);
    dl->AddLine(ImVec2(x0, L.y0), ImVec2(x0, L.y0 + L.h), edge);
    dl->AddLine(ImVec2(x1, L.y0), ImVec2(x1, L.y0 + L.h), edge);
    if (label) {
      ImVec2 sz = ImGui::CalcTextSize(label);
      float cx = std::clamp((x0 + x1 - sz.x) / 2, L.x0 + 2, L.x0 + L.w - sz.x - 2);
      dl->AddRectFilled(ImVec2(cx - 3, L.y0 + 2), ImVec2(cx + sz.x + 3, L.y0 + 4 + sz.y),
                        theme::kLabelBg);
      dl->AddText(ImVec2(cx, L.y0 + 3), theme::kText, label);
    }
  };
  dl->PushClipRect(ImVec2(L.x0, L.y0), ImVec2(L.x0 + L.w, L.y0 + L.h), true);
  for (const auto& m : t.marks) band(m.first, m.second, 0x2000D7FF, 0xA000D7FF, nullptr);
  if (t.has_timing) {
    std::string label = format_duration(std::fabs(t.timing_t1 - t.timing_t0));
    band(std::min(t.timing_t0, t.timing_t1), std::max(t.timing_t0, t.timing_t1), 0x30FFB060,
         0xFFFFB060, label.c_str());
  }
  if (dx0 >= 0) {
    if (range)
      dl->AddRectFilled(ImVec2(std::min(dx0, dx1), L.y0), ImVec2(std::max(dx0, dx1), L.y0 + L.h),
                        theme::kDragFill);
    else
      dl->AddRect(ImVec2(std::min(dx0, dx1), std::min(dy0, dy1)),
                  ImVec2(std::max(dx0, dx1), std::max(dy0, dy1)), theme::kOutline);
  }
  dl->PopClipRect();
}

}  // namespace strata
