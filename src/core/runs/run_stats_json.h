// The run statistics as JSON arrays with the script API's names (strata.stats():
// operators [{name, calls, hostSelfUs, hostTotalUs, deviceSelfUs, deviceTotalUs, ...}],
// kernels [{name, coreType, count, totalUs, minUs, avgUs, maxUs}], distributed [{card,
// computeUs, communicationUs, overlapUs, freeUs, ...}]). Missing values are null.
#pragma once
#include <string>

#include "core/runs/run_stats.h"

namespace strata::runs {

// Appends a JSON array to `out`. `limit` caps the rows (0 = all); call stacks are left out of
// operators_json unless `with_stacks`.
void operators_json(const OperatorTable& t, size_t limit, bool with_stacks, std::string* out);
void kernels_json(const KernelTable& t, size_t limit, std::string* out);
void distributed_json(const DistributedTable& t, std::string* out);
void operator_diff_json(const std::vector<OperatorDiffRow>& rows, size_t limit, std::string* out);
void step_diff_json(const StepDiff& d, std::string* out);
// ["deviceSelfUs", ...]
void missing_json(const std::vector<std::string>& missing, std::string* out);

}  // namespace strata::runs
