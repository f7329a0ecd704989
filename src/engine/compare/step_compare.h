// The step-time breakdowns of two traces side by side: the `overview` analysis's per-step
// partition (core/analysis/step_partition.h) of A's and B's steps, paired by step number when
// the two share some (ProfilerStep#<n>, an xplane step's number), else by order; when either has
// no steps the two line up on their starts, and the note says so.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/step_partition.h"

namespace strata {

class Engine;

enum class StepAlign : uint8_t { kNumber, kOrder, kStart };
const char* step_align_name(StepAlign a);  // "number", "order", "start"

// One step of one side: of the first group of steps (the first thread or device that has them).
struct StepSide {
  int64_t number = -1;  // from the step's name; -1 when it has none
  TimeNs start = 0, dur = 0;
  StepParts parts{};
};

struct StepPair {
  int a = -1, b = -1;  // indices into StepCompare::a / b
};

struct StepCompare {
  StepAlign align = StepAlign::kStart;
  std::string note;
  std::vector<StepSide> a, b;
  std::vector<StepPair> pairs;  // in A's order
  // The absolute times the two timelines line up on: the first pair's step starts, or the
  // traces' starts.
  TimeNs a_align = 0, b_align = 0;
};

// Trailing decimal digits of a step's name ("ProfilerStep#12" → 12), or -1.
int64_t step_number(std::string_view name);

StepCompare compare_steps(const Engine& a, const Engine& b);

}  // namespace strata
