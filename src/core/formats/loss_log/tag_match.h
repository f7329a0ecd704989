// Loss / iteration extraction from one line of a training log, by the seed's rules (the Ascend
// PyTorch profiler TensorBoard plugin, torch-tb-profiler-ascend 0.4.0.11 README, "Loss
// Comparison" → 文件配置 → 匹配规则; MindStudio Insight's accuracy view documents the same):
//   1. The line is searched for the tag text. After a Loss Tag must follow a number, decimal
//      or in scientific notation; after an Iteration Tag an integer. Spaces between tag and
//      number are ignored; any other character in between means that occurrence does not match
//      (the seed's example: Iteration Tag `iteration` does not match "iteration: 5").
//   2. When there are several matches in a line, the first one counts.
//   3. A line yields a point only when both tags match on it.
// Our reading of "first match": occurrences are tried left to right and the first one followed
// by a number wins, so "iteration: 3 ... iteration 5" gives 5. Tags are case-sensitive.
// Numbers: [+-]? digits [. digits*]? ([eE][+-]? digits)? for losses; digits for iterations (an
// iteration followed by '.' or '/' still matches its digits: "iteration 10/ 500" → 10).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

struct LossTags {
  std::string loss;       // e.g. "lm loss:"
  std::string iteration;  // e.g. "iteration"
};

struct LossPoint {
  int64_t iteration = 0;
  double loss = 0;
};

// The number at the start of `s` (no leading spaces), or nullopt. `*used` gets its length.
std::optional<double> parse_loss_number(std::string_view s, size_t* used = nullptr);
// The integer at the start of `s` (digits only, at most 18 of them), or nullopt.
std::optional<int64_t> parse_iteration_number(std::string_view s);

std::optional<double> match_loss_tag(std::string_view line, std::string_view tag);
std::optional<int64_t> match_iteration_tag(std::string_view line, std::string_view tag);
// Both tags on one line (rule 3).
std::optional<LossPoint> match_line(std::string_view line, const LossTags& tags);

}  // namespace strata
