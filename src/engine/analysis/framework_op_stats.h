// Framework Op Stats: per framework op its host time (total, and self: minus the framework ops
// nested in it) and its device time, with counts and shares of the whole.
//  * Kineto: the ops are the `cpu_op` events; their device time is the kernels, memcpys and
//    memsets they launched (through the runtime calls' correlation flows: core/query/launches.h).
//  * xplane (framework_op_xplane.h): the host planes' framework op events and, as XProf's
//    TensorFlow Stats, the device ops grouped by their tf_op.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
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
// The launches of the Kineto framework ops (cpu_op events).
DeviceLaunches device_launches(const TraceStore& s);
// The launches of the given framework op events (in store order).
DeviceLaunches device_launches(const TraceStore& s, std::vector<uint32_t> framework_ops);

// One framework op's sums, whichever trace they come from.
struct FrameworkOpRow {
  std::string name;
  std::string type;                 // xplane: XProf's op type ("MatMul", "Unknown"); "" on Kineto
  std::string link_name;            // the name its events show on the timeline; "": `name`
  uint64_t count = 0;               // host events
  uint64_t device_count = 0;        // device events (kernels, or XLA ops)
  uint64_t device_occurrences = 0;  // XProf's: the most occurrences of any of its device ops
  TimeNs host_total = 0, host_self = 0, device_total = 0, device_self = 0;
  std::vector<uint32_t> tracks;  // store tracks of its events (the link's)
};
// Host self time of a framework op event: its time minus the framework ops nested in it
// nearest to it (`is_op` per store event), through other slices in between.
TimeNs framework_op_self(const TraceStore& s, uint32_t op, const std::vector<uint8_t>& is_op);
// The rows by name, in the order they were met.
struct FrameworkOpRows {
  std::vector<FrameworkOpRow> rows;
  std::unordered_map<std::string, size_t> index;
  FrameworkOpRow& of(std::string_view name);
};
// Adds the host events (and with `with_launches`, what they launched) to `rows`: ops[i] to row
// row_of_op[i] (an index in rows->rows), or by event name when row_of_op is empty.
void add_host_framework_ops(const TraceStore& s, const std::vector<uint32_t>& ops,
                            bool with_launches, FrameworkOpRows* rows,
                            const std::vector<uint32_t>& row_of_op = {});
// The table of rows; `xplane` picks the columns' wording.
AnalysisTable framework_op_table(std::vector<FrameworkOpRow> rows,
                                 const std::vector<uint32_t>& display_of, bool xplane);

bool framework_op_stats_available(const Engine& engine, std::string* why);
AnalysisTable framework_op_stats_run(const Engine& engine, const QueryArgs& args);
// The table of one Kineto store; `display_of` maps store tracks to display tracks (the links'
// tracks; empty: links name every track).
AnalysisTable framework_op_stats_table(const TraceStore& s,
                                       const std::vector<uint32_t>& display_of = {});

}  // namespace strata
