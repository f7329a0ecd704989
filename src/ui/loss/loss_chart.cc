#include "ui/loss/loss_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "imgui.h"
#include "ui/timeline/colors.h"

namespace strata {

namespace {

// Margins: Y tick labels on the left, X tick labels and the X title below, the Y title above.
constexpr float kLeft = 62, kBottom = 34, kTop = 20, kRight = 10;

// Round tick step for a span: 1, 2 or 5 × 10^k, about `n` ticks.
double nice_step(double span, int n) {
  if (!(span > 0)) return 1;
  double raw = span / n, p = std::pow(10.0, std::floor(std::log10(raw)));
  double m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

void format_value(char* buf, size_t n, double v) {
  if (v != 0 && (std::fabs(v) >= 1e5 || std::fabs(v) < 1e-3))
    std::snprintf(buf, n, "%.2e", v);
  else
    std::snprintf(buf, n, "%.4g", v);
}

}  // namespace

uint32_t loss_series_color(size_t i) {
  static const uint32_t kColors[] = {0xFFE0A040, 0xFF4080F0, 0xFF60C060, 0xFFD070D0,
                                     0xFF40D0E0, 0xFF8080FF, 0xFFB0B060, 0xFF70A0C0};
  return kColors[i % 8];
}

void draw_loss_chart(const char* id, const std::vector<ChartSeries>& series, bool log_y,
                     double* cursor_iter, bool* cursor_here, float w, float h, const char* x_title,
                     const char* y_title) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(w, 10.0f), std::max(h, 10.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const float px0 = o.x + kLeft, px1 = o.x + w - kRight, py0 = o.y + kTop, py1 = o.y + h - kBottom;
  dl->AddRectFilled(ImVec2(px0, py0), ImVec2(px1, py1), theme::kChartBg);
  if (px1 - px0 < 10 || py1 - py0 < 10) return;
  dl->AddText(ImVec2(o.x + 2, o.y + 2), theme::kText, y_title);
  dl->AddText(ImVec2((px0 + px1 - ImGui::CalcTextSize(x_title).x) / 2, py1 + 17), theme::kText,
              x_title);

  auto tr = [&](double v) { return log_y ? (v > 0 ? std::log10(v) : std::nan("")) : v; };
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const ChartSeries& s : series) {
    if (s.x->empty()) continue;
    x0 = std::min(x0, static_cast<double>(s.x->front()));
    x1 = std::max(x1, static_cast<double>(s.x->back()));
    for (double v : *s.y) {
      double t = tr(v);
      if (std::isfinite(t)) y0 = std::min(y0, t), y1 = std::max(y1, t);
    }
  }
  if (!(x0 <= x1) || !(y0 <= y1)) {
    dl->AddText(ImVec2(px0 + 8, py0 + 8), theme::kTextDim, "no points: check the file's tags");
    return;
  }
  if (x1 == x0) x0 -= 1, x1 += 1;
  if (y1 == y0) y0 -= 0.5, y1 += 0.5;
  const double pad = (y1 - y0) * 0.05;
  y0 -= pad, y1 += pad;
  auto sx = [&](double x) { return static_cast<float>(px0 + (x - x0) / (x1 - x0) * (px1 - px0)); };
  auto sy = [&](double t) { return static_cast<float>(py1 - (t - y0) / (y1 - y0) * (py1 - py0)); };

  // Grid and tick labels.
  char buf[48];
  const double xs =
      std::max(1.0, nice_step(x1 - x0, std::max(2, static_cast<int>((px1 - px0) / 90))));
  for (double x = std::ceil(x0 / xs) * xs; x <= x1; x += xs) {
    dl->AddLine(ImVec2(sx(x), py0), ImVec2(sx(x), py1), theme::kGrid);
    std::snprintf(buf, sizeof buf, "%.0f", x);
    dl->AddText(ImVec2(sx(x) - ImGui::CalcTextSize(buf).x / 2, py1 + 3), theme::kTextDim, buf);
  }
  const double ys = nice_step(y1 - y0, std::max(2, static_cast<int>((py1 - py0) / 40)));
  for (double t = std::ceil(y0 / ys) * ys; t <= y1; t += ys) {
    dl->AddLine(ImVec2(px0, sy(t)), ImVec2(px1, sy(t)), theme::kGrid);
    format_value(buf, sizeof buf, log_y ? std::pow(10.0, t) : (std::fabs(t) < ys * 1e-6 ? 0.0 : t));
    dl->AddText(ImVec2(o.x + 2, sy(t) - 7), theme::kTextDim, buf);
  }
  if (std::fabs(y0) < 1e-300 || (y0 < 0 && y1 > 0))
    dl->AddLine(ImVec2(px0, sy(0)), ImVec2(px1, sy(0)), theme::kTextDim);

  // Lines: consecutive finite points joined; per pixel column min/max when points are dense.
  dl->PushClipRect(ImVec2(px0, py0), ImVec2(px1, py1), true);
  for (const ChartSeries& s : series) {
    const size_t n = s.x->size();
    const bool dense = n > static_cast<size_t>(2 * (px1 - px0));
    bool have_prev = false;
    ImVec2 prev;
    int col = -1;
    float col_min = 0, col_max = 0;
    for (size_t i = 0; i < n; ++i) {
      const double t = tr((*s.y)[i]);
      if (!std::isfinite(t)) {
        have_prev = false;
        continue;
      }
      const ImVec2 p(sx(static_cast<double>((*s.x)[i])), sy(t));
      if (dense) {
        const int c = static_cast<int>(p.x);
        if (c == col) {
          col_min = std::min(col_min, p.y), col_max = std::max(col_max, p.y);
          prev = p;
          continue;
        }
        if (col >= 0 && col_max - col_min >= 1)
          dl->AddLine(ImVec2(col + 0.5f, col_min), ImVec2(col + 0.5f, col_max), s.color);
        col = c, col_min = col_max = p.y;
      }
      if (have_prev) dl->AddLine(prev, p, s.color, 1.5f);
      prev = p, have_prev = true;
    }
    if (dense && col >= 0 && col_max - col_min >= 1)
      dl->AddLine(ImVec2(col + 0.5f, col_min), ImVec2(col + 0.5f, col_max), s.color);
    if (n == 1 && have_prev) dl->AddCircleFilled(prev, 3, s.color);
  }
  dl->PopClipRect();

  // Linked cursor.
  if (hovered) {
    const float mx = std::clamp(ImGui::GetIO().MousePos.x, px0, px1);
    *cursor_iter = std::round(x0 + (mx - px0) / (px1 - px0) * (x1 - x0));
    *cursor_here = true;
  }
  if (std::isfinite(*cursor_iter) && *cursor_iter >= x0 && *cursor_iter <= x1) {
    const float cx = sx(*cursor_iter);
    dl->AddLine(ImVec2(cx, py0), ImVec2(cx, py1), theme::kCursorStrong);
    if (hovered) {
      ImGui::BeginTooltip();
      ImGui::Text("iteration %.0f", *cursor_iter);
      for (const ChartSeries& s : series) {
        if (s.x->empty()) continue;
        // The nearest logged iteration of this series.
        auto it = std::lower_bound(s.x->begin(), s.x->end(), static_cast<int64_t>(*cursor_iter));
        size_t k = static_cast<size_t>(it - s.x->begin());
        if (k == s.x->size() || (k > 0 && *cursor_iter - (*s.x)[k - 1] < (*s.x)[k] - *cursor_iter))
          --k;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.color), "%s: %.6g @ %lld", s.label,
                           (*s.y)[k], static_cast<long long>((*s.x)[k]));
      }
      ImGui::EndTooltip();
    }
  }
}

}  // namespace strata
