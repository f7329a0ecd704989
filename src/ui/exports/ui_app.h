// The UI module's one App: created by main() before the frame loop starts, and reached by every
// feature's exports (the ui_* functions the page calls).
#pragma once
#include "ui/app.h"

namespace strata {

App* ui_app();
App* ui_app_create();

}  // namespace strata
