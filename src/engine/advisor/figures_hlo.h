// The figures of the HLO ops a file's XLA Ops rows ran (the hlo_stats table): the share of
// their self time in data-shuffling ops and in collectives, as XProf's smart suggestions read it.
#pragma once

#include "engine/advisor/figures.h"

namespace strata {

void hlo_figures(const Engine& engine, AdvisorFigureSet* f);

}  // namespace strata
