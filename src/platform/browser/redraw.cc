#include "platform/browser/redraw.h"

namespace strata {

namespace {
constexpr int kSettleFrames = 4;
int g_pending = kSettleFrames;  // draw the first frames after start-up
}  // namespace

void request_redraw() { g_pending = kSettleFrames; }

bool take_redraw() {
  if (g_pending <= 0) return false;
  --g_pending;
  return true;
}

}  // namespace strata
