#include "platform/browser/runs_host.h"

#include <emscripten/emscripten.h>

EM_JS(void, strata_js_open_folder_picker, (), { Module.strataHost.openFolderPicker(); });
EM_JS(void, strata_js_runs_select, (int run, int profile, int view),
      { Module.strataHost.runsSelect(run, profile, view); });
EM_JS(void, strata_js_runs_group, (int on), { Module.strataHost.runsGroupByShape(!!on); });
EM_JS(void, strata_js_runs_diff, (int ar, int ap, int br, int bp, const char* step),
      { Module.strataHost.runsDiff(ar, ap, br, bp, UTF8ToString(step)); });

namespace strata {

void host_open_folder_picker() { strata_js_open_folder_picker(); }
void host_runs_select(int run, int profile, int view) { strata_js_runs_select(run, profile, view); }
void host_runs_group_by_shape(bool on) { strata_js_runs_group(on ? 1 : 0); }
void host_runs_diff(int a_run, int a_profile, int b_run, int b_profile, const char* step) {
  strata_js_runs_diff(a_run, a_profile, b_run, b_profile, step);
}

}  // namespace strata
