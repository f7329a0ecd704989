#include "ui/timeline/ruler.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "imgui.h"
#include "ui/timeline/colors.h"
#include "ui/timeline/time_labels.h"

namespace strata {

namespace {
constexpr double kMajorPx = 110;  // labelled ticks at least this far apart
constexpr float kBaseBoxPad = 3;
}  // namespace

void draw_ruler_grid(const TimeView& v, float x0, float y0, float w, float h, RectBatch* batch) {
  double step = tick_step(v.span(), w, kMajorPx);
  for (double t : ticks(v, step)) {
    float x = x0 + static_cast<float>(time_to_px(v, t, w));
    batch->add(x, y0, x + 1, y0 + h, theme::kGrid);
  }
}

std::string ruler_time_label(const Timeline& t, double rel, double resolution) {
  if (t.ruler.has_base) return format_time_offset(rel - t.ruler.base, resolution);
  return format_tick(rel, resolution);
}

void draw_ruler(Timeline* t, float x0, float y0, float w, float h, ImDrawList* dl) {
  TimeView v = t->view;  // in the time the ruler counts (ruler_shift)
  v.start -= t->ruler_shift;
  v.end -= t->ruler_shift;
  RulerState& r = t->ruler;
  r = RulerState{};
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + w, y0 + h), theme::kProcessHeader);
  const double step = tick_step(v.span(), w, kMajorPx);
  r.step = step;
  r.has_base = wants_time_base(std::max(std::fabs(v.start), std::fabs(v.end)), step);
  if (r.has_base) {
    r.base = ruler_base(v, t->marks, step, &r.base_from_mark);
    // A mark's start is wherever it is; a tick base is a whole number of steps.
    r.base_text = format_time_base(r.base, r.base_from_mark ? 1.0 : step);
  }
  const double minor = step / 5;
  for (double tm : ticks(v, minor)) {
    float x = x0 + static_cast<float>(time_to_px(v, tm, w));
    dl->AddLine(ImVec2(x, y0 + h - 5), ImVec2(x, y0 + h), theme::kTextDim);
  }
  dl->PushClipRect(ImVec2(x0, y0), ImVec2(x0 + w, y0 + h), true);
  // The base, once, over the ruler's left end; tick labels it would cover are left out.
  float base_right = x0;
  if (r.has_base) {
    const std::string text = (r.base_from_mark ? "mark @ " : "@ ") + r.base_text;
    const ImVec2 sz = ImGui::CalcTextSize(text.c_str());
    const ImVec2 at(x0 + kBaseBoxPad, y0 + (h - sz.y) / 2);
    base_right = at.x + sz.x + kBaseBoxPad;
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(base_right, y0 + h), theme::kLabelBg);
    dl->AddText(at, theme::kAccentText, text.c_str());
  }
  for (double tm : ticks(v, step)) {
    float x = x0 + static_cast<float>(time_to_px(v, tm, w));
    if (x < base_right) continue;
    dl->AddLine(ImVec2(x, y0 + h - 10), ImVec2(x, y0 + h), theme::kText);
    std::string label = ruler_time_label(*t, tm, step);
    dl->AddText(ImVec2(x + 3, y0 + h - 22), theme::kText, label.c_str());
    r.labels.push_back(std::move(label));
  }
  dl->PopClipRect();
}

}  // namespace strata
