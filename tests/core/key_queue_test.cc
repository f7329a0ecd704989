// Keyboard events reach ImGui in frame-sized steps that keep their meaning: Ctrl+A then
// Backspace between two frames must select all, then delete, not delete a word.
#include "platform/browser/key_queue.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

constexpr int kA = 17, kBackspace = 12;
const KeyMods kCtrl{true, false, false, false};
const KeyMods kNone{};

// What one frame shows: the keys down, the modifiers, the characters typed.
struct Frame {
  bool a, backspace;
  KeyMods mods;
  std::string typed;
};
Frame take(KeyQueue* q) {
  Frame f{q->down[kA], q->down[kBackspace], q->mods, q->typed};
  q->typed.clear();
  return f;
}

TEST(KeyQueue, CtrlAThenBackspaceInOneGapTakeTwoFrames) {
  KeyQueue q;
  // All of it between two frames (a fast typist, or a script).
  key_queue_mods(&q, kCtrl);
  key_queue_key(&q, kA, true);
  key_queue_key(&q, kA, false);
  key_queue_mods(&q, kNone);
  key_queue_key(&q, kBackspace, true);
  key_queue_key(&q, kBackspace, false);
  Frame f1 = take(&q);
  EXPECT_TRUE(f1.a);
  EXPECT_FALSE(f1.backspace) << "Backspace with Ctrl still held would delete a word";
  EXPECT_EQ(f1.mods, kCtrl);
  ASSERT_TRUE(key_queue_next_frame(&q));
  Frame f2 = take(&q);
  EXPECT_FALSE(f2.a);
  EXPECT_TRUE(f2.backspace);
  EXPECT_EQ(f2.mods, kNone);
  EXPECT_FALSE(key_queue_next_frame(&q)) << "the release goes in with the next frame";
  EXPECT_FALSE(q.down[kBackspace]);
}

TEST(KeyQueue, CharactersAfterCtrlAAreNotTypedWithCtrl) {
  KeyQueue q;
  key_queue_mods(&q, kCtrl);
  key_queue_key(&q, kA, true);
  key_queue_key(&q, kA, false);
  key_queue_mods(&q, kNone);
  key_queue_chars(&q, "x");
  key_queue_chars(&q, "y");
  Frame f1 = take(&q);
  EXPECT_EQ(f1.typed, "") << "ImGui drops characters typed while Ctrl is held";
  key_queue_next_frame(&q);
  Frame f2 = take(&q);
  EXPECT_EQ(f2.mods, kNone);
  EXPECT_EQ(f2.typed, "xy");
}

TEST(KeyQueue, AKeysOwnCharacterGoesInWithItsPress) {
  KeyQueue q;
  key_queue_chars(&q, "a");  // as input.cc submits a key down: its character, then the key
  key_queue_key(&q, kA, true);
  Frame f = take(&q);
  EXPECT_EQ(f.typed, "a");
  EXPECT_TRUE(f.a);
  EXPECT_TRUE(q.waiting.empty());
}

TEST(KeyQueue, APressAndReleaseInOneGapIsSeen) {
  KeyQueue q;
  key_queue_key(&q, kBackspace, true);
  key_queue_key(&q, kBackspace, false);
  key_queue_key(&q, kBackspace, true);
  key_queue_key(&q, kBackspace, false);
  int presses = 0;
  bool was = false;
  for (int frame = 0; frame < 8; ++frame) {
    if (q.down[kBackspace] && !was) ++presses;
    was = q.down[kBackspace];
    if (!key_queue_next_frame(&q) && !q.down[kBackspace]) break;
  }
  EXPECT_EQ(presses, 2) << "each press gets a frame of its own";
}

TEST(KeyQueue, RepeatsAndUnchangedModifiersAreDropped) {
  KeyQueue q;
  key_queue_key(&q, kA, true);
  key_queue_key(&q, kA, true);  // auto-repeat: already down
  key_queue_mods(&q, kNone);    // a mouse move, no modifier changed
  EXPECT_TRUE(q.waiting.empty());
  key_queue_clear(&q);
  EXPECT_FALSE(q.down[kA]);
  key_queue_key(&q, kA, false);  // its release after the focus came back: nothing to do
  EXPECT_TRUE(q.waiting.empty());
}

TEST(KeyQueue, AMarkIsShownOnceTheKeysBeforeItHaveBeenDrawn) {
  KeyQueue q;
  // Three Backspaces in one gap, then a click (its mark): the click must wait for all three.
  for (int i = 0; i < 3; ++i) {
    key_queue_key(&q, kBackspace, true);
    key_queue_key(&q, kBackspace, false);
  }
  const uint64_t mark = key_queue_mark(q);
  int presses = 0, frames_before = 0;
  bool was = false;
  while (!key_queue_shown(q, mark)) {
    if (q.down[kBackspace] && !was) ++presses;
    was = q.down[kBackspace];
    key_queue_next_frame(&q);
    ASSERT_LT(++frames_before, 16) << "the keys are let in";
  }
  EXPECT_EQ(presses, 3) << "every press was drawn before the mark is shown";
  EXPECT_FALSE(q.down[kBackspace]);
  EXPECT_TRUE(q.waiting.empty());
  // A key let in straight into the frame being built is not shown until that frame is drawn.
  key_queue_key(&q, kA, true);
  const uint64_t after = key_queue_mark(q);
  EXPECT_TRUE(q.down[kA]);
  EXPECT_FALSE(key_queue_shown(q, after));
  key_queue_next_frame(&q);
  EXPECT_TRUE(key_queue_shown(q, after));
  // Nothing queued: a mark is shown at once.
  EXPECT_TRUE(key_queue_shown(q, key_queue_mark(q)));
}

TEST(KeyQueue, MarksTakenBeforeTheFocusIsLostAreMet) {
  KeyQueue q;
  key_queue_key(&q, kBackspace, true);
  key_queue_key(&q, kBackspace, false);
  const uint64_t mark = key_queue_mark(q);
  key_queue_clear(&q);  // the keys waiting are gone: nothing is left to wait for
  EXPECT_TRUE(key_queue_shown(q, mark));
}

}  // namespace
}  // namespace strata
