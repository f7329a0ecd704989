// The Analysis tab's part of the URL hash deep link, read and written here so the page only
// forwards the hash: #tab=analysis&analysis=<name>&op=<row name>&step=<N>. `step` picks the step
// chart's bar of step N (ProfilerStep#N, or a step named N) and zooms the timeline to it.
#pragma once
#include <string>

namespace strata {

struct AnalysisLinkParams {
  bool analysis_tab = false;  // tab=analysis
  std::string analysis, op, step;
};

// A hash ("#a=b&c=d" or without '#'), decoded as URLSearchParams does (%XX, '+' is a space).
AnalysisLinkParams parse_analysis_link(const std::string& hash);
// "tab=analysis&analysis=<name>[&op=<op>][&step=<step>]" with the values percent-encoded; ""
// when `analysis` is empty.
std::string analysis_link(const std::string& analysis, const std::string& op,
                          const std::string& step);

}  // namespace strata
