// Kernel Stats: per GPU kernel name (and beneath it, per kernel + the framework op that
// launched it) how often it ran, its total / average / min / max time and share of all kernel
// time, its launch parameters where the trace records them (Kineto kernel args, kept at
// import: core/store/kernel_launches.h) and whether its name says it uses tensor cores.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/store/trace_store.h"
#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

// XProf's heuristic: the kernel's name contains one of the patterns cuBLAS / cuDNN / CUTLASS
// give their tensor-core kernels (h884, s1688, hmma, xmma_gemm, ...). A guess from the name,
// not a measurement.
bool kernel_name_uses_tensor_cores(std::string_view name);

// The store's GPU kernels: Kineto events of the kernel category, and on xplanes the events of
// a GPU device plane's stream lines.
std::vector<uint32_t> kernel_events(const TraceStore& s);

bool kernel_stats_available(const Engine& engine, std::string* why);
AnalysisTable kernel_stats_run(const Engine& engine, const QueryArgs& args);
// `display_of` as for framework_op_stats_table.
AnalysisTable kernel_stats_table(const TraceStore& s, const std::vector<uint32_t>& display_of = {});

}  // namespace strata
