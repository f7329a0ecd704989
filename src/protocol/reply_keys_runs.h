// The keys of the Runs tab's tables, nested in the runs statistics replies (reply_keys.h
// runs_stats): core/runs/run_stats_json.cc and engine/runs_session.cc write them, ui/runs reads
// them. Times are µs (…Us), shares % (…Pct); a ratio is b / a. See reply_keys.h for how the
// constants are used and checked.
#pragma once
#include <string_view>

namespace strata::protocol::keys {

// One of runs_stats.operators (inputShape: when grouped by shape; callStacks: runs_call_stack
// each, when the table has them).
namespace runs_operator {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kInputShape = "inputShape";
inline constexpr std::string_view kCalls = "calls";
inline constexpr std::string_view kHostSelfUs = "hostSelfUs";
inline constexpr std::string_view kHostTotalUs = "hostTotalUs";
inline constexpr std::string_view kDeviceSelfUs = "deviceSelfUs";
inline constexpr std::string_view kDeviceTotalUs = "deviceTotalUs";
inline constexpr std::string_view kAiCoreEligible = "aiCoreEligible";
inline constexpr std::string_view kAiCoreSelfPct = "aiCoreSelfPct";
inline constexpr std::string_view kAiCoreTotalPct = "aiCoreTotalPct";
inline constexpr std::string_view kCallStacks = "callStacks";
}  // namespace runs_operator

// One of runs_operator.callStacks: a call stack and how many calls came through it.
namespace runs_call_stack {
inline constexpr std::string_view kStack = "stack";
inline constexpr std::string_view kCount = "count";
}  // namespace runs_call_stack

// One of runs_stats.kernels (per kernel name) or runs_stats.kernelCoreTypes (per core type:
// name, count and totalUs only).
namespace runs_kernel {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kCoreType = "coreType";
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kTotalUs = "totalUs";
inline constexpr std::string_view kMinUs = "minUs";
inline constexpr std::string_view kAvgUs = "avgUs";
inline constexpr std::string_view kMaxUs = "maxUs";
}  // namespace runs_kernel

// One of runs_stats.kernelDetails: one kernel execution.
namespace runs_kernel_detail {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kType = "type";
inline constexpr std::string_view kCoreType = "coreType";
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kStartUs = "startUs";
inline constexpr std::string_view kDurationUs = "durationUs";
inline constexpr std::string_view kWaitUs = "waitUs";
inline constexpr std::string_view kBlockDim = "blockDim";
}  // namespace runs_kernel_detail

// One of runs_stats.distributed: one card's step (commOps: runs_comm_op each).
namespace runs_card {
inline constexpr std::string_view kCard = "card";
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kComputeUs = "computeUs";
inline constexpr std::string_view kCommunicationUs = "communicationUs";
inline constexpr std::string_view kOverlapUs = "overlapUs";
inline constexpr std::string_view kFreeUs = "freeUs";
inline constexpr std::string_view kSpanUs = "spanUs";
inline constexpr std::string_view kTransferUs = "transferUs";
inline constexpr std::string_view kWaitUs = "waitUs";
inline constexpr std::string_view kSyncUs = "syncUs";
inline constexpr std::string_view kCommOps = "commOps";
}  // namespace runs_card

// One of runs_card.commOps: one communication operator on that card.
namespace runs_comm_op {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kCalls = "calls";
inline constexpr std::string_view kElapseUs = "elapseUs";
inline constexpr std::string_view kTransitUs = "transitUs";
inline constexpr std::string_view kWaitUs = "waitUs";
inline constexpr std::string_view kSyncUs = "syncUs";
inline constexpr std::string_view kIdleUs = "idleUs";
}  // namespace runs_comm_op

// One of runs_stats.operatorDiff: an operator in profiles a and b (a…, b…), b - a (…DiffUs)
// and b / a (…Ratio), for host and device time, total and self.
namespace runs_operator_diff {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kInputShape = "inputShape";
inline constexpr std::string_view kACalls = "aCalls";
inline constexpr std::string_view kBCalls = "bCalls";
inline constexpr std::string_view kAHostUs = "aHostUs";
inline constexpr std::string_view kBHostUs = "bHostUs";
inline constexpr std::string_view kASelfHostUs = "aSelfHostUs";
inline constexpr std::string_view kBSelfHostUs = "bSelfHostUs";
inline constexpr std::string_view kADeviceUs = "aDeviceUs";
inline constexpr std::string_view kBDeviceUs = "bDeviceUs";
inline constexpr std::string_view kASelfDeviceUs = "aSelfDeviceUs";
inline constexpr std::string_view kBSelfDeviceUs = "bSelfDeviceUs";
inline constexpr std::string_view kHostDiffUs = "hostDiffUs";
inline constexpr std::string_view kSelfHostDiffUs = "selfHostDiffUs";
inline constexpr std::string_view kDeviceDiffUs = "deviceDiffUs";
inline constexpr std::string_view kSelfDeviceDiffUs = "selfDeviceDiffUs";
inline constexpr std::string_view kHostRatio = "hostRatio";
inline constexpr std::string_view kSelfHostRatio = "selfHostRatio";
inline constexpr std::string_view kDeviceRatio = "deviceRatio";
inline constexpr std::string_view kSelfDeviceRatio = "selfDeviceRatio";
}  // namespace runs_operator_diff

// runs_stats.stepDiff: one step's operator types in a and b (rows: runs_step_diff_row each).
namespace runs_step_diff {
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kRows = "rows";
}  // namespace runs_step_diff

// One of runs_step_diff.rows (cumulativeDiffUs: the diffs of this row and those above it).
namespace runs_step_diff_row {
inline constexpr std::string_view kOpType = "opType";
inline constexpr std::string_view kAHostUs = "aHostUs";
inline constexpr std::string_view kBHostUs = "bHostUs";
inline constexpr std::string_view kADeviceUs = "aDeviceUs";
inline constexpr std::string_view kBDeviceUs = "bDeviceUs";
inline constexpr std::string_view kDiffUs = "diffUs";
inline constexpr std::string_view kCumulativeDiffUs = "cumulativeDiffUs";
}  // namespace runs_step_diff_row

// runs_stats.a and .b: the compared profiles, as web/page/runs.js adds them to the diff reply.
namespace runs_diff_side {
inline constexpr std::string_view kRun = "run";
inline constexpr std::string_view kProfile = "profile";
}  // namespace runs_diff_side

}  // namespace strata::protocol::keys
