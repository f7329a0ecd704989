#include "engine/analysis/overview_verdicts.h"

#include <cstdio>

namespace strata {

namespace {

double pct(TimeNs part, TimeNs whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

TimeNs part(const StepParts& p, StepPart which) { return p[static_cast<size_t>(which)]; }

std::string one_digit(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// "highly" / "moderately" / "" for a share against its two thresholds.
const char* degree(double share, double moderately, double highly) {
  return share >= highly ? "Highly" : share >= moderately ? "Moderately" : "";
}

}  // namespace

StepShares step_shares(const StepParts& total, TimeNs duration) {
  StepShares s;
  s.input = pct(part(total, StepPart::kInputWait) + part(total, StepPart::kHostToDevice), duration);
  s.output = pct(part(total, StepPart::kDeviceToHost), duration);
  s.launch = pct(part(total, StepPart::kKernelLaunch), duration);
  s.all_other = pct(part(total, StepPart::kOther) + part(total, StepPart::kIdle), duration);
  s.collectives = pct(part(total, StepPart::kCollectives), duration);
  return s;
}

std::vector<std::string> step_verdicts(const StepShares& s) {
  std::vector<std::string> out;
  bool all_other_said = false;
  if (const char* d = degree(s.input, kModeratelyInputBoundPct, kHighlyInputBoundPct); *d) {
    out.push_back(std::string(d) + " input-bound: " + one_digit(s.input) +
                  " % of the step waits for input (input wait + host to device).");
  } else if (s.all_other >= kModeratelyAllOtherBoundPct) {
    out.push_back("Possibly input-bound: " + one_digit(s.all_other) +
                  " % of the step is other or idle time (I/O, Python or both).");
    all_other_said = true;
  } else {
    out.push_back("Not input-bound: only " + one_digit(s.input) +
                  " % of the step waits for input.");
  }
  if (const char* d = degree(s.output, kModeratelyOutputBoundPct, kHighlyOutputBoundPct); *d)
    out.push_back(std::string(d) + " output-bound: " + one_digit(s.output) +
                  " % of the step copies device to host.");
  if (const char* d = degree(s.launch, kModeratelyLaunchBoundPct, kHighlyLaunchBoundPct); *d)
    out.push_back(std::string(d) + " kernel-launch-bound: " + one_digit(s.launch) +
                  " % of the step launches kernels while the device has nothing to run.");
  if (const char* d =
          degree(s.collectives, kModeratelyCollectivesBoundPct, kHighlyCollectivesBoundPct);
      *d)
    out.push_back(std::string(d) + " collectives-bound: " + one_digit(s.collectives) +
                  " % of the step is communication with no compute beside it.");
  if (const char* d = degree(s.all_other, kModeratelyAllOtherBoundPct, kHighlyAllOtherBoundPct);
      *d && !all_other_said)
    out.push_back(std::string(d) + " bound by other time: " + one_digit(s.all_other) +
                  " % of the step is other or idle (often Python overhead).");
  return out;
}

}  // namespace strata
