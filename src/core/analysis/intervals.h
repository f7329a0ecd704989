// Interval arithmetic over time ranges, for "how much of the span was busy with X and not Y":
// unions of overlapping work, what one union leaves of another, and their lengths.
#pragma once
#include <vector>

#include "core/base/types.h"

namespace strata {

struct Interval {
  TimeNs begin = 0, end = 0;  // [begin, end), begin <= end
};

// Sorts and merges in place: afterwards the intervals are disjoint, sorted, and none is empty.
// Touching intervals ([a, b) and [b, c)) merge.
void merge_intervals(std::vector<Interval>* v);

// The parts of `from` not covered by `cut` (both merged, as merge_intervals leaves them).
std::vector<Interval> subtract_intervals(const std::vector<Interval>& from,
                                         const std::vector<Interval>& cut);

// The parts covered by both (both merged).
std::vector<Interval> intersect_intervals(const std::vector<Interval>& a,
                                          const std::vector<Interval>& b);

TimeNs total_length(const std::vector<Interval>& v);

}  // namespace strata
