// XProf's Op Profile: device time by program → category → HLO op (ops sharing a
// deduplicated_name under one "… and its duplicate(s)" node), per core or for all cores,
// optionally with the idle time as an "IDLE" row.
//   args {"core": index | plane name | "all", "includeIdle": bool, "peakTflops", "peakGBps"}
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool op_profile_available(const Engine& engine, std::string* why);
AnalysisTable op_profile_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
