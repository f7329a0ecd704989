// Fonts for the graph's box text, one per whole pixel size it is drawn at. The UI font is a
// bitmap font baked at 13 px: drawn scaled down, its glyph quads shrink under a pixel and thin
// marks ('.', '-', '_', ',') then cover no pixel centre and vanish ("fusion.2" read "fusion 2").
// Each size here is rasterised from the font's outlines and drawn one texel per device pixel.
#pragma once

struct ImFont;
struct ImFontAtlas;

namespace strata {

// Adds the sizes to the atlas (after the UI's own font, which stays the default); called when
// the atlas is rebuilt for a device pixel ratio.
void graph_fonts_add(ImFontAtlas* atlas, float dpr);

// The font for box text of `px` CSS pixels (graph::label_px) and, in *size, the size to pass
// to ImDrawList::AddText for it; nullptr before graph_fonts_add or for a size not added.
ImFont* graph_font(int px, float* size);

}  // namespace strata
