// The `overview` analysis: XProf's step-time breakdown. Per step, the partition of its time by
// overlap priority (core/analysis/step_partition.h), per group of steps the mean and the
// standard deviation, XProf's verdict lines with its thresholds, the duty cycle, and the ten
// device ops that take the most time in the steps.
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool overview_available(const Engine& engine, std::string* why);
AnalysisTable overview_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
