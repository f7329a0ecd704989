// A chart's rectangle in CSS px (a plot, a bar, a button), as the charts draw it and their
// script-API state reports it. Plain: the charts' maths use it without ImGui.
#pragma once

namespace strata {

struct ChartBox {
  float x = 0, y = 0, w = 0, h = 0;
};

}  // namespace strata
