// The advisor: the rules (rules.h) evaluated over the figures of the loaded trace (figures.h)
// into a report: a status, a summary written from the figures, the findings by priority and
// time at stake with their evidence, and every rule the file could not feed listed as not
// checked with what it needs. The `advisor` analysis draws it as a table (the Report view) and
// answers the report as its extra value (strata.report()).
#pragma once
#include <string>
#include <vector>

#include "engine/advisor/figures.h"
#include "engine/advisor/rules.h"
#include "engine/advisor/support_tables.h"
#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

struct AdvisorFinding {
  std::string id, title, text, fix;
  int priority = 2;
  double stake_ns = -1;                       // -1: the rule names no time at stake
  std::vector<const AdvisorFigure*> figures;  // what the rule read, in its order
  std::vector<AdvisorEvidence> evidence;      // the evidence figures' rows
};

struct AdvisorUnchecked {
  std::string id, title;
  std::vector<std::string> needs;  // the absent figures
  std::string why;                 // what the file lacks, in words
};

struct AdvisorReport {
  bool needs_attention = false;  // a P0 or P1 finding
  std::vector<std::string> summary;
  std::vector<AdvisorFinding> findings;  // P0 first, then by time at stake
  std::vector<AdvisorUnchecked> not_checked;
  std::vector<std::string> passed, not_applicable;  // rule ids
  std::vector<std::string> rule_errors;
  std::string format;
  // Below the findings: the step breakdown, top ops, roofline and memory (advisor_table fills
  // them from the engine; advise() leaves them empty).
  std::vector<AdvisorSupportTable> support;
};

// "not checked: needs <what the file lacks>".
std::string unchecked_text(const AdvisorUnchecked& u);

// `figures` must outlive the report (findings point into it).
AdvisorReport advise(const AdvisorRuleSet& rules, const AdvisorFigureSet& figures,
                     const std::string& format);

bool advisor_available(const Engine& engine, std::string* why);
AnalysisTable advisor_table(const Engine& engine, const QueryArgs& args);

// The report as its table (findings with their evidence beneath, the supporting tables, then
// the unchecked and the passed rules) and its extra JSON (protocol/reply_keys_advisor.h), html
// included.
AnalysisTable advisor_report_table(const AdvisorReport& r, const std::string& html);

}  // namespace strata
