// The `queue_length` analysis: per GPU device and stream, HTA's queue length (work launched and
// not finished) summarised: its maximum and when, its time-weighted mean, the time at the CUDA
// runtime's stall depth (core/analysis/queue_length.h).
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool queue_length_available(const Engine& engine, std::string* why);
AnalysisTable queue_length_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
