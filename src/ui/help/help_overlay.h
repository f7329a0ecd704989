// The `?` overlay: the shortcuts and mouse gestures of the tab shown, then the page-wide ones
// (dropping files and folders, the theme, this help).
#pragma once
#include <cstddef>

namespace strata {

enum class ViewTab;

struct HelpRow {
  const char* keys;
  const char* what;
};
struct HelpRows {
  const char* title;  // "Timeline shortcuts"
  const HelpRow* rows;
  size_t count;
};

// The rows the overlay shows for `tab` (the tab's own, not the page-wide ones).
HelpRows help_rows(ViewTab tab);
// The rows every tab shows below its own.
HelpRows help_page_rows();
// Draws the overlay centred in (w, h) while *open; its close box clears *open.
void help_overlay_draw(bool* open, ViewTab tab, float w, float h);

}  // namespace strata
