// XProf's verdict lines on a step-time breakdown (its input pipeline analyser's bottleneck
// analysis), with its thresholds: what share of the step waits for input, goes to output, to
// launching kernels, to collectives, or to nothing Strata can name.
#pragma once
#include <string>
#include <vector>

#include "core/analysis/step_partition.h"

namespace strata {

// Thresholds in percent of the step time (XProf's op_stats_to_input_pipeline_analysis).
constexpr double kModeratelyInputBoundPct = 5, kHighlyInputBoundPct = 20;
constexpr double kModeratelyOutputBoundPct = 5, kHighlyOutputBoundPct = 20;
constexpr double kModeratelyLaunchBoundPct = 3, kHighlyLaunchBoundPct = 15;
constexpr double kModeratelyAllOtherBoundPct = 3, kHighlyAllOtherBoundPct = 15;
constexpr double kModeratelyCollectivesBoundPct = 3, kHighlyCollectivesBoundPct = 15;

struct StepShares {
  double input = 0;        // (input wait + host→device) / step, percent
  double output = 0;       // device→host / step
  double launch = 0;       // kernel launch / step
  double all_other = 0;    // (other + idle) / step: XProf's "all others" has no idle of its own
  double collectives = 0;  // collectives / step
};

// Over the summed parts of some steps and their summed duration.
StepShares step_shares(const StepParts& total, TimeNs duration);

// One sentence per verdict that applies, the input verdict always first.
std::vector<std::string> step_verdicts(const StepShares& s);

}  // namespace strata
