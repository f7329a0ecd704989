// Calls from the Runs tab (src/ui/runs) out to web/runs.js (through Module.strataHost).
#pragma once
#include <cstdint>

namespace strata {

void host_open_folder_picker();
// A selector changed: run / profile (indices of the discovery) and view (RunView).
void host_runs_select(int run, int profile, int view);
void host_runs_group_by_shape(bool on);
// Diff profile (a_run, a_profile) against (b_run, b_profile) at `step` ("" = all steps).
void host_runs_diff(int a_run, int a_profile, int b_run, int b_profile, const char* step);

}  // namespace strata
