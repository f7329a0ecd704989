// What several analyses compute alike from the loaded trace (its GPU work, its steps and their
// partition), kept by the engine for the current trace: computed at the first analysis that
// asks (the GPU work already during the load, for the queue length tracks) and dropped with the
// trace. The Analysis tab's list asks every analysis whether it applies, then the tables and
// every cell click ask again: each is one pass over the store per trace, not per question.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "core/analysis/step_partition.h"
#include "core/analysis/steps.h"

namespace strata {

class Engine;

struct AnalysisCache {
  uint32_t generation = 0;  // the engine's generation and store these were computed for
  const TraceStore* store = nullptr;
  std::optional<GpuWorkSet> gpu;
  std::optional<std::vector<Step>> steps;
  std::optional<std::vector<StepBreakdown>> step_parts;  // partition_steps(), no event lists
};

const GpuWorkSet& shared_gpu_work(const Engine& engine);
const std::vector<Step>& shared_steps(const Engine& engine);
const std::vector<StepBreakdown>& shared_step_parts(const Engine& engine);
// The load computed the GPU work of the trace it just installed: keep it.
void seed_shared_gpu_work(const Engine& engine, GpuWorkSet gpu);

}  // namespace strata
