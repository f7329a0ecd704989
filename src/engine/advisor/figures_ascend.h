// The advisor's Ascend figures (msprof-analyze's AI CPU, slow link, packet size and byte
// alignment checks) from the device tasks' types and communication sizes the importers keep
// (core/store/ascend_task_args.h).
#pragma once
#include "engine/advisor/figures.h"

namespace strata {

class Engine;

// ascend.aicpu_* and ascend.comm_*, or the reason each is absent.
void ascend_figures(const Engine& engine, AdvisorFigureSet* f);

}  // namespace strata
