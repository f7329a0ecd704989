// Keyboard input in frame-sized steps. Dear ImGui 1.86 reads the keyboard once per frame, as a
// state (which keys are down, which modifiers held, what was typed), so several events between
// two frames merge into one state, and ImGui then misreads them: Ctrl+A then Backspace inside
// one frame reads as Ctrl+Backspace (a word deleted, nothing selected), characters typed right
// after Ctrl+A are dropped (typed with Ctrl held), a key pressed and released is never seen.
// Events go through this queue instead, and each frame takes only as many as it can show as
// they happened; the rest wait for the next frames (ImGui 1.87 added the same "trickling").
// Plain data and rules, no browser and no ImGui (tests/core checks them).
#pragma once
#include <cstdint>
#include <deque>
#include <string>

namespace strata {

constexpr int kMaxQueuedKeys = 64;  // key indices the queue tracks: 0 .. kMaxQueuedKeys - 1

struct KeyMods {
  bool ctrl = false, shift = false, alt = false, super = false;
  bool operator==(const KeyMods& o) const {
    return ctrl == o.ctrl && shift == o.shift && alt == o.alt && super == o.super;
  }
  bool operator!=(const KeyMods& o) const { return !(*this == o); }
};

struct KeyInput {
  enum Kind : uint8_t { kKey, kChars, kMods } kind = kKey;
  int key = 0;
  bool down = false;
  std::string text;  // kChars: UTF-8
  KeyMods mods;      // kMods
};

struct KeyQueue {
  // What the frame being built is shown: handed to ImGui as it changes. `typed` collects the
  // characters let in since the caller last took them.
  bool down[kMaxQueuedKeys] = {};
  KeyMods mods;
  std::string typed;
  std::deque<KeyInput> waiting;  // events for later frames, in order
  // The state once everything waiting is let in: an event that changes nothing (a key
  // repeat, a mouse move with the same modifiers) is dropped.
  bool latest_down[kMaxQueuedKeys] = {};
  KeyMods latest_mods;
  // What this frame has let in so far.
  bool changed[kMaxQueuedKeys] = {};
  bool pressed = false;  // a key went down: ImGui acts on one press per frame, with its modifiers
  bool chars = false;    // characters were typed: ImGui reads them with this frame's modifiers,
                         // before its keys (so a key's own character goes in before its press)
  // Events counted as they come and as they are let in, so that input queued elsewhere (mouse
  // buttons) can wait for the keys that came before it: a click right after fast typing must
  // not land while the last keys still wait (it would take the keyboard from the text box
  // they were typed into).
  uint64_t submitted = 0;       // events queued or let in, ever
  uint64_t admitted = 0;        // events let in, ever
  uint64_t admitted_shown = 0;  // of those, the ones let in before the frame being built
};

void key_queue_key(KeyQueue* q, int key, bool down);
void key_queue_chars(KeyQueue* q, const char* utf8);
void key_queue_mods(KeyQueue* q, const KeyMods& mods);
// A frame has been drawn: the next one starts and lets in what it can. True when events still
// wait (ask for another frame).
bool key_queue_next_frame(KeyQueue* q);
// A mark for an event that comes now from elsewhere: key_queue_shown(q, mark) is true once
// every key event before it has been shown in a frame already drawn.
inline uint64_t key_queue_mark(const KeyQueue& q) { return q.submitted; }
inline bool key_queue_shown(const KeyQueue& q, uint64_t mark) { return q.admitted_shown >= mark; }
// The page lost focus: keys released elsewhere never send their release, so all are up.
void key_queue_clear(KeyQueue* q);

}  // namespace strata
