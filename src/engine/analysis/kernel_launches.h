// The `kernel_launches` analysis: for every GPU event the file links to the runtime call that
// launched it, the call's time, the kernel's, and the delay between them, by kernel name, with
// HTA's outliers counted (slow runtime calls, late launches, kernels shorter than their launch).
#pragma once
#include <string>

#include "core/base/types.h"
#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

// HTA's default cut-offs.
constexpr TimeNs kSlowRuntimeNs = 50'000;
constexpr TimeNs kLateLaunchNs = 100'000;

bool kernel_launches_available(const Engine& engine, std::string* why);
AnalysisTable kernel_launches_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
