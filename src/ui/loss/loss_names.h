// Short names for the Loss tab's logs: logs of one sweep are often named alike
// ("gpt3-357m-pretrain-lr1e-4-seed1.log", "gpt3-357m-pretrain-lr3e-4-seed1.log"), and a list,
// a legend or a column header cut to its width would show the same start for each. When the
// names share a long start, it is dropped (up to a word boundary) and "..." stands for it, so
// the part that differs leads every label.
#pragma once
#include <string>
#include <vector>

namespace strata {

// A common start shorter than this is kept: short names read better whole.
constexpr size_t kLossSharedPrefixMin = 12;

// One label per name, in order. A single name, or names sharing less than
// kLossSharedPrefixMin characters, are returned as they are.
std::vector<std::string> loss_short_names(const std::vector<std::string>& names);

}  // namespace strata
