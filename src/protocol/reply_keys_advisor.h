// Keys of the advisor's report: the `advisor` analysis' extra value, which strata.report()
// returns as is, and which the Report view reads (status, summary, html) through these constants.
#pragma once
#include <string_view>

#include "protocol/reply_keys.h"

namespace strata::protocol::keys {

// {status, summary: [text], findings: [finding], notChecked: [unchecked], passed: [id],
//  notApplicable: [id], ruleErrors: [text], format, html, support: [table]}
namespace advisor_report {
inline constexpr std::string_view kStatus = "status";  // "OPTIMAL" | "NEEDS_ATTENTION"
inline constexpr std::string_view kSummary = "summary";
inline constexpr std::string_view kFindings = "findings";
inline constexpr std::string_view kNotChecked = "notChecked";
inline constexpr std::string_view kPassed = "passed";
inline constexpr std::string_view kNotApplicable = "notApplicable";
inline constexpr std::string_view kRuleErrors = "ruleErrors";
inline constexpr std::string_view kFormat = "format";
inline constexpr std::string_view kHtml = "html";  // the self-contained HTML export
inline constexpr std::string_view kSupport = "support";
}  // namespace advisor_report

// One of support (the tables below the findings): {title, analysis, missing (what the file
// lacks for it, "" when it has rows), row (its group row in the table), rows: [{name, ns: ns |
// null, text, row}]}.
namespace advisor_support {
inline constexpr std::string_view kTitle = "title";
inline constexpr std::string_view kAnalysis = "analysis";
inline constexpr std::string_view kMissing = "missing";
inline constexpr std::string_view kRow = "row";
inline constexpr std::string_view kRows = "rows";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kNs = "ns";
inline constexpr std::string_view kText = "text";
}  // namespace advisor_support

// One of findings: {id, title, priority: "P0".."P2", stakeNs: ns | null, text, fix, row (the
// table row of the finding), figures: [figure], evidence: [{label, row, link (an analysis row
// link: name, tracks, programId, module, op, step, part)}]}
namespace advisor_finding {
inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kTitle = "title";
inline constexpr std::string_view kPriority = "priority";
inline constexpr std::string_view kStakeNs = "stakeNs";
inline constexpr std::string_view kText = "text";
inline constexpr std::string_view kFix = "fix";
inline constexpr std::string_view kRow = "row";
inline constexpr std::string_view kFigures = "figures";
inline constexpr std::string_view kEvidence = "evidence";
inline constexpr std::string_view kLabel = "label";
inline constexpr std::string_view kLink = "link";
}  // namespace advisor_finding

// One of figures: {name, label, value, text (as the finding writes it), analysis}.
namespace advisor_figure {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kLabel = "label";
inline constexpr std::string_view kValue = "value";
inline constexpr std::string_view kText = "text";
inline constexpr std::string_view kAnalysis = "analysis";
}  // namespace advisor_figure

// One of notChecked: {id, title, needs: [figure], why: what the file lacks}.
namespace advisor_unchecked {
inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kTitle = "title";
inline constexpr std::string_view kNeeds = "needs";
inline constexpr std::string_view kWhy = "why";
}  // namespace advisor_unchecked

}  // namespace strata::protocol::keys

namespace strata::protocol {
// What strata.report() reads of the advisor analysis' reply (its extra value, the report).
inline constexpr std::string_view kAdvisorKeys[] = {keys::analysis::kExtra};
}  // namespace strata::protocol
