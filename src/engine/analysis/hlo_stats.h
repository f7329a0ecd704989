// XProf's HLO Stats: one row per (program, HLO op) with its occurrences, times, self time and
// its share, rates, operational intensity and bound-by, and what the file says of it (category,
// expression, framework op, source line, rematerialization, outside compilation).
//   args {"core": index | plane name | "all", "peakTflops", "peakGBps"}
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool hlo_stats_available(const Engine& engine, std::string* why);
AnalysisTable hlo_stats_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
