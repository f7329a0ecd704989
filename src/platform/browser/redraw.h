// Frames are drawn only when something may have changed: input, a message from the engine, a
// held key, a load in progress. An idle Strata costs no CPU or GPU (and, in headless tests on
// software GL, leaves the cores to the engine worker).
#pragma once

namespace strata {

// Asks for the next few frames, for the user's input (Dear ImGui needs a couple to settle hover
// and click state) and what the user holds down or waits on.
void request_redraw();
// Asks for at least `frames` frames for a change from the engine's side (a reply, a progress
// update, a tile still on its way): no hover or click state to settle, and while a file loads
// these frames may be spaced out (see take_redraw), because on a machine without a GPU each
// frame is drawn in software on the cores the engine worker parses on.
void request_redraw_frames(int frames);
// True when this frame should be drawn; counts down the frames asked for. Frames asked for by
// request_redraw_frames are drawn at most once per `min_soft_interval_ms`; the user's are not.
bool take_redraw(double now_ms, double min_soft_interval_ms);

}  // namespace strata
