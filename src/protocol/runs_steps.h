// The Runs tab's fetch steps (ui/runs/runs_fetch.h writes them, web/page/runs.js performs them,
// their keys are reply_keys_runs.h runs_step) and the runsStats message the UI writes for the
// engine worker (worker_messages.h lists it; web/worker/runs.js reads it).
// web/shared/protocol.js mirrors kRunsStepKinds as RUNS_STEP; tests/e2e/protocol.test.mjs checks.
#pragma once
#include <cstdint>
#include <string_view>

#include "protocol/worker_messages.h"

namespace strata::protocol {

// open: open input `entry` as the engine's trace (or a memory CSV joining it); request: post
// `message` and hand its reply to the next step; frames: let the UI draw (a tab changed);
// done: nothing more, `answer` is the script API's.
enum class RunsStepKind : uint8_t { kOpen, kRequest, kFrames, kDone };
inline constexpr std::string_view kRunsStepKinds[] = {"open", "request", "frames", "done"};
inline constexpr std::string_view runs_step_kind_name(RunsStepKind k) {
  return kRunsStepKinds[static_cast<uint8_t>(k)];
}

// The fields of a runsStats message (worker_messages.h describes each).
namespace runs_stats_message {
inline constexpr std::string_view kType = "type";
inline constexpr std::string_view kTypeName = "runsStats";
inline constexpr std::string_view kKind = "kind";
inline constexpr std::string_view kGroupByShape = "groupByShape";
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kCards = "cards";
inline constexpr std::string_view kCard = "card";
inline constexpr std::string_view kSlot = "slot";
}  // namespace runs_stats_message

// The script API's Runs queries (strata.selectRun's {run, worker, span, view, groupByShape},
// strata.runsDiff's {a, b, step}: README "Profiler runs"), read by ui/runs/runs_fetch.
namespace runs_query {
inline constexpr std::string_view kRun = "run";
inline constexpr std::string_view kWorker = "worker";
inline constexpr std::string_view kSpan = "span";
inline constexpr std::string_view kView = "view";
inline constexpr std::string_view kGroupByShape = "groupByShape";
inline constexpr std::string_view kStep = "step";
}  // namespace runs_query

// kRunsStatsKinds (worker_messages.h), by name.
namespace runs_stats_kind {
inline constexpr std::string_view kAscend = "ascend";
inline constexpr std::string_view kTrace = "trace";
inline constexpr std::string_view kKeep = "keep";
inline constexpr std::string_view kDiff = "diff";
inline constexpr std::string_view kHead = "head";  // a JSON trace's rank from its first bytes
}  // namespace runs_stats_kind

constexpr bool runs_stats_names_agree() {
  bool listed = false;
  for (const WorkerMessage& m : kWorkerMessages)
    listed =
        listed || (m.name == runs_stats_message::kTypeName && m.direction == Direction::kToWorker);
  return listed && kRunsStatsKinds[0] == runs_stats_kind::kAscend &&
         kRunsStatsKinds[1] == runs_stats_kind::kTrace &&
         kRunsStatsKinds[2] == runs_stats_kind::kKeep &&
         kRunsStatsKinds[3] == runs_stats_kind::kDiff &&
         kRunsStatsKinds[4] == runs_stats_kind::kHead;
}
static_assert(runs_stats_names_agree(),
              "runs_stats_message / runs_stats_kind disagree with worker_messages.h");

}  // namespace strata::protocol
