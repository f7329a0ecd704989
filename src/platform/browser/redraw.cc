#include "platform/browser/redraw.h"

namespace strata {

namespace {
constexpr int kSettleFrames = 4;
int g_pending = kSettleFrames;  // draw the first frames after start-up
int g_soft = 0;                 // frames asked for by the engine's side, not by the user
double g_last_soft_ms = -1e300;
}  // namespace

void request_redraw() {
  if (g_pending < kSettleFrames) g_pending = kSettleFrames;
}

void request_redraw_frames(int frames) {
  if (frames > g_soft) g_soft = frames;
}

bool take_redraw(double now_ms, double min_soft_interval_ms) {
  if (g_pending > 0) {
    --g_pending;
    if (g_soft > 0) --g_soft;  // this frame shows the engine's change too
    return true;
  }
  if (g_soft <= 0 || now_ms - g_last_soft_ms < min_soft_interval_ms) return false;
  --g_soft;
  g_last_soft_ms = now_ms;
  return true;
}

}  // namespace strata
