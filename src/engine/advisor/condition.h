// The advisor's condition language: comparisons of named figures and numbers joined by and / or /
// not, with parentheses, e.g. "step.input_pct > 5 and step.input_pct <= 20". Parsed into a small
// tree and evaluated over figures; nothing else (no calls, no arithmetic, no eval), so a rule
// file cannot make the engine do anything but compare numbers.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace strata {

struct Condition {
  enum class Kind { kCompare, kAnd, kOr, kNot } kind = Kind::kCompare;
  // kCompare: left op right, each a figure name or a number
  std::string left_figure, right_figure;  // "" when the side is a number
  double left_number = 0, right_number = 0;
  std::string op;                                    // < <= > >= == !=
  std::vector<std::unique_ptr<Condition>> operands;  // kAnd / kOr (2+), kNot (1)
};

// Parses `text`; null with *error saying where on a syntax error. Nesting past a small depth is
// an error, never a deep recursion.
std::unique_ptr<Condition> parse_condition(const std::string& text, std::string* error);

// The figure names the condition reads, each once, in order of appearance.
std::vector<std::string> condition_figures(const Condition& c);

// Evaluates with `figure(name)` giving each figure's value (every figure must be present).
bool evaluate_condition(const Condition& c,
                        const std::function<double(const std::string&)>& figure);

}  // namespace strata
