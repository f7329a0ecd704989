// Framework Op Stats: per framework op (Kineto's `cpu_op` events) its host time (total, and
// self: minus the framework ops nested in it) and its device time (the kernels, memcpys and
// memsets it launched, through the runtime calls' correlation flows: core/query/launches.h),
// with counts and shares of the whole.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/store/trace_store.h"
#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

// Whether a category names framework ops (Kineto "cpu_op"; older traces "Operator").
bool is_framework_op_category(std::string_view cat);
// Whether a category names GPU kernels (Kineto "kernel", older "Kernel").
bool is_kernel_category(std::string_view cat);

// Every device event launched by a framework op, with the innermost op that launched it (the
// op whose runtime call it was, not the ops around that one).
struct DeviceLaunches {
  std::vector<uint32_t> framework_ops;  // every framework op event, in store order
  // per store event: the innermost framework op that launched it, kNone when none did
  std::vector<uint32_t> owner;
  // per framework_ops entry: all it launched, itself or through ops nested in it
  std::vector<uint64_t> launched_count;
  std::vector<TimeNs> launched_ns;
};
DeviceLaunches device_launches(const TraceStore& s);

bool framework_op_stats_available(const Engine& engine, std::string* why);
AnalysisTable framework_op_stats_run(const Engine& engine, const QueryArgs& args);
// The table of one store; `display_of` maps store tracks to display tracks (the links' tracks;
// empty: links name every track).
AnalysisTable framework_op_stats_table(const TraceStore& s,
                                       const std::vector<uint32_t>& display_of = {});

}  // namespace strata
