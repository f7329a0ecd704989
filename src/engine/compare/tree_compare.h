// The Compare tab's call-tree diff (core/diff/tree_diff.h) on two stores: which events make a
// trace's call tree and the reply's `tree` object (reply_keys_compare.h). The events are the
// framework's: Kineto operators (cpu_op) and framework scopes (user_annotation, record_function
// ranges and ProfilerStep#N), an xplane's host framework ops by XProf's op name (op_diff's
// operator key). Kernels and runtime calls are not nodes: device time per node is not compared
// here (TraceLens adds each node's kernel busy time; the kernel table has the kernels).
#pragma once
#include <cstdint>
#include <string>

#include "core/diff/call_tree.h"
#include "core/diff/tree_diff.h"
#include "engine/compare/op_diff.h"

namespace strata {

// Rows the reply carries at most (the largest differences of the top levels first).
inline constexpr uint32_t kTreeDiffMaxRows = 10'000;

KeyedEvents call_tree_events(const TraceStore& s);
CallTree framework_call_tree(const TraceStore& s, const CallTreeLimits& limits = {});
TreeDiff diff_framework_trees(const TraceStore& a, const TraceStore& b,
                              uint32_t max_rows = kTreeDiffMaxRows);

// `"tree":{...}` after a comma: rows, unchanged, aNodes, bNodes, note.
void append_tree_json(std::string* o, const TreeDiff& d);

}  // namespace strata
