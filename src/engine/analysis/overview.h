// The `overview` analysis: XProf's step-time breakdown. Per step, the partition of its time by
// overlap priority (core/analysis/step_partition.h), per group of steps the mean and the
// standard deviation, XProf's verdict lines with its thresholds, the duty cycle, and the ten
// device ops that take the most time in the steps.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool overview_available(const Engine& engine, std::string* why);
AnalysisTable overview_table(const Engine& engine, const QueryArgs& args);

// The events behind a step's part cell (the select query's part mode): those owning time in
// part `part_key` of the step whose store event is `step_event`, sorted; none when no step has
// that event or the key names no part (idle has no events).
std::vector<uint32_t> overview_part_events(const Engine& engine, uint32_t step_event,
                                           std::string_view part_key);

}  // namespace strata
