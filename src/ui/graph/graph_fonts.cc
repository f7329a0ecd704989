#include "ui/graph/graph_fonts.h"

#include <cmath>

#include "core/graph/node_label.h"
#include "imgui.h"

namespace strata {

namespace {

constexpr int kSizes = graph::kLabelMaxPx - graph::kLabelMinPx + 1;
ImFont* g_fonts[kSizes] = {};
float g_dpr = 1;

}  // namespace

void graph_fonts_add(ImFontAtlas* atlas, float dpr) {
  // Box text is names, opcodes and shapes: ASCII.
  static const ImWchar kAscii[] = {0x20, 0x7E, 0};
  g_dpr = dpr > 0 ? dpr : 1;
  for (int k = 0; k < kSizes; ++k) {
    ImFontConfig cfg;
    cfg.SizePixels = std::round(static_cast<float>(graph::kLabelMinPx + k) * g_dpr);
    cfg.OversampleH = cfg.OversampleV = 1;
    cfg.PixelSnapH = true;
    cfg.GlyphRanges = kAscii;
    g_fonts[k] = atlas->AddFontDefault(&cfg);
  }
}

ImFont* graph_font(int px, float* size) {
  const int k = px - graph::kLabelMinPx;
  if (k < 0 || k >= kSizes || !g_fonts[k]) return nullptr;
  *size = g_fonts[k]->FontSize / g_dpr;
  return g_fonts[k];
}

}  // namespace strata
