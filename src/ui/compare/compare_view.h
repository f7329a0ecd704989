// The Compare tab: the trace loaded now (A) against a variant B loaded beside it in the engine
// worker ("Compare with...", or a trace dropped on this tab; strata.compare). A key selector
// (operator, kernel, XLA op, category), the changed rows in a sortable table (largest |Δ|
// first), the rows only in B (added) and only in A (removed) listed apart, the step-time
// breakdowns of A and B side by side, and CSV export of each table. A row click selects its
// events in A's timeline (select query, name mode) and in B's (the same query of B's engine),
// and says how many B has. The "Call tree" key draws the call-tree diff instead
// (compare_tree_view.h). Below the tables, A's and B's timelines aligned (compare_timelines.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ui/compare/compare_model.h"
#include "ui/compare/compare_timelines.h"

namespace strata {

struct CompareView {
  CompareModel model;
  std::string error;               // the last B's failure, or a reply that did not parse
  int key = 0;                     // index into kCompareKeyNames; kCompareKeys: the call tree
  std::vector<uint8_t> tree_open;  // per call-tree row: its children shown (compare_tree_view)
  CompareColumn sort = CompareColumn::kAbsDelta;
  bool descending = true;
  bool sorted = false;    // model rows in the current order
  std::string selected;   // the clicked row's name
  double selected_b = 0;  // its count in B
  // asks of the App, taken after the frame: a select query's args for A's timeline
  std::string select_request;
  std::string last_csv;  // the last CSV exported, for the script API
  uint64_t results = 0;  // replies read so far
  CompareTimelines timelines;
};

// The share of the tab's height the tables take when B's timeline is shown under them.
constexpr float kCompareTablesShare = 0.42f;

// A compare reply from the engine (with the error of the last B, "" when it loaded).
void compare_view_set_result(CompareView* v, const char* json, const char* error);
void compare_view_frame(CompareView* v, float x, float y, float w, float h);
// Selects the key by name and the row by name (the script API's compareSelect); false when the
// row is not in the table of that key.
bool compare_view_select(CompareView* v, const std::string& key, const std::string& name);
// What the tab shows, for strata.compareView(): {hasB, a, b, key, error, note, align, changed,
// added, removed (names in the order shown), steps, selected, selectedB, csv, treeShown (the
// call tree's rows shown, by path), alignment (the reply's, REPLY_KEYS.compareAlignment),
// timelines (compare_timelines_json, with A's timeline and details)}.
std::string compare_view_json(const CompareView& v, const Timeline& a,
                              const DetailsPane& a_details);
// The shown key's table.
const CompareTable& compare_view_table(const CompareView& v);
// The CSV of the key's table ("steps" for the steps, "tree" for the call tree), as exported.
std::string compare_view_csv(CompareView* v, const std::string& key);

}  // namespace strata
