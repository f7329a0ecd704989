// The app's key bindings: raw browser keys (platform/browser/input.h) become navigation state
// and one-shot commands the timeline, memory and graph views consume each frame. Keys are
// matched by KeyboardEvent.code (physical position), so W/A/S/D work on AZERTY and other
// layouts as they do in chrome://tracing.
#pragma once
#include <cstdint>
#include <vector>

#include "platform/browser/input.h"

namespace strata {

// One-shot commands from the keyboard or the toolbar.
enum class Command : uint8_t {
  kToolSelect,
  kToolPan,
  kToolZoom,
  kToolTiming,
  kZoomToSelection,
  kMark,
  kReset,
  kFocusSearch,
  kNextResult,
  kPrevResult,
  kHelp,
  kGrid,
  kEscape,
};

// Keyboard state the keymap fills and the views consume each frame.
struct NavKeys {
  bool zoom_in = false, zoom_out = false, pan_left = false, pan_right = false;  // held
  int zoom_in_presses = 0, zoom_out_presses = 0, pan_left_presses = 0, pan_right_presses = 0;
  std::vector<Command> commands;
  // Modifiers as they were when the mouse button went down: a ctrl-click whose key is released
  // before the next frame is still a ctrl-click.
  bool press_ctrl = false, press_shift = false;
  // The last key asked for the search box, which takes the keyboard a few frames later.
  bool focus_moving = false;
};

// A key went down or up; returns true when it is one of the app's (the browser then does not
// act on it). `typing`: a text box has the keyboard, so no key is a shortcut.
bool keymap_key(NavKeys* keys, const RawKey& k, bool typing);
// A mouse button went down with these modifiers.
void keymap_pointer_down(NavKeys* keys, bool ctrl, bool shift);
// The page lost focus: keys released meanwhile never send keyup, so nothing is held.
void keymap_focus_lost(NavKeys* keys);
// The platform's input sink that feeds `keys` through the functions above.
InputSink keymap_sink(NavKeys* keys);

}  // namespace strata
