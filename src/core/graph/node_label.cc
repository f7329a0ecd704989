#include "core/graph/node_label.h"

#include <algorithm>
#include <cmath>

namespace strata::graph {

int label_px(float zoom) {
  if (!(zoom > 0)) return 0;
  const float want = kLabelBasePx * std::min(zoom, kLabelMaxScale);
  // A hair over a whole size (float noise in zoom * 13) still counts as that size.
  const int px = std::min(kLabelMaxPx, static_cast<int>(std::floor(want + 1e-3f)));
  return px >= kLabelMinPx ? px : 0;
}

std::string fit_label(std::string_view text, float width_px, float advance_px) {
  if (!(advance_px > 0)) return {};
  const float room = std::max(0.f, width_px) / advance_px;
  if (static_cast<float>(text.size()) <= room + 1e-3f) return std::string(text);
  const size_t max = static_cast<size_t>(room);
  if (max < 2) return {};
  std::string out(text.substr(0, max - 1));
  out += '~';
  return out;
}

}  // namespace strata::graph
