#include "engine/analysis/analysis_cache.h"

#include <memory>
#include <utility>

#include "engine/engine.h"

namespace strata {

namespace {

// The cache for the engine's current trace, emptied when the trace changed.
AnalysisCache& cache_of(const Engine& engine) {
  std::shared_ptr<AnalysisCache>& c = engine.analysis_cache();
  if (!c || c->generation != engine.generation() || c->store != engine.store()) {
    c = std::make_shared<AnalysisCache>();
    c->generation = engine.generation();
    c->store = engine.store();
  }
  return *c;
}

}  // namespace

const GpuWorkSet& shared_gpu_work(const Engine& engine) {
  AnalysisCache& c = cache_of(engine);
  if (!c.gpu) c.gpu = find_gpu_work(*engine.store());
  return *c.gpu;
}

const std::vector<Step>& shared_steps(const Engine& engine) {
  const GpuWorkSet& w = shared_gpu_work(engine);
  AnalysisCache& c = cache_of(engine);
  if (!c.steps) c.steps = find_steps(*engine.store(), w);
  return *c.steps;
}

const std::vector<StepBreakdown>& shared_step_parts(const Engine& engine) {
  const std::vector<Step>& steps = shared_steps(engine);
  AnalysisCache& c = cache_of(engine);
  if (!c.step_parts) c.step_parts = partition_steps(*engine.store(), *c.gpu, steps);
  return *c.step_parts;
}

void seed_shared_gpu_work(const Engine& engine, GpuWorkSet gpu) {
  cache_of(engine).gpu = std::move(gpu);
}

}  // namespace strata
