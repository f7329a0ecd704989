#include "engine/advisor/advisor.h"

#include <algorithm>
#include <cstdio>

#include "core/base/json_writer.h"
#include "engine/advisor/report_html.h"
#include "engine/engine.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_advisor.h"
#include "protocol/reply_keys_links.h"

namespace strata {

namespace {

std::string priority_name(int p) { return "P" + std::to_string(p); }

std::string figure_text(const AdvisorFigureSet& f, const std::string& name) {
  const AdvisorFigure* fig = f.find(name);
  return fig ? format_figure(fig->value, fig->unit) : "?";
}

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void write_summary(const AdvisorFigureSet& f, AdvisorReport* r) {
  size_t by[3] = {};
  for (const AdvisorFinding& x : r->findings) ++by[std::clamp(x.priority, 0, 2)];
  const size_t checked = r->findings.size() + r->passed.size();
  if (r->findings.empty()) {
    r->summary.push_back("None of the " + plural(checked, "rule", "rules") +
                         " checked found a bottleneck in this profile.");
  } else {
    char buf[200];
    std::snprintf(
        buf, sizeof buf, "%s of the %zu checked found something (P0: %zu, P1: %zu, P2: %zu).",
        plural(r->findings.size(), "rule", "rules").c_str(), checked, by[0], by[1], by[2]);
    r->summary.push_back(buf);
  }
  if (const AdvisorFigure* n = f.find("step.count")) {
    std::string s = "The " + plural(static_cast<size_t>(n->value), "step", "steps") + " take " +
                    figure_text(f, "step.mean_ns") + " on average";
    if (f.find("step.duty_cycle_pct"))
      s += "; the device runs work in " + figure_text(f, "step.duty_cycle_pct") + " of that time";
    r->summary.push_back(s + ".");
  } else if (f.find("gpu.idle_pct")) {
    r->summary.push_back("The GPUs are idle " + figure_text(f, "gpu.idle_pct") +
                         " of their span (" + figure_text(f, "gpu.idle_ns") + ").");
  }
  if (!r->findings.empty()) {
    const AdvisorFinding& top = r->findings.front();
    std::string s = "First to look at: " + top.title;
    if (top.stake_ns >= 0) s += ", " + format_figure(top.stake_ns, AnalysisUnit::kNs) + " at stake";
    r->summary.push_back(s + ".");
  }
  if (!r->not_checked.empty()) {
    std::vector<std::string> why;
    for (const AdvisorUnchecked& u : r->not_checked)
      if (std::find(why.begin(), why.end(), u.why) == why.end()) why.push_back(u.why);
    std::string s =
        plural(r->not_checked.size(), "rule was", "rules were") + " not checked: the file lacks ";
    for (size_t i = 0; i < why.size() && i < 3; ++i) s += (i ? "; " : "") + why[i];
    if (why.size() > 3) s += "; ...";
    r->summary.push_back(s + ".");
  }
}

// Table columns.
constexpr int kName = 0, kPriority = 1, kStake = 2, kWhat = 3, kFix = 4, kWhere = 5, kRule = 6;
constexpr int kColumns = 7;

AnalysisRow blank(const char* why) {
  AnalysisRow r;
  r.cells.assign(kColumns, AnalysisCell::empty(why));
  return r;
}

// A rule's `applies` condition over the figures: false when it reads a figure the file lacks.
bool rule_concerns(const AdvisorRule& rule, const AdvisorFigureSet& figures) {
  if (!rule.applies_condition) return true;
  for (const std::string& n : condition_figures(*rule.applies_condition))
    if (!figures.find(n)) return false;
  return evaluate_condition(*rule.applies_condition,
                            [&](const std::string& n) { return figures.find(n)->value; });
}

// The supporting tables: a group row each, its rows beneath (with their links), and their JSON.
void append_support_rows(const AdvisorReport& r, AnalysisTable* t, std::string* x) {
  namespace sk = protocol::keys::advisor_support;
  protocol::append_key(x, protocol::keys::advisor_report::kSupport);
  *x += '[';
  for (size_t i = 0; i < r.support.size(); ++i) {
    const AdvisorSupportTable& s = r.support[i];
    const auto parent = static_cast<int32_t>(t->rows.size());
    AnalysisRow g = blank("a group row");
    g.cells[kName] = AnalysisCell::of(s.title);
    g.cells[kWhere] = AnalysisCell::of(s.analysis);
    if (!s.missing.empty()) g.cells[kWhat] = AnalysisCell::of("not available: " + s.missing);
    t->rows.push_back(std::move(g));
    if (i) *x += ',';
    protocol::append_key(x, sk::kTitle, '{');
    json_append_string(x, s.title);
    protocol::append_key(x, sk::kAnalysis);
    json_append_string(x, s.analysis);
    protocol::append_key(x, sk::kMissing);
    json_append_string(x, s.missing);
    protocol::append_key(x, sk::kRow);
    *x += std::to_string(parent);
    protocol::append_key(x, sk::kRows);
    *x += '[';
    for (size_t k = 0; k < s.rows.size(); ++k) {
      const AdvisorSupportRow& sr = s.rows[k];
      AnalysisRow row = blank("");
      row.parent = parent;
      row.cells[kName] = AnalysisCell::of(sr.name);
      row.cells[kStake] = sr.ns >= 0 ? AnalysisCell::of(sr.ns) : AnalysisCell::empty("");
      row.cells[kWhat] = AnalysisCell::of(sr.text);
      row.cells[kWhere] = AnalysisCell::of(s.analysis);
      row.link = sr.link;
      if (k) *x += ',';
      protocol::append_key(x, sk::kName, '{');
      json_append_string(x, sr.name);
      protocol::append_key(x, sk::kNs);
      if (sr.ns >= 0)
        json_append_number(x, sr.ns);
      else
        *x += "null";
      protocol::append_key(x, sk::kText);
      json_append_string(x, sr.text);
      protocol::append_key(x, sk::kRow);
      *x += std::to_string(t->rows.size());
      *x += '}';
      t->rows.push_back(std::move(row));
    }
    *x += "]}";
  }
  *x += ']';
}

}  // namespace

std::string unchecked_text(const AdvisorUnchecked& u) {
  // Some analyses' reasons already start with "needs".
  return u.why.compare(0, 6, "needs ") == 0 ? "not checked: " + u.why
                                            : "not checked: needs " + u.why;
}

AdvisorReport advise(const AdvisorRuleSet& rules, const AdvisorFigureSet& figures,
                     const std::string& format) {
  AdvisorReport r;
  r.format = format;
  r.rule_errors = rules.errors;
  for (const AdvisorRule& rule : rules.rules) {
    if (!rule_applies_to(rule, format) || !rule_concerns(rule, figures)) {
      r.not_applicable.push_back(rule.id);
      continue;
    }
    AdvisorUnchecked u;
    for (const std::string& n : rule.needs)
      if (!figures.find(n)) {
        u.needs.push_back(n);
        const std::string why = figures.why_missing(n);
        if (u.why.find(why) == std::string::npos) u.why += (u.why.empty() ? "" : "; ") + why;
      }
    if (!u.needs.empty()) {
      u.id = rule.id;
      u.title = rule.title;
      r.not_checked.push_back(std::move(u));
      continue;
    }
    const bool fires = evaluate_condition(
        *rule.condition, [&](const std::string& n) { return figures.find(n)->value; });
    if (!fires) {
      r.passed.push_back(rule.id);
      continue;
    }
    AdvisorFinding f;
    f.id = rule.id;
    f.title = rule.title.empty() ? rule.id : rule.title;
    f.priority = rule.priority;
    const auto value = [&](const std::string& n) { return figure_text(figures, n); };
    f.text = fill_template(rule.text, value);
    f.fix = fill_template(rule.fix, value);
    if (!rule.stake.empty()) f.stake_ns = figures.find(rule.stake)->value;
    for (const std::string& n : rule.needs) f.figures.push_back(figures.find(n));
    for (const std::string& n : rule.evidence)
      if (const AdvisorFigure* e = figures.find(n))
        f.evidence.insert(f.evidence.end(), e->evidence.begin(), e->evidence.end());
    r.findings.push_back(std::move(f));
  }
  std::stable_sort(r.findings.begin(), r.findings.end(),
                   [](const AdvisorFinding& a, const AdvisorFinding& b) {
                     if (a.priority != b.priority) return a.priority < b.priority;
                     return a.stake_ns > b.stake_ns;
                   });
  for (const AdvisorFinding& f : r.findings) r.needs_attention |= f.priority <= 1;
  write_summary(figures, &r);
  return r;
}

bool advisor_available(const Engine& engine, std::string* why) {
  if (engine.store()) return true;
  *why = "no trace loaded";
  return false;
}

AnalysisTable advisor_table(const Engine& engine, const QueryArgs& /*args*/) {
  const AdvisorFigureSet figures = advisor_figures(engine);
  const TraceStore& s = *engine.store();
  const std::string format = s.files.empty() ? std::string() : s.files[0].format;
  AdvisorReport report = advise(advisor_default_rules(), figures, format);
  report.support = advisor_support_tables(engine, figures);
  return advisor_report_table(report, advisor_report_html(report, figures));
}

AnalysisTable advisor_report_table(const AdvisorReport& r, const std::string& html) {
  AnalysisTable t;
  t.title = "Report";
  t.columns = {
      {"name", "Finding", AnalysisUnit::kText, "a finding (its evidence beneath), or a rule"},
      {"priority", "Priority", AnalysisUnit::kText, "P0 first"},
      {"stake", "At stake", AnalysisUnit::kNs, "the time the finding concerns"},
      {"what", "What is happening", AnalysisUnit::kText, "written from the analyses' figures"},
      {"fix", "Fix", AnalysisUnit::kText, "what to try"},
      {"where", "Analysis", AnalysisUnit::kText, "the analysis view that shows the figures"},
      {"rule", "Rule", AnalysisUnit::kText, "the rule's id in rules/advisor.json"},
  };
  t.notes.push_back(
      "Each finding comes from a rule of rules/advisor.json over the figures the other analyses "
      "show; its rows beneath are the evidence (a click selects their events). Rules whose "
      "figures this file lacks are listed as not checked.");
  t.errors = r.rule_errors;

  namespace rk = protocol::keys::advisor_report;
  namespace fk = protocol::keys::advisor_finding;
  namespace gk = protocol::keys::advisor_figure;
  namespace uk = protocol::keys::advisor_unchecked;
  std::string x;
  protocol::append_key(&x, rk::kStatus, '{');
  json_append_string(&x, r.needs_attention ? "NEEDS_ATTENTION" : "OPTIMAL");
  protocol::append_key(&x, rk::kSummary);
  append_json_strings(&x, r.summary);
  protocol::append_key(&x, rk::kFindings);
  x += '[';
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const AdvisorFinding& f = r.findings[i];
    const auto row = static_cast<int32_t>(t.rows.size());
    AnalysisRow fr = blank("");
    fr.cells[kName] = AnalysisCell::of(f.title);
    fr.cells[kPriority] = AnalysisCell::of(priority_name(f.priority));
    fr.cells[kStake] = f.stake_ns >= 0 ? AnalysisCell::of(f.stake_ns)
                                       : AnalysisCell::empty("the rule names no time at stake");
    fr.cells[kWhat] = AnalysisCell::of(f.text);
    fr.cells[kFix] = AnalysisCell::of(f.fix);
    fr.cells[kWhere] = AnalysisCell::of(f.figures.empty() ? std::string() : f.figures[0]->analysis);
    fr.cells[kRule] = AnalysisCell::of(f.id);
    if (!f.evidence.empty()) fr.link = f.evidence[0].link;
    t.rows.push_back(std::move(fr));

    if (i) x += ',';
    protocol::append_key(&x, fk::kId, '{');
    json_append_string(&x, f.id);
    protocol::append_key(&x, fk::kTitle);
    json_append_string(&x, f.title);
    protocol::append_key(&x, fk::kPriority);
    json_append_string(&x, priority_name(f.priority));
    protocol::append_key(&x, fk::kStakeNs);
    if (f.stake_ns >= 0)
      json_append_number(&x, f.stake_ns);
    else
      x += "null";
    protocol::append_key(&x, fk::kText);
    json_append_string(&x, f.text);
    protocol::append_key(&x, fk::kFix);
    json_append_string(&x, f.fix);
    protocol::append_key(&x, fk::kRow);
    x += std::to_string(row);
    protocol::append_key(&x, fk::kFigures);
    x += '[';
    for (size_t k = 0; k < f.figures.size(); ++k) {
      const AdvisorFigure& g = *f.figures[k];
      if (k) x += ',';
      protocol::append_key(&x, gk::kName, '{');
      json_append_string(&x, g.name);
      protocol::append_key(&x, gk::kLabel);
      json_append_string(&x, g.label);
      protocol::append_key(&x, gk::kValue);
      json_append_number(&x, g.value);
      protocol::append_key(&x, gk::kText);
      json_append_string(&x, format_figure(g.value, g.unit));
      protocol::append_key(&x, gk::kAnalysis);
      json_append_string(&x, g.analysis);
      x += '}';
    }
    x += ']';
    protocol::append_key(&x, fk::kEvidence);
    x += '[';
    for (size_t k = 0; k < f.evidence.size(); ++k) {
      const AdvisorEvidence& e = f.evidence[k];
      AnalysisRow er = blank("see the finding");
      er.parent = row;
      er.cells[kName] = AnalysisCell::of(e.label);
      er.link = e.link;
      if (k) x += ',';
      protocol::append_key(&x, fk::kLabel, '{');
      json_append_string(&x, e.label);
      protocol::append_key(&x, fk::kRow);
      x += std::to_string(t.rows.size());
      protocol::append_key(&x, fk::kLink);
      append_analysis_link(&x, e.link);
      x += '}';
      t.rows.push_back(std::move(er));
    }
    x += "]}";
  }
  x += ']';
  append_support_rows(r, &t, &x);
  protocol::append_key(&x, rk::kNotChecked);
  x += '[';
  if (!r.not_checked.empty()) {
    const auto parent = static_cast<int32_t>(t.rows.size());
    AnalysisRow g = blank("a group row");
    g.cells[kName] = AnalysisCell::of("Not checked (" + std::to_string(r.not_checked.size()) + ")");
    t.rows.push_back(std::move(g));
    for (size_t i = 0; i < r.not_checked.size(); ++i) {
      const AdvisorUnchecked& u = r.not_checked[i];
      AnalysisRow ur = blank("not checked");
      ur.parent = parent;
      ur.cells[kName] = AnalysisCell::of(u.title.empty() ? u.id : u.title);
      ur.cells[kWhat] = AnalysisCell::of(unchecked_text(u));
      ur.cells[kRule] = AnalysisCell::of(u.id);
      t.rows.push_back(std::move(ur));
      if (i) x += ',';
      protocol::append_key(&x, uk::kId, '{');
      json_append_string(&x, u.id);
      protocol::append_key(&x, uk::kTitle);
      json_append_string(&x, u.title);
      protocol::append_key(&x, uk::kNeeds);
      append_json_strings(&x, u.needs);
      protocol::append_key(&x, uk::kWhy);
      json_append_string(&x, u.why);
      x += '}';
    }
  }
  x += ']';
  if (!r.passed.empty()) {
    const auto parent = static_cast<int32_t>(t.rows.size());
    AnalysisRow g = blank("a group row");
    g.cells[kName] = AnalysisCell::of("Passed (" + std::to_string(r.passed.size()) + ")");
    t.rows.push_back(std::move(g));
    for (const std::string& id : r.passed) {
      AnalysisRow pr = blank("the rule found nothing");
      pr.parent = parent;
      pr.cells[kName] = AnalysisCell::of(id);
      pr.cells[kRule] = AnalysisCell::of(id);
      t.rows.push_back(std::move(pr));
    }
  }
  protocol::append_key(&x, rk::kPassed);
  append_json_strings(&x, r.passed);
  protocol::append_key(&x, rk::kNotApplicable);
  append_json_strings(&x, r.not_applicable);
  protocol::append_key(&x, rk::kRuleErrors);
  append_json_strings(&x, r.rule_errors);
  protocol::append_key(&x, rk::kFormat);
  json_append_string(&x, r.format);
  protocol::append_key(&x, rk::kHtml);
  json_append_string(&x, html);
  t.extra_json = x + '}';
  return t;
}

}  // namespace strata
