// Browser input → Dear ImGui IO and the timeline's navigation keys, through Emscripten's html5
// callbacks. Keys are read by KeyboardEvent.code (physical position), so W/A/S/D work on AZERTY
// and other layouts as they do in chrome://tracing.
#pragma once

namespace strata {

struct NavKeys;

// Installs the callbacks on `canvas_selector` (mouse, wheel) and the window (keys).
void input_install(const char* canvas_selector, NavKeys* keys);
// Call once at the end of every frame (applies releases held back for quick clicks).
void input_frame_done();

}  // namespace strata
