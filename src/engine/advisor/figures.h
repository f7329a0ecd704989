// The figures the advisor's rules read, each named "<source>.<figure>" (step.input_pct,
// gpu.idle_pct, ...): taken from the analyses' own results (their compute functions and
// tables, never their JSON), so every figure a finding cites is one an analysis view shows.
// A figure the loaded file cannot give is absent, with the reason (the analysis' own why).
#pragma once
#include <string>
#include <vector>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;

// One row behind a figure: what it is and the events it opens (an analysis row's link).
struct AdvisorEvidence {
  std::string label;  // "ProfilerStep#12: Input wait", "kernel ampere_sgemm..."
  AnalysisLink link;
};

struct AdvisorFigure {
  std::string name;  // "step.input_pct"
  double value = 0;
  AnalysisUnit unit = AnalysisUnit::kRatio;
  std::string analysis;  // the analysis view that shows it ("overview", ...)
  std::string label;     // what it is, in words
  std::vector<AdvisorEvidence> evidence;
};

struct AdvisorFigureSet {
  std::vector<AdvisorFigure> figures;
  // Per source ("step", "gpu", ...) the reason its figures are absent.
  std::vector<std::pair<std::string, std::string>> missing;

  const AdvisorFigure* find(const std::string& name) const;
  // Why `name` is absent: its source's reason, or a generic one.
  std::string why_missing(const std::string& name) const;
  AdvisorFigure* add(std::string name, double value, AnalysisUnit unit, std::string analysis,
                     std::string label);
  void set_missing(const std::string& source, const std::string& why);
};

// Every figure the loaded trace gives.
AdvisorFigureSet advisor_figures(const Engine& engine);

// A figure's value as a finding writes it ("12.3 %", "4.56 ms", "1.2 GiB", "17").
std::string format_figure(double value, AnalysisUnit unit);

}  // namespace strata
