#include "ui/input/keymap.h"

#include <cstring>

#include "imgui.h"

namespace strata {
namespace {

// Held navigation keys; returns true when `code` is one of them.
bool nav_key(NavKeys* keys, const char* code, bool down, bool repeat) {
  bool* held = nullptr;
  int* presses = nullptr;
  if (!std::strcmp(code, "KeyW"))
    held = &keys->zoom_in, presses = &keys->zoom_in_presses;
  else if (!std::strcmp(code, "KeyS"))
    held = &keys->zoom_out, presses = &keys->zoom_out_presses;
  else if (!std::strcmp(code, "KeyA"))
    held = &keys->pan_left, presses = &keys->pan_left_presses;
  else if (!std::strcmp(code, "KeyD"))
    held = &keys->pan_right, presses = &keys->pan_right_presses;
  if (!held) return false;
  if (down && !repeat && !*held) ++*presses;
  *held = down;
  return true;
}

// One-shot shortcuts. Letters and digits by position (code); `?` by the character it types,
// since its position differs between layouts.
bool command_key(NavKeys* keys, const RawKey& k) {
  struct Map {
    const char* code;
    Command cmd;
  };
  static const Map kMap[] = {
      {"Digit1", Command::kToolSelect},
      {"Numpad1", Command::kToolSelect},
      {"Digit2", Command::kToolPan},
      {"Numpad2", Command::kToolPan},
      {"Digit3", Command::kToolZoom},
      {"Numpad3", Command::kToolZoom},
      {"Digit4", Command::kToolTiming},
      {"Numpad4", Command::kToolTiming},
      {"KeyF", Command::kZoomToSelection},
      {"KeyM", Command::kMark},
      {"Digit0", Command::kReset},
      {"Numpad0", Command::kReset},
      {"KeyG", Command::kGrid},
      {"Escape", Command::kEscape},
  };
  if (!std::strcmp(k.key, "?")) {
    keys->commands.push_back(Command::kHelp);
    return true;
  }
  if (!std::strcmp(k.code, "Slash") || !std::strcmp(k.code, "NumpadDivide")) {
    keys->commands.push_back(Command::kFocusSearch);
    keys->focus_moving = true;
    return true;
  }
  if (!std::strcmp(k.code, "Enter") || !std::strcmp(k.code, "NumpadEnter")) {
    keys->commands.push_back(k.shift ? Command::kPrevResult : Command::kNextResult);
    return true;
  }
  for (const Map& m : kMap) {
    if (std::strcmp(k.code, m.code) == 0) {
      keys->commands.push_back(m.cmd);
      return true;
    }
  }
  return false;
}

}  // namespace

bool keymap_key(NavKeys* keys, const RawKey& k, bool typing) {
  // With a modifier the key is the browser's (reload, devtools, copy...).
  if (typing || k.ctrl || k.meta || k.alt) return false;
  if (nav_key(keys, k.code, k.down, k.repeat)) return true;
  return k.down && !k.repeat && command_key(keys, k);
}

void keymap_pointer_down(NavKeys* keys, bool ctrl, bool shift) {
  keys->press_ctrl = ctrl;
  keys->press_shift = shift;
}

void keymap_focus_lost(NavKeys* keys) {
  keys->zoom_in = keys->zoom_out = keys->pan_left = keys->pan_right = false;
}

InputSink keymap_sink(NavKeys* keys) {
  InputSink s;
  s.ctx = keys;
  s.key = [](void* ctx, const RawKey& k) {
    return keymap_key(static_cast<NavKeys*>(ctx), k, ImGui::GetIO().WantTextInput);
  };
  s.pointer_down = [](void* ctx, bool ctrl, bool shift) {
    keymap_pointer_down(static_cast<NavKeys*>(ctx), ctrl, shift);
  };
  s.focus_lost = [](void* ctx) { keymap_focus_lost(static_cast<NavKeys*>(ctx)); };
  // The box has the keyboard once ImGui wants text input; a tab without one never does.
  s.hold_keys = [](void* ctx, int frames) {
    NavKeys* keys = static_cast<NavKeys*>(ctx);
    constexpr int kMaxFocusFrames = 8;
    if (ImGui::GetIO().WantTextInput || frames > kMaxFocusFrames) keys->focus_moving = false;
    return keys->focus_moving;
  };
  return s;
}

}  // namespace strata
