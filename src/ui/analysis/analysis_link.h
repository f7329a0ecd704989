// The Analysis tab's part of the page's deep link (the URL hash):
//   tab=analysis&analysis=<name>&op=<row name>&step=<N>&peakTflops=<n>&peakGBps=<n>
// read from the hash the page hands over and written back from what the tab shows, so a
// link reopens the same analysis, row, chosen step and typed peaks. `step` picks the step
// chart's bar of step N (ProfilerStep#N, or a step named N) and zooms the timeline to it. Values
// are URL-encoded as URLSearchParams writes them ('+' or %20 for a space).
#pragma once
#include <string>
#include <string_view>

namespace strata {

struct AnalysisDeepLink {
  bool analysis_tab = false;  // tab=analysis
  std::string analysis, op, step;
  double peak_tflops = 0, peak_gbps = 0;  // 0: not typed
};

// The hash's keys (without the leading '#'); unknown keys are ignored, bad numbers read as 0.
AnalysisDeepLink parse_analysis_link(std::string_view hash);
// "tab=analysis&analysis=..." with op, step and peaks only when set.
std::string analysis_link_hash(const AnalysisDeepLink& link);
// A peak as the link and the input fields write it: 6 significant digits ("197", "819.5").
std::string peak_text(double v);

}  // namespace strata
