// The roofline's data: the device's peaks (plane stats, else the user's figures), the ridge
// point, and one row per program and per HLO op with its operational intensity, achieved
// FLOP/s and the roof at that intensity. The chart is the Analysis tab's.
//   args {"core": index | plane name | "all", "peakTflops", "peakGBps"}
//   extra {"cores", "core", "peaks": {"flopsPerSec", "bytesPerSec", "source", "why"}, "ridge"}
#pragma once
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

bool roofline_available(const Engine& engine, std::string* why);
AnalysisTable roofline_table(const Engine& engine, const QueryArgs& args);

}  // namespace strata
