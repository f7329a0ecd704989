// Calls from the Runs tab (src/ui/runs) out to web/page/runs.js (through Module.strataHost).
#pragma once
#include <cstdint>

namespace strata {

void host_open_folder_picker();
// The UI's selection changed to run / profile (indices of the discovery) and view (RunView):
// the page fetches what that view needs (statistics, or the profile's trace for Trace/Memory).
void host_runs_select(int run, int profile, int view);
// The operator grouping changed (the UI has it already): the page fetches the tables again.
void host_runs_group_by_shape(bool on);
// Diff profile (a_run, a_profile) against (b_run, b_profile) at `step` ("" = all steps).
void host_runs_diff(int a_run, int a_profile, int b_run, int b_profile, const char* step);

}  // namespace strata
