// Browser input, through Emscripten's html5 callbacks: mouse, wheel and the keys Dear ImGui
// reads go to ImGui's IO; every key press and release, and the moments the app's bindings
// care about (a button going down, the page losing focus), go raw to the sink the app installs.
// What a key means is the app's keymap's business (src/ui/input/keymap.h), not this layer's.
#pragma once

namespace strata {

// One key event as the browser gave it.
struct RawKey {
  const char* code;  // KeyboardEvent.code: the key's position ("KeyW", "Slash", "Enter")
  const char* key;   // KeyboardEvent.key: what it types on the user's layout ("w", "?")
  bool down, repeat;
  bool shift, ctrl, alt, meta;
};

// Where raw input goes. key returns true when the app used the key (the browser then does not
// act on it, and it is not typed into a text box).
struct InputSink {
  void* ctx = nullptr;
  bool (*key)(void* ctx, const RawKey& k) = nullptr;
  void (*pointer_down)(void* ctx, bool ctrl, bool shift) = nullptr;  // ctrl: ctrl or meta
  void (*focus_lost)(void* ctx) = nullptr;
  // Asked after a key the app used went down, then after each frame (`frames`: drawn since):
  // true while that key is moving the keyboard into a text box that has not taken it yet. The
  // keys after it wait meanwhile, so what is typed right after "/" goes into the search box.
  bool (*hold_keys)(void* ctx, int frames) = nullptr;
};

// Installs the callbacks on `canvas_selector` (mouse, wheel) and the window (keys).
void input_install(const char* canvas_selector, InputSink sink);
// Call right after ImGui::NewFrame(): a press's click count is the events' (double clicks by
// the browser's clock, not the frames').
void input_frame_started();
// Call once at the end of every frame (hands ImGui the next button change held back).
void input_frame_done();

}  // namespace strata
