// The Memory tab and the Memory Viewer one click apart for the same XLA module: the Memory
// tab's "Open in Memory Viewer" (the module its live instant falls in, at the op's program
// point when there is one) and the Memory Viewer's "Show in Memory tab" (the module's run with
// the most memory, on its device) are asks their views leave for the App, taken after the frame.
#pragma once

namespace strata {

struct App;

// Takes either view's ask: the other view on the module, its tab brought forward.
void memory_links_apply(App* app);

}  // namespace strata
