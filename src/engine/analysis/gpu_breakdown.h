// The `gpu_breakdown` analysis: per GPU device and stream, how the GPU span divides into
// compute, exposed communication, exposed memcpy and idle (core/analysis/gpu_work.h).
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool gpu_breakdown_available(const Engine& engine, std::string* why);
AnalysisTable gpu_breakdown_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
