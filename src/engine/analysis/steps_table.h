// The `steps` analysis: every step of the trace (core/analysis/steps.h) with its duration and
// the device work in it, grouped by where the steps are (a host thread, a device).
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool steps_available(const Engine& engine, std::string* why);
AnalysisTable steps_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
