#include "ui/timeline/ruler.h"

#include <string>

#include "imgui.h"
#include "ui/timeline/colors.h"

namespace strata {

namespace {
constexpr double kMajorPx = 110;  // labelled ticks at least this far apart
}

void draw_ruler_grid(const TimeView& v, float x0, float y0, float w, float h, RectBatch* batch) {
  double step = tick_step(v.span(), w, kMajorPx);
  for (double t : ticks(v, step)) {
    float x = x0 + static_cast<float>(time_to_px(v, t, w));
    batch->add(x, y0, x + 1, y0 + h, theme::kGrid);
  }
}

void draw_ruler(const TimeView& v, float x0, float y0, float w, float h, ImDrawList* dl) {
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + w, y0 + h), theme::kProcessHeader);
  double step = tick_step(v.span(), w, kMajorPx);
  double minor = step / 5;
  for (double t : ticks(v, minor)) {
    float x = x0 + static_cast<float>(time_to_px(v, t, w));
    dl->AddLine(ImVec2(x, y0 + h - 5), ImVec2(x, y0 + h), theme::kTextDim);
  }
  dl->PushClipRect(ImVec2(x0, y0), ImVec2(x0 + w, y0 + h), true);
  for (double t : ticks(v, step)) {
    float x = x0 + static_cast<float>(time_to_px(v, t, w));
    dl->AddLine(ImVec2(x, y0 + h - 10), ImVec2(x, y0 + h), theme::kText);
    std::string label = format_tick(t, step);
    dl->AddText(ImVec2(x + 3, y0 + h - 22), theme::kText, label.c_str());
  }
  dl->PopClipRect();
}

}  // namespace strata
