#include "ui/exports/ui_app.h"

namespace strata {
namespace {
App* g_app = nullptr;
}  // namespace

App* ui_app() { return g_app; }

App* ui_app_create() {
  if (!g_app) g_app = new App();
  return g_app;
}

}  // namespace strata
