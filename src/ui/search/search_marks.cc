#include "ui/search/search_marks.h"

#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "ui/theme.h"

namespace strata {

namespace {
// How much of a non-matching slice's own colour is left (the rest is the background).
constexpr float kDimKeep = 0.3f;
// The marks fill this top strip of the ruler, above its labels.
constexpr float kMarkH = 4.0f;
// Narrowest mark, so one match on a wide view still shows.
constexpr float kMinMarkW = 2.0f;
// A bin wider than this on screen is too coarse to place a match: the listed matches' exact
// ticks take over (the bin is only a faint band when the list is not complete).
constexpr float kMaxBinW = 3.0f;
constexpr uint32_t kBandAlpha = 0x50;

uint32_t mix(uint32_t a, uint32_t b, float keep_a) {
  auto ch = [&](int shift) {
    const float va = static_cast<float>((a >> shift) & 0xFF);
    const float vb = static_cast<float>((b >> shift) & 0xFF);
    return static_cast<uint32_t>(std::lround(va * keep_a + vb * (1 - keep_a))) << shift;
  };
  return (a & 0xFF000000u) | ch(16) | ch(8) | ch(0);
}
}  // namespace

void search_marks_clear(SearchMarks* m) {
  m->bins.clear();
  m->starts.clear();
  m->listed_all = false;
  m->bins_start = m->bins_end = 0;
  m->drawn.clear();
}

uint32_t search_dim_color(uint32_t rgba) { return mix(rgba, theme::kBackground, kDimKeep); }

void draw_search_marks(SearchMarks* m, const TimeView& v, float x0, float y0, float w, float h,
                       ImDrawList* dl) {
  m->drawn.clear();
  m->ruler_x = x0, m->ruler_y = y0, m->ruler_w = w, m->ruler_h = h;
  if (m->bins.empty() || !(m->bins_end > m->bins_start) || !(v.span() > 0)) return;
  const float top = y0, bottom = y0 + std::min(kMarkH, h);
  auto add = [&](double a, double b, uint32_t col, bool record) {
    float xa = x0 + static_cast<float>(time_to_px(v, a, w));
    float xb = x0 + static_cast<float>(time_to_px(v, b, w));
    if (xb - xa < kMinMarkW) {
      const float c = (xa + xb) / 2;
      xa = c - kMinMarkW / 2, xb = c + kMinMarkW / 2;
    }
    xa = std::max(xa, x0), xb = std::min(xb, x0 + w);
    if (xb <= xa) return;
    dl->AddRectFilled(ImVec2(xa, top), ImVec2(xb, bottom), col);
    if (record) {
      if (!m->drawn.empty() && xa <= m->drawn.back().second)
        m->drawn.back().second = std::max(m->drawn.back().second, xb);
      else
        m->drawn.push_back({xa, xb});
    }
  };
  const size_t n = m->bins.size();
  const double bin_ns = (m->bins_end - m->bins_start) / static_cast<double>(n);
  const float bin_px = static_cast<float>(bin_ns / v.span() * w);
  const bool exact = bin_px > kMaxBinW;
  if (!exact || !m->listed_all) {
    const uint32_t col =
        exact ? (theme::kSearchMark & 0x00FFFFFFu) | (kBandAlpha << 24) : theme::kSearchMark;
    const double first = std::floor((v.start - m->bins_start) / bin_ns);
    const double last = std::ceil((v.end - m->bins_start) / bin_ns);
    const size_t i0 = static_cast<size_t>(std::clamp(first, 0.0, static_cast<double>(n)));
    const size_t i1 = static_cast<size_t>(std::clamp(last + 1, 0.0, static_cast<double>(n)));
    for (size_t i = i0; i < i1; ++i) {
      if (m->bins[i] == 0) continue;
      const double a = m->bins_start + static_cast<double>(i) * bin_ns;
      add(a, a + bin_ns, col, !exact);
    }
  }
  if (exact) {
    for (double s : m->starts)
      if (s >= v.start && s <= v.end) add(s, s, theme::kSearchMark, true);
  }
}

}  // namespace strata
