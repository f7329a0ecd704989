// Byte units that counter names carry: `"Allocated (MB)": 1120` is 1120 MiB, not 1120 bytes.
// Only clear forms count: the unit alone in parentheses or brackets anywhere in the name
// ("Allocated (MB)", "reserved [GiB]"), or as the name's last word ("HBM used GB"; not a lone
// "B", which names things as often: "Stream B"). Rates
// ("(MB/s)"), bits ("Mb") and units glued to a word ("usedMB", "mem_mb") are not read as sizes.
#pragma once
#include <string_view>

namespace strata {

struct CounterUnit {
  bool bytes = false;  // the name gives a byte unit: values scaled by `scale` are bytes
  double scale = 1;    // bytes per written unit (1 for B)
};

CounterUnit counter_unit_of_name(std::string_view name);

}  // namespace strata
