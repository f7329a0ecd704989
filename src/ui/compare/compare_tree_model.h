// The Compare tab's call-tree diff as the UI holds it: the reply's `tree` rows
// (protocol/reply_keys_compare.h) in pre-order, which of them an expand/collapse state shows,
// and the CSV of every row. No ImGui: native tests read the engine's reply through it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"

namespace strata {

struct CompareTreeRow {
  std::string name, path, status;
  int64_t parent = -1;  // row index, -1 at the top
  uint32_t depth = 0;
  double a_count = 0, a_total = 0, a_self = 0;  // ns
  double b_count = 0, b_total = 0, b_self = 0;
  double delta = 0, delta_pct = 0;
  std::vector<std::string> a_names, b_names;  // a replaced group's members
};

struct CompareTree {
  bool present = false;  // the reply had a tree (it has one with a B)
  std::vector<CompareTreeRow> rows;
  double unchanged = 0, a_nodes = 0, b_nodes = 0;
  std::string note;
};

// An array element's place, from its key in json_walk's path ("[12]" → 12; -1 for a member's
// key): the compare replies' rows (compare_model, compare_match_model and the tree's).
long compare_json_index(const std::string& key);

// One line of the reply under "tree" (`path` from json_walk, path[0] == "tree").
void compare_tree_parse_line(CompareTree* t, const std::vector<std::string>& path,
                             const JsonLine& l);

// The rows shown when only the rows whose `open` flag is set show their children (`open` has
// one flag per row), in order.
std::vector<uint32_t> compare_tree_visible(const CompareTree& t, const std::vector<uint8_t>& open);
// Whether a row has rows under it.
std::vector<uint8_t> compare_tree_has_children(const CompareTree& t);

// Every row in pre-order: status, depth, path, name, counts and times in µs, the group's
// members ("a1; a2" per side).
std::string compare_tree_csv(const CompareTree& t);

}  // namespace strata
