// The tables below the report's findings: the step breakdown, the top ops, the roofline and the
// memory, each a few rows from the analyses the findings cite (their figures and their top rows,
// with the same links), or one row saying what the file lacks for it.
#pragma once
#include <string>
#include <vector>

#include "engine/advisor/figures.h"

namespace strata {

class Engine;

struct AdvisorSupportRow {
  std::string name;
  double ns = -1;    // its time; -1: none
  std::string text;  // its other figures, in words
  AnalysisLink link;
};

struct AdvisorSupportTable {
  std::string title;     // "Step breakdown", "Top ops", "Roofline", "Memory"
  std::string analysis;  // the analysis view that shows it whole
  std::vector<AdvisorSupportRow> rows;
  std::string missing;  // what the file lacks for it ("" when it has rows)
};

std::vector<AdvisorSupportTable> advisor_support_tables(const Engine& engine,
                                                        const AdvisorFigureSet& figures);

}  // namespace strata
