#include "platform/browser/key_queue.h"

namespace strata {

namespace {

// Whether this frame can show `e` after what it has already let in, as it happened.
bool fits_this_frame(const KeyQueue& q, const KeyInput& e) {
  switch (e.kind) {
    case KeyInput::kKey:
      // A key's second change (its release after its press) needs a frame between them, and
      // ImGui acts on one press per frame. Characters typed before a press are fine: ImGui
      // reads them first.
      return !q.changed[e.key] && (!e.down || !q.pressed);
    case KeyInput::kChars:
      return !q.pressed;  // ImGui applies characters before keys: after a press, wait
    case KeyInput::kMods:
      // Modifiers apply to the whole frame: a press or a character already in it was made with
      // the old ones.
      return !q.pressed && !q.chars;
  }
  return false;
}

void let_in(KeyQueue* q, const KeyInput& e) {
  ++q->admitted;
  switch (e.kind) {
    case KeyInput::kKey:
      q->down[e.key] = e.down;
      q->changed[e.key] = true;
      q->pressed |= e.down;
      break;
    case KeyInput::kChars:
      q->typed += e.text;
      q->chars = true;
      break;
    case KeyInput::kMods:
      q->mods = e.mods;
      break;
  }
}

void submit(KeyQueue* q, KeyInput e) {
  ++q->submitted;
  if (q->waiting.empty() && fits_this_frame(*q, e))
    let_in(q, e);
  else
    q->waiting.push_back(std::move(e));
}

}  // namespace

void key_queue_key(KeyQueue* q, int key, bool down) {
  if (key <= 0 || key >= kMaxQueuedKeys || q->latest_down[key] == down) return;
  q->latest_down[key] = down;
  KeyInput e;
  e.kind = KeyInput::kKey;
  e.key = key;
  e.down = down;
  submit(q, std::move(e));
}

void key_queue_chars(KeyQueue* q, const char* utf8) {
  if (!utf8 || !*utf8) return;
  KeyInput e;
  e.kind = KeyInput::kChars;
  e.text = utf8;
  submit(q, std::move(e));
}

void key_queue_mods(KeyQueue* q, const KeyMods& mods) {
  if (q->latest_mods == mods) return;
  q->latest_mods = mods;
  KeyInput e;
  e.kind = KeyInput::kMods;
  e.mods = mods;
  submit(q, std::move(e));
}

bool key_queue_next_frame(KeyQueue* q) {
  q->admitted_shown = q->admitted;
  for (bool& c : q->changed) c = false;
  q->pressed = q->chars = false;
  while (!q->waiting.empty() && fits_this_frame(*q, q->waiting.front())) {
    let_in(q, q->waiting.front());
    q->waiting.pop_front();
  }
  return !q->waiting.empty();
}

void key_queue_clear(KeyQueue* q) {
  // The counts go on: marks taken before the clear are met (nothing waits any more).
  const uint64_t n = q->submitted;
  *q = KeyQueue{};
  q->submitted = q->admitted = q->admitted_shown = n;
}

}  // namespace strata
