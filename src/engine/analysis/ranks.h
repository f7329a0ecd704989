// The `ranks` analysis: every rank of a multi-file load side by side (core/analysis/ranks.h):
// per rank compute / exposed communication / exposed memcpy / idle and the straggler tests;
// beneath "Collectives", each collective matched across ranks with its latency, arrival skew,
// late rank and bandwidths, linked to the late rank's event.
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool ranks_available(const Engine& engine, std::string* why);
AnalysisTable ranks_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
