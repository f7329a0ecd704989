// The text of the graph's boxes as drawn: the size it is drawn at for a zoom, and each line cut
// to the box. Names are drawn as they are (no character is replaced or dropped); a line too
// long for its box keeps its start and ends in '~'.
#pragma once
#include <string>
#include <string_view>

namespace strata::graph {

// Box text is laid out for this size (core/graph/graph_message.cc sizes the boxes for it) and
// grows with the zoom up to kLabelMaxScale times it; under kLabelMinPx it is not drawn.
constexpr float kLabelBasePx = 13.f;
constexpr float kLabelMaxScale = 1.5f;
constexpr int kLabelMinPx = 6;
constexpr int kLabelMaxPx = 19;  // kLabelBasePx * kLabelMaxScale, rounded down

// The whole pixel size box text is drawn at for `zoom` (pixels per world unit): the largest at
// or under the scaled base size, so the font is drawn one texel per pixel; 0 when under
// kLabelMinPx (boxes only).
int label_px(float zoom);

// `text` as it fits in `width_px` at `advance_px` per character (a monospace font): whole when
// it fits, else its first characters and '~'; empty when not even two characters fit.
std::string fit_label(std::string_view text, float width_px, float advance_px);

}  // namespace strata::graph
