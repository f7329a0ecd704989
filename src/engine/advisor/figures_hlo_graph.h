// The advisor's HLO graph detectors, over the modules the graph session holds (the loaded
// xplane's HloProtos and any HLO file opened): data movement left outside any fusion, copies
// that only change the layout, and half-precision values widened to f32 only to be reduced.
// Each instruction found is evidence that opens it in the Graph tab; an instruction the trace
// ran also selects its occurrences, and their time is the figure's time.
#pragma once

#include "engine/advisor/figures.h"

namespace strata {

// `hlo_ops`: the hlo_stats table of the trace (its rows give the instructions' time and
// links), or null when the trace has no XLA ops.
void hlo_graph_figures(const Engine& engine, const AnalysisTable* hlo_ops, AdvisorFigureSet* f);

}  // namespace strata
