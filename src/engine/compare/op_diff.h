// The op diff of two traces, a baseline A and a variant B: per name (of a framework operator,
// a GPU kernel, an XLA op or an event category) the count, total and self time in each, the
// change in total time (Δ = B − A, and Δ% of A), sorted by |Δ|, with the names only one side
// has listed apart (added: only in B; removed: only in A). A trace against itself has an empty
// diff: a name whose count, total and self time are the same in both is not listed, only
// counted.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

// What the rows are keyed by.
enum class OpDiffKey : uint8_t {
  kOperator,  // framework ops: Kineto cpu_op events, xplane host ops (by XProf's op name)
  kKernel,    // GPU kernels: Kineto kernel events, xplane device stream kernels
  kXlaOp,     // the events of the device planes' XLA Ops rows, by HLO op name
  kCategory,  // every complete event, by its category ("" where the format has none)
};
const char* op_diff_key_name(OpDiffKey key);  // "operator", "kernel", "xla_op", "category"

// One name's figures in one trace.
struct OpDiffSide {
  uint64_t count = 0;
  TimeNs total = 0, self = 0;  // self: minus the children on its row (hierarchy.h self_time)
};

struct OpDiffRow {
  std::string name;
  OpDiffSide a, b;
  TimeNs delta() const { return b.total - a.total; }
  // Δ as a percentage of A's total; 0 when A has none (an added row).
  double delta_pct() const;
};

struct OpDiff {
  OpDiffKey key = OpDiffKey::kOperator;
  std::vector<OpDiffRow> changed;  // in both, some figure differs; largest |Δ| first
  std::vector<OpDiffRow> added;    // only in B; largest total first
  std::vector<OpDiffRow> removed;  // only in A; largest total first
  uint64_t unchanged = 0;          // names whose figures are the same in both
  bool empty() const { return changed.empty() && added.empty() && removed.empty(); }
};

// The events a key counts, each with the name it counts under (views valid while the store is),
// in store order.
struct KeyedEvents {
  std::vector<uint32_t> events;
  std::vector<std::string_view> names;
};
KeyedEvents op_events(const TraceStore& s, OpDiffKey key);

// The figures of every name of one trace (unsorted): what diff_ops compares.
std::vector<std::pair<std::string, OpDiffSide>> op_figures(const TraceStore& s, OpDiffKey key);

OpDiff diff_ops(const TraceStore& a, const TraceStore& b, OpDiffKey key);

}  // namespace strata
