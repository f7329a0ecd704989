// Numbers as the tables, tooltips and axis labels write them: with thousands separators
// ("1,234,567.89") and compact ("1.23M"). No ImGui: the native tests cover them.
#pragma once
#include <string>

namespace strata {

// `v` with `decimals` decimals and a comma between each three digits of its integer part
// ("-1,234.50"); NaN is "-".
std::string format_thousands(double v, int decimals);

// `v` in 3 significant digits at most, with k, M or G for thousands, millions and billions
// ("0", "250", "1.5k", "-12M", "3.46G"); NaN and infinities are "-".
std::string format_compact(double v);

}  // namespace strata
