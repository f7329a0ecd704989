// Framework Op Stats of an xplane, as XProf's TensorFlow Stats (op_stats_to_tf_stats):
//  * host: the events of the host planes' threads whose event metadata names a framework op
//    (XProf's ParseTfOpFullname: "scope/name:Type", a JAX "scope/op:type", a tf.data
//    "Iterator::..."), with their self time on their thread;
//  * device: the device ops grouped by their tf_op (XProf's provenance): the XLA ops by their
//    metadata's tf_op stat; on GPU by their instruction's op_name in the module's HloProto
//    (none: the op is its own row, as in XProf, even inside a Framework Ops run); else by the
//    run of the plane's Framework Ops row they lie in. A device op without one is its own row. A
//    profile without XLA Ops rows (a TensorFlow GPU run) counts what the host ops launched
//    (correlation flows), as for Kineto.
// Rows are keyed as XProf keys them: by the framework op's name (its full name less its type:
// "model/dense/MatMul" of "model/dense/MatMul:MatMul"), with its type beside it. A host event's
// full name is its metadata's name (XSpaceTables::full_names where the store shows the display
// name). A row links to its own events: the select query's framework op mode
// (framework_op_row_events), not every event the timeline shows by its type.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/store/trace_store.h"
#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct OpMetricsDb;
struct QueryArgs;

// The type XProf gives an op that parses as no framework op.
inline constexpr std::string_view kUnknownOpType = "Unknown";

// A framework op as XProf's ParseTfOpFullname reads its full name: the row's key (`name`, a
// view into the full name), its type, and the text the timeline's events show for it.
struct FrameworkOpName {
  std::string_view name;
  std::string type, shown;
};
FrameworkOpName framework_op_name(std::string_view full);

// An event's full name: its metadata's name where the store shows the display_name, else its
// store name.
StrId event_full_name(const TraceStore& s, uint32_t e);

// The host framework op events of the store's host planes (by their full names), in store
// order.
std::vector<uint32_t> host_framework_op_events(const TraceStore& s);

// The events behind the row of framework op `op` (a row's name, XProf's op name): its host
// events (by their full names, so not the other ops of its type the timeline shows by the same
// name) and its device ops' events, on the Framework Ops row where the table links them there
// (the runs of that op's name that hold one of its device ops' runs), else on their XLA Ops
// rows (of their program); in store order.
std::vector<uint32_t> framework_op_row_events(const TraceStore& s, const OpMetricsDb& db,
                                              std::string_view op);

bool framework_op_xplane_available(const TraceStore& s, std::string* why);
AnalysisTable framework_op_xplane_run(const Engine& engine, const QueryArgs& args);
// `db`: the op metrics of the cores asked for; `display_of` as for framework_op_stats_table.
AnalysisTable framework_op_xplane_table(const TraceStore& s, const OpMetricsDb& db,
                                        const std::vector<uint32_t>& display_of = {});

}  // namespace strata
