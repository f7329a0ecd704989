// The compare session's reply (engine/compare/compare_session.h, strata.compareResult()): the
// two traces, the diff tables per key and the step-time breakdowns of A and B side by side.
//   {a: side, b: side | null, tables: {operator|kernel|xla_op|category: table}, steps, tree,
//    alignment, errors}
//   side  {name, events}
//   table {key, changed: [row], added: [row], removed: [row], unchanged: count}
//   row   {name, aCount, aTotalNs, aSelfNs, bCount, bTotalNs, bSelfNs, deltaNs, deltaPct}
//   steps {align: "number" | "order" | "start", note, aAlignNs, bAlignNs (absolute ns of the
//          points the two timelines line up on), rows: [{aStep, bStep (step numbers, -1: none),
//          aDurNs, bDurNs, aParts, bParts: {<step part key>: ns}}]}
//   tree  {rows: [tree row] (pre-order), unchanged (matched nodes not listed), aNodes, bNodes,
//          note (what the limits cut, "" when nothing)} | null without a B
//   tree row {name, path (" > " between names), depth, parent (row index, -1 at the top),
//          status: "changed" | "unchanged" | "added" | "removed" | "replaced", aCount, aTotalNs,
//          aSelfNs, bCount, bTotalNs, bSelfNs, deltaNs, deltaPct, aNames, bNames (a replaced
//          group's members, else [])}
//   alignment {mode: "start" | "step" | "order" | "event" (asked), step (number, or index for
//          order; -1: the first common number), event (name), used (the mode applied: "start"
//          when what was asked is not in both), note, aAlignNs, bAlignNs (absolute ns lined up),
//          offsetNs (B's time from its start = A's time from its start + offsetNs), aStep, bStep
//          (the step numbers lined up, -1: none)} | null without a B
#pragma once
#include <string_view>

namespace strata::protocol::keys {

namespace compare {
inline constexpr std::string_view kA = "a";
inline constexpr std::string_view kB = "b";
inline constexpr std::string_view kTables = "tables";
inline constexpr std::string_view kSteps = "steps";
inline constexpr std::string_view kTree = "tree";
inline constexpr std::string_view kErrors = "errors";
inline constexpr std::string_view kAlignment = "alignment";
}  // namespace compare

namespace compare_alignment {
inline constexpr std::string_view kMode = "mode";
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kEvent = "event";
inline constexpr std::string_view kUsed = "used";
inline constexpr std::string_view kNote = "note";
inline constexpr std::string_view kAAlignNs = "aAlignNs";
inline constexpr std::string_view kBAlignNs = "bAlignNs";
inline constexpr std::string_view kOffsetNs = "offsetNs";
inline constexpr std::string_view kAStep = "aStep";
inline constexpr std::string_view kBStep = "bStep";
}  // namespace compare_alignment

namespace compare_side {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kEvents = "events";
}  // namespace compare_side

namespace compare_table {
inline constexpr std::string_view kKey = "key";
inline constexpr std::string_view kChanged = "changed";
inline constexpr std::string_view kAdded = "added";
inline constexpr std::string_view kRemoved = "removed";
inline constexpr std::string_view kUnchanged = "unchanged";
}  // namespace compare_table

namespace compare_row {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kACount = "aCount";
inline constexpr std::string_view kATotalNs = "aTotalNs";
inline constexpr std::string_view kASelfNs = "aSelfNs";
inline constexpr std::string_view kBCount = "bCount";
inline constexpr std::string_view kBTotalNs = "bTotalNs";
inline constexpr std::string_view kBSelfNs = "bSelfNs";
inline constexpr std::string_view kDeltaNs = "deltaNs";
inline constexpr std::string_view kDeltaPct = "deltaPct";
}  // namespace compare_row

namespace compare_steps {
inline constexpr std::string_view kAlign = "align";
inline constexpr std::string_view kNote = "note";
inline constexpr std::string_view kAAlignNs = "aAlignNs";
inline constexpr std::string_view kBAlignNs = "bAlignNs";
inline constexpr std::string_view kRows = "rows";
inline constexpr std::string_view kAStep = "aStep";
inline constexpr std::string_view kBStep = "bStep";
inline constexpr std::string_view kADurNs = "aDurNs";
inline constexpr std::string_view kBDurNs = "bDurNs";
inline constexpr std::string_view kAParts = "aParts";
inline constexpr std::string_view kBParts = "bParts";
}  // namespace compare_steps

namespace compare_tree {
inline constexpr std::string_view kRows = "rows";
inline constexpr std::string_view kUnchanged = "unchanged";
inline constexpr std::string_view kANodes = "aNodes";
inline constexpr std::string_view kBNodes = "bNodes";
inline constexpr std::string_view kNote = "note";
}  // namespace compare_tree

// A tree row: compare_row's figures and its place in the tree.
namespace compare_tree_row {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kACount = "aCount";
inline constexpr std::string_view kATotalNs = "aTotalNs";
inline constexpr std::string_view kASelfNs = "aSelfNs";
inline constexpr std::string_view kBCount = "bCount";
inline constexpr std::string_view kBTotalNs = "bTotalNs";
inline constexpr std::string_view kBSelfNs = "bSelfNs";
inline constexpr std::string_view kDeltaNs = "deltaNs";
inline constexpr std::string_view kDeltaPct = "deltaPct";
inline constexpr std::string_view kPath = "path";
inline constexpr std::string_view kDepth = "depth";
inline constexpr std::string_view kParent = "parent";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kANames = "aNames";
inline constexpr std::string_view kBNames = "bNames";
}  // namespace compare_tree_row

// compareOpen's answer: {ok, error, name (B's), result: the reply above when ok}.
namespace compare_open {
inline constexpr std::string_view kOk = "ok";
inline constexpr std::string_view kError = "error";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kResult = "result";
}  // namespace compare_open

}  // namespace strata::protocol::keys
