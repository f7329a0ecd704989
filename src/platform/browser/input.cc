#include "platform/browser/input.h"

#include <emscripten/html5.h>

#include <cstring>
#include <string>
#include <vector>

#include "imgui.h"
#include "platform/browser/key_queue.h"
#include "platform/browser/redraw.h"

// ImGui's copies (Ctrl+C in a text box, a "Copy" menu item) go to the system clipboard too. A
// page without clipboard access (an insecure origin, a frame without permission) keeps them in
// ImGui alone, as before.
EM_JS(void, strata_js_copy_text, (const char* text), {
  const s = UTF8ToString(text);
  if (navigator.clipboard && navigator.clipboard.writeText)
    navigator.clipboard.writeText(s).catch(function(){});
});

namespace strata {

namespace {

InputSink g_sink;
std::string
    g_clipboard;  // what paste gives back inside ImGui (reading the system's needs a prompt)
// Dear ImGui 1.86 samples button state once per frame, so a press and release inside one frame
// (a quick click, a double click while frames are slow, a scripted one) would be lost: button
// changes wait here and reach ImGui one per frame each. Clicks are counted by the events' own
// times, not the frames', so a double click stays one however slow the frames that carry it.
// A change also waits for the key events heard before it (a click after fast typing lands after
// the typing, not amid it).
struct ButtonChange {
  bool down;
  double ms;  // when the browser saw it
  ImVec2 pos;
  uint64_t keys_before;  // key_queue_mark() when it came
};
std::vector<ButtonChange> g_button_queue[3];      // changes not handed to ImGui yet
bool g_button_handed[3] = {false, false, false};  // a change went into the frame being built
int g_press_count[3] = {0, 0, 0};                 // that change's click count, when it is a press
int g_click_run[3] = {0, 0, 0};  // presses in a row within the double-click time and distance
double g_last_press_ms[3] = {-1e9, -1e9, -1e9};
ImVec2 g_last_press_pos[3];

void hand_button(int b) {
  ImGuiIO& io = ImGui::GetIO();
  const ButtonChange c = g_button_queue[b].front();
  g_button_queue[b].erase(g_button_queue[b].begin());
  io.MouseDown[b] = c.down;
  g_button_handed[b] = true;
  if (!c.down) return;
  io.MousePos = c.pos;  // where it was pressed, even when later moves were heard first
  const float dx = c.pos.x - g_last_press_pos[b].x, dy = c.pos.y - g_last_press_pos[b].y;
  const bool again = c.ms - g_last_press_ms[b] < io.MouseDoubleClickTime * 1000.0 &&
                     dx * dx + dy * dy < io.MouseDoubleClickMaxDist * io.MouseDoubleClickMaxDist;
  g_click_run[b] = again ? g_click_run[b] + 1 : 1;
  g_last_press_ms[b] = c.ms;
  g_last_press_pos[b] = c.pos;
  g_press_count[b] = g_click_run[b];
}
// Keys, typed characters and modifiers reach ImGui a frame's worth at a time (key_queue.h).
KeyQueue g_keys;

// Hands ImGui what the queue lets into the frame being built.
void sync_keys() {
  ImGuiIO& io = ImGui::GetIO();
  for (int k = 1; k < kMaxQueuedKeys; ++k) io.KeysDown[k] = g_keys.down[k];
  io.KeyCtrl = g_keys.mods.ctrl;
  io.KeyShift = g_keys.mods.shift;
  io.KeyAlt = g_keys.mods.alt;
  io.KeySuper = g_keys.mods.super;
  if (!g_keys.typed.empty()) {
    io.AddInputCharactersUTF8(g_keys.typed.c_str());
    g_keys.typed.clear();
  }
}

void set_modifiers(bool ctrl, bool shift, bool alt, bool super) {
  key_queue_mods(&g_keys, KeyMods{ctrl, shift, alt, super});
  sync_keys();
}

// Our key indices for ImGui 1.86's io.KeysDown[] / io.KeyMap.
enum Key {
  kTab = 1,
  kLeft,
  kRight,
  kUp,
  kDown,
  kPageUp,
  kPageDown,
  kHome,
  kEnd,
  kInsert,
  kDelete,
  kBackspace,
  kSpace,
  kEnter,
  kEscape,
  kKeyPadEnter,
  kA,
  kC,
  kV,
  kX,
  kY,
  kZ,
  kKeyCount
};
static_assert(kKeyCount <= kMaxQueuedKeys, "the key queue tracks every key ImGui reads");

int key_index(const char* code) {
  struct Map {
    const char* code;
    int key;
  };
  static const Map kMap[] = {{"Tab", kTab},
                             {"ArrowLeft", kLeft},
                             {"ArrowRight", kRight},
                             {"ArrowUp", kUp},
                             {"ArrowDown", kDown},
                             {"PageUp", kPageUp},
                             {"PageDown", kPageDown},
                             {"Home", kHome},
                             {"End", kEnd},
                             {"Insert", kInsert},
                             {"Delete", kDelete},
                             {"Backspace", kBackspace},
                             {"Space", kSpace},
                             {"Enter", kEnter},
                             {"Escape", kEscape},
                             {"NumpadEnter", kKeyPadEnter},
                             {"KeyA", kA},
                             {"KeyC", kC},
                             {"KeyV", kV},
                             {"KeyX", kX},
                             {"KeyY", kY},
                             {"KeyZ", kZ}};
  for (const Map& m : kMap)
    if (std::strcmp(code, m.code) == 0) return m.key;
  return 0;
}

// A key event kept while the keyboard moves into a text box (InputSink::hold_keys).
struct HeldKey {
  std::string code, key;
  bool down, repeat, shift, ctrl, alt, meta;
};
std::vector<HeldKey> g_held;
int g_held_frames = 0;  // frames drawn since the hold began
bool g_holding = false;

// One key event into the app's keymap and ImGui; returns whether it was used.
bool take_key(const RawKey& raw) {
  ImGuiIO& io = ImGui::GetIO();
  key_queue_mods(&g_keys, KeyMods{raw.ctrl, raw.shift, raw.alt, raw.meta});
  const int k = key_index(raw.code);
  bool handled = g_sink.key && g_sink.key(g_sink.ctx, raw);
  // A key's character goes in before its press (ImGui reads characters first).
  if (!handled && raw.down && io.WantTextInput && !raw.ctrl && !raw.meta &&
      std::strlen(raw.key) <= 4 && static_cast<unsigned char>(raw.key[0]) >= 0x20) {
    key_queue_chars(&g_keys, raw.key);
    handled = true;
  }
  if (k) key_queue_key(&g_keys, k, raw.down);
  sync_keys();
  // Let the browser have everything else (reload, devtools, copy...) unless ImGui is typing.
  return handled || (io.WantTextInput && k);
}

// Lets the held keys in, in order, once the text box has the keyboard (or it never came).
void release_held_keys() {
  g_holding = false;
  g_held_frames = 0;
  const std::vector<HeldKey> held = std::move(g_held);
  g_held.clear();
  for (const HeldKey& h : held)
    take_key(
        RawKey{h.code.c_str(), h.key.c_str(), h.down, h.repeat, h.shift, h.ctrl, h.alt, h.meta});
}

EM_BOOL on_key(int type, const EmscriptenKeyboardEvent* e, void*) {
  request_redraw();
  const RawKey raw{e->code,        e->key,           type == EMSCRIPTEN_EVENT_KEYDOWN,
                   e->repeat != 0, e->shiftKey != 0, e->ctrlKey != 0,
                   e->altKey != 0, e->metaKey != 0};
  if (g_holding) {
    g_held.push_back(
        {e->code, e->key, raw.down, raw.repeat, raw.shift, raw.ctrl, raw.alt, raw.meta});
    // It will most likely be typed into the box: keep it from the browser, shortcuts aside.
    return raw.ctrl || raw.meta ? EM_FALSE : EM_TRUE;
  }
  const bool used = take_key(raw);
  // A key that moves the keyboard into a text box (/ to search): the keys after it wait for
  // the box, which takes the keyboard a couple of frames later, instead of being shortcuts.
  if (used && raw.down && g_sink.hold_keys && g_sink.hold_keys(g_sink.ctx, 0)) g_holding = true;
  return used ? EM_TRUE : EM_FALSE;
}

EM_BOOL on_blur(int, const EmscriptenFocusEvent*, void*) {
  request_redraw();
  // Keys released while the page had no focus never send keyup: forget them all.
  ImGuiIO& io = ImGui::GetIO();
  std::memset(io.KeysDown, 0, sizeof io.KeysDown);
  key_queue_clear(&g_keys);
  g_held.clear();
  g_holding = false;
  g_held_frames = 0;
  sync_keys();
  if (g_sink.focus_lost) g_sink.focus_lost(g_sink.ctx);
  return EM_FALSE;
}

EM_BOOL on_mouse(int type, const EmscriptenMouseEvent* e, void*) {
  request_redraw();
  ImGuiIO& io = ImGui::GetIO();
  // A release is heard on the window (its coordinates are not the canvas's): buttons only.
  if (type != EMSCRIPTEN_EVENT_MOUSEUP)
    io.MousePos = ImVec2(static_cast<float>(e->targetX), static_cast<float>(e->targetY));
  set_modifiers(e->ctrlKey, e->shiftKey, e->altKey, e->metaKey);
  int b = e->button == 0 ? 0 : e->button == 2 ? 1 : e->button == 1 ? 2 : -1;
  if (b >= 0 && type == EMSCRIPTEN_EVENT_MOUSEDOWN) {
    if (g_sink.pointer_down) g_sink.pointer_down(g_sink.ctx, e->ctrlKey || e->metaKey, e->shiftKey);
  }
  if (b >= 0 && (type == EMSCRIPTEN_EVENT_MOUSEDOWN || type == EMSCRIPTEN_EVENT_MOUSEUP)) {
    g_button_queue[b].push_back({type == EMSCRIPTEN_EVENT_MOUSEDOWN, emscripten_get_now(),
                                 io.MousePos, key_queue_mark(g_keys)});
    if (!g_button_handed[b] && key_queue_shown(g_keys, g_button_queue[b].back().keys_before))
      hand_button(b);
  }
  if (type == EMSCRIPTEN_EVENT_MOUSELEAVE) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  return type == EMSCRIPTEN_EVENT_MOUSEDOWN ? EM_TRUE : EM_FALSE;
}

EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void*) {
  request_redraw();
  ImGuiIO& io = ImGui::GetIO();
  // Normalise: a mouse notch is ~100 px in pixel mode, 3 lines in line mode, 1 in page mode.
  double scale = e->deltaMode == DOM_DELTA_PIXEL  ? 1.0 / 100
                 : e->deltaMode == DOM_DELTA_LINE ? 1.0 / 3
                                                  : 1.0;
  io.MouseWheel -= static_cast<float>(e->deltaY * scale);
  io.MouseWheelH -= static_cast<float>(e->deltaX * scale);
  set_modifiers(e->mouse.ctrlKey, e->mouse.shiftKey, e->mouse.altKey, e->mouse.metaKey);
  return EM_TRUE;  // the page itself never scrolls
}

}  // namespace

void input_frame_done() {
  // Events that did not fit the frame just drawn go into the next; ask for it while any wait.
  if (key_queue_next_frame(&g_keys)) request_redraw();
  sync_keys();
  if (g_holding) {
    ++g_held_frames;
    if (g_sink.hold_keys && g_sink.hold_keys(g_sink.ctx, g_held_frames))
      request_redraw();
    else
      release_held_keys();
  }
  for (int b = 0; b < 3; ++b) {
    g_button_handed[b] = false;
    g_press_count[b] = 0;
    if (g_button_queue[b].empty()) continue;
    request_redraw();
    if (key_queue_shown(g_keys, g_button_queue[b].front().keys_before)) hand_button(b);
  }
}

void input_frame_started() {
  ImGuiIO& io = ImGui::GetIO();
  for (int b = 0; b < 3; ++b) {
    if (!io.MouseClicked[b] || g_press_count[b] == 0) continue;
    io.MouseClickedCount[b] = io.MouseClickedLastCount[b] = static_cast<ImU16>(g_press_count[b]);
    io.MouseDoubleClicked[b] = g_press_count[b] == 2;
  }
}

void input_install(const char* canvas, InputSink sink) {
  g_sink = sink;
  ImGuiIO& io = ImGui::GetIO();
  io.KeyMap[ImGuiKey_Tab] = kTab;
  io.KeyMap[ImGuiKey_LeftArrow] = kLeft;
  io.KeyMap[ImGuiKey_RightArrow] = kRight;
  io.KeyMap[ImGuiKey_UpArrow] = kUp;
  io.KeyMap[ImGuiKey_DownArrow] = kDown;
  io.KeyMap[ImGuiKey_PageUp] = kPageUp;
  io.KeyMap[ImGuiKey_PageDown] = kPageDown;
  io.KeyMap[ImGuiKey_Home] = kHome;
  io.KeyMap[ImGuiKey_End] = kEnd;
  io.KeyMap[ImGuiKey_Insert] = kInsert;
  io.KeyMap[ImGuiKey_Delete] = kDelete;
  io.KeyMap[ImGuiKey_Backspace] = kBackspace;
  io.KeyMap[ImGuiKey_Space] = kSpace;
  io.KeyMap[ImGuiKey_Enter] = kEnter;
  io.KeyMap[ImGuiKey_Escape] = kEscape;
  io.KeyMap[ImGuiKey_KeyPadEnter] = kKeyPadEnter;
  io.KeyMap[ImGuiKey_A] = kA;
  io.KeyMap[ImGuiKey_C] = kC;
  io.KeyMap[ImGuiKey_V] = kV;
  io.KeyMap[ImGuiKey_X] = kX;
  io.KeyMap[ImGuiKey_Y] = kY;
  io.KeyMap[ImGuiKey_Z] = kZ;
  io.SetClipboardTextFn = [](void*, const char* text) {
    g_clipboard = text ? text : "";
    strata_js_copy_text(g_clipboard.c_str());
  };
  io.GetClipboardTextFn = [](void*) { return g_clipboard.c_str(); };
  const char* win = EMSCRIPTEN_EVENT_TARGET_WINDOW;
  emscripten_set_keydown_callback(win, nullptr, EM_TRUE, on_key);
  emscripten_set_keyup_callback(win, nullptr, EM_TRUE, on_key);
  emscripten_set_blur_callback(win, nullptr, EM_TRUE, on_blur);
  emscripten_set_mousedown_callback(canvas, nullptr, EM_TRUE, on_mouse);
  // Moves and releases are tracked on the window so a drag that leaves the canvas still ends.
  emscripten_set_mousemove_callback(canvas, nullptr, EM_TRUE, on_mouse);
  emscripten_set_mouseup_callback(win, nullptr, EM_TRUE, on_mouse);
  emscripten_set_mouseleave_callback(canvas, nullptr, EM_TRUE, on_mouse);
  emscripten_set_wheel_callback(canvas, nullptr, EM_FALSE, on_wheel);
}

}  // namespace strata
