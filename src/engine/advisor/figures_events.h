// The advisor's figures read from the trace's events by name: the DataLoader's batch fetches
// and Python's garbage collections (msprof-analyze's slow-dataloader and GC checks), and the
// Ascend inputs the report cannot read yet, marked missing with what they need.
#pragma once

#include "engine/advisor/figures.h"

namespace strata {

void event_figures(const Engine& engine, AdvisorFigureSet* f);

}  // namespace strata
