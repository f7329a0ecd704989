#include "engine/advisor/rules.h"

#include "advisor_rules_embedded.h"
#include "core/formats/json/json_flat.h"

namespace strata {

namespace {

void add_once(std::vector<std::string>* v, const std::string& s) {
  if (s.empty()) return;
  for (const std::string& have : *v)
    if (have == s) return;
  v->push_back(s);
}

// Checks a rule's fields and derives what it reads; false with *why on a bad rule.
bool finish(AdvisorRule* r, const std::string& priority, std::string* why) {
  if (r->id.empty()) return *why = "a rule without an id", false;
  if (priority != "P0" && priority != "P1" && priority != "P2")
    return *why = r->id + ": priority must be P0, P1 or P2", false;
  r->priority = priority[1] - '0';
  if (r->formats.empty()) r->formats.push_back("any");
  std::string err;
  auto c = parse_condition(r->when, &err);
  if (!c) return *why = r->id + ": condition \"" + r->when + "\": " + err, false;
  r->needs = condition_figures(*c);
  r->condition = std::move(c);
  if (!r->applies.empty()) {
    auto a = parse_condition(r->applies, &err);
    if (!a) return *why = r->id + ": applies \"" + r->applies + "\": " + err, false;
    r->applies_condition = std::move(a);
  }
  add_once(&r->needs, r->stake);
  for (const std::string& f : template_figures(r->text)) add_once(&r->needs, f);
  for (const std::string& f : template_figures(r->fix)) add_once(&r->needs, f);
  if (r->text.empty()) return *why = r->id + ": no text", false;
  return true;
}

}  // namespace

std::vector<std::string> template_figures(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = text.find('{'); i != std::string::npos; i = text.find('{', i + 1)) {
    const size_t j = text.find('}', i);
    if (j == std::string::npos) break;
    add_once(&out, text.substr(i + 1, j - i - 1));
  }
  return out;
}

std::string fill_template(const std::string& text,
                          const std::function<std::string(const std::string&)>& value) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t a = text.find('{', i);
    const size_t b = a == std::string::npos ? a : text.find('}', a);
    if (b == std::string::npos) {
      out += text.substr(i);
      break;
    }
    out += text.substr(i, a - i);
    out += value(text.substr(a + 1, b - a - 1));
    i = b + 1;
  }
  return out;
}

bool rule_applies_to(const AdvisorRule& r, const std::string& format) {
  for (const std::string& f : r.formats)
    if (f == "any" || f == format) return true;
  return false;
}

AdvisorRuleSet parse_advisor_rules(const std::string& json) {
  AdvisorRuleSet set;
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(json, &lines, &err)) {
    set.errors.push_back("the rule file is not JSON: " + err);
    return set;
  }
  // rules: [ {member: value | [values]} ]: a rule's members at depth 2, list items at depth 3.
  AdvisorRule rule;
  std::string priority;
  bool in_rule = false;
  auto close = [&] {
    if (!in_rule) return;
    std::string why;
    if (finish(&rule, priority, &why))
      set.rules.push_back(std::move(rule));
    else
      set.errors.push_back(why);
    rule = AdvisorRule{};
    priority.clear();
    in_rule = false;
  };
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (keys[0] != "rules") return;
    if (l.depth == 1) {
      close();
      in_rule = l.kind == 'o';
      return;
    }
    if (!in_rule) return;
    const std::string& k = keys[2];
    if (l.depth == 2 && l.kind == 's') {
      if (k == "id")
        rule.id = l.value;
      else if (k == "title")
        rule.title = l.value;
      else if (k == "when")
        rule.when = l.value;
      else if (k == "applies")
        rule.applies = l.value;
      else if (k == "priority")
        priority = l.value;
      else if (k == "stake")
        rule.stake = l.value;
      else if (k == "text")
        rule.text = l.value;
      else if (k == "fix")
        rule.fix = l.value;
    } else if (l.depth == 3 && l.kind == 's') {
      if (k == "formats")
        rule.formats.push_back(l.value);
      else if (k == "evidence")
        rule.evidence.push_back(l.value);
    }
  });
  close();
  return set;
}

const AdvisorRuleSet& advisor_default_rules() {
  static const AdvisorRuleSet rules = parse_advisor_rules(embedded::kAdvisorRules);
  return rules;
}

}  // namespace strata
