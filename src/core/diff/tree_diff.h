// The call-tree diff of two traces, a baseline A and a variant B: their call trees merged by
// name path (call_tree.h) matched node by node from the root.
//
// What is taken from TraceLens's TraceDiff (AMD-AGI/TraceLens, TraceDiff/trace_diff.py): it
// walks both trees from the roots, pairs children of matched nodes that have the same name, and
// where they differ the first unmatched node on each side is a "point of difference"; the
// lowest node matched in both above such points (a "combined" node with non-combined children)
// is where it lines up the two sides' implementations (e.g. aten::linear over aten::t +
// aten::addmm in A, over one fused op in B) and reports each side's names and time there.
// What differs here: TraceLens aligns each event instance, children in time order by edit
// distance on their names; here every call of a path is one node (count, total, self), so
// children are matched by name alone (no order), which keeps the work linear in the nodes for
// traces of millions of events. Under a matched node, the children only A has and those only
// B has are one "replaced" group when both sides have some (A's names against B's, with their
// totals), else each is "removed" (only A) or "added" (only B). Δ is B's total minus A's.
//
// Rows: the diff as a tree in pre-order, siblings by |Δ| (ties by name). A matched node whose
// figures are the same and under which nothing differs is counted in `unchanged`, not listed,
// so a trace against itself gives no rows; a matched node above a difference is listed (as
// "unchanged" when its own figures are the same). A replaced group's members, and everything
// under an added or removed node, are rows under it. At most `max_rows` rows are written (the
// largest differences first at each level); `rows_cut` counts the rest.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/diff/call_tree.h"
#include "core/diff/keyed_diff.h"

namespace strata {

struct TreeDiffRow {
  uint32_t parent = kNone;  // index of the parent row; kNone at the top
  uint32_t depth = 0;       // 0 at the top; a replaced group's members are one below it
  DiffStatus status = DiffStatus::kChanged;
  std::string name;  // the node's name; a replaced group's "a1 + a2 -> b1"
  std::string path;  // the call path's names from the top, " > " between
  CallFigures a, b;  // zeros on the side that has no such node
  // A replaced group's members on each side, largest total first.
  std::vector<std::string> a_names, b_names;
  TimeNs delta() const { return b.total - a.total; }
  double delta_pct() const;  // of A's total; 0 when A has none
};

struct TreeDiff {
  std::vector<TreeDiffRow> rows;
  uint64_t unchanged = 0;             // matched nodes with nothing different at or under them
  uint64_t rows_cut = 0;              // rows past max_rows
  uint64_t a_nodes = 0, b_nodes = 0;  // nodes of each tree (no root)
  uint64_t a_dropped_events = 0, b_dropped_events = 0;  // events past the trees' limits
  bool empty() const { return rows.empty(); }
  // "" or what the limits cut, for the reply's note.
  std::string note() const;
};

// " > ": between the names of a row's path.
inline constexpr const char* kTreePathSeparator = " > ";
// " -> ": between a replaced group's A names and B names in its name; " + " between names.
inline constexpr const char* kTreeReplacedArrow = " -> ";
inline constexpr const char* kTreeReplacedJoin = " + ";

TreeDiff diff_call_trees(const CallTree& a, const CallTree& b, uint32_t max_rows = 10'000);

}  // namespace strata
