// Frames are drawn only when something may have changed: input, a message from the engine, a
// held key, a load in progress. An idle Strata costs no CPU or GPU (and, in headless tests on
// software GL, leaves the cores to the engine worker).
#pragma once

namespace strata {

// Asks for the next few frames (Dear ImGui needs a couple to settle hover and click state).
void request_redraw();
// True when this frame should be drawn; counts down the frames asked for.
bool take_redraw();

}  // namespace strata
