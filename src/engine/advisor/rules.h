// The advisor's rules, read from a JSON rule file (rules/advisor.json, embedded at build time; the
// README's "Advisor rules" section documents the format). Each rule: which formats it applies
// to, a condition over named figures, a priority, a text and a fix with {figure} placeholders,
// the figure whose time is at stake and the figures whose rows are the evidence.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/advisor/condition.h"

namespace strata {

struct AdvisorRule {
  std::string id, title;
  std::vector<std::string> formats;  // TraceStore::format values; "any" for all
  std::string when;                  // the condition's text
  std::shared_ptr<const Condition> condition;
  int priority = 2;                   // 0 (P0, most urgent) .. 2
  std::string stake;                  // a figure in ns: the time the finding puts at stake, or ""
  std::string text, fix;              // with {figure} placeholders
  std::vector<std::string> evidence;  // figures whose rows the finding links
  std::vector<std::string> needs;     // every figure the rule reads (condition, stake, text)
  // Whether the rule concerns this profile at all ("ascend.profile > 0"): a rule whose
  // `applies` is false, or reads a figure the file lacks, is not applicable rather than not
  // checked. Empty: it applies to every profile of its formats.
  std::string applies;
  std::shared_ptr<const Condition> applies_condition;
};

struct AdvisorRuleSet {
  std::vector<AdvisorRule> rules;
  std::vector<std::string> errors;  // rules left out, and why
};

// Parses a rule file; a malformed rule is left out with an error naming it, the rest is kept.
AdvisorRuleSet parse_advisor_rules(const std::string& json);
// The repository's rules/advisor.json, parsed once.
const AdvisorRuleSet& advisor_default_rules();

// The {name} placeholders of a text, each once.
std::vector<std::string> template_figures(const std::string& text);
// `text` with each {name} replaced by value(name).
std::string fill_template(const std::string& text,
                          const std::function<std::string(const std::string&)>& value);

bool rule_applies_to(const AdvisorRule& r, const std::string& format);

}  // namespace strata
