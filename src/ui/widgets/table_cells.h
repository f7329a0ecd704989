// Table cells the Runs, Memory and Loss tabs share: text cut to its column with an ellipsis
// (hovering a cut cell shows the whole text), and numbers right-aligned and shortened until
// they fit (the exact value in the tooltip). The cells cut in the last frame are kept for the
// script API (strata.tableCells()), so a test can see what the user reads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// `text` as it fits in `width` pixels: itself, or its longest prefix (whole UTF-8 characters)
// followed by "...".
std::string ellipsize(const std::string& text, float width);

// The current cell's text, cut to the column; `colour` 0 draws in the style's text colour.
void cell_text(const std::string& text, uint32_t colour = 0);
// A number right-aligned in the current cell: `exact` when it fits, else the first of
// `shorter` forms that does ("12,345,678.90" → "12,345,679" → "12.3M"), else an ellipsis.
void cell_number(const std::string& exact, const std::vector<std::string>& shorter = {});
// µs as the tables write them ("1,234.56"), with its shorter forms for cell_number.
void cell_us(double us);

// Any other text cut to fit (a legend's label): recorded with the cells, and the whole text
// shown as a tooltip when the last item is hovered.
void note_cut(const std::string& text, const std::string& shown);

// What a cut cell showed instead of its text.
struct CutCell {
  std::string text, shown;
};
// The cells cut in the most recent frame that drew any, and that frame's number.
const std::vector<CutCell>& table_cells_cut(int* frame);
// {frame, now, cells:[{text, shown}]} for the script API.
std::string table_cells_json();

}  // namespace strata
