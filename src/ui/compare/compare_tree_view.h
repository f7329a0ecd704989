// The Compare tab's "Call tree" key: the call-tree diff (engine/compare/tree_compare.h) as a
// tree table, indented by depth, each row's children collapsed or shown (a click on its arrow),
// siblings by |Δ| as the engine sends them; status, A and B count / total / self and Δ per row.
// A row click selects the events of its leaf name in A's timeline (select query, name mode) and
// says how many B has; a replaced group and the folded ProfilerStep#* select nothing.
#pragma once
#include <string>

namespace strata {

struct CompareView;

void compare_tree_section(CompareView* v);
// Selects the row of this path (compareSelect('tree', path)); false when no row has it.
bool compare_tree_select(CompareView* v, const std::string& path);
// The paths of the rows shown, in order, as a JSON array.
std::string compare_tree_shown_json(const CompareView& v);
// Every row's children shown up to this depth, the others collapsed (a new reply's default).
void compare_tree_reset_open(CompareView* v);

}  // namespace strata
