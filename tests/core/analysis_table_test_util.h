// Reading an analysis table's JSON (analysis_table_json, as strata.analysis() answers it) in
// tests: its column keys, and per row the parent and the cells as text. Shared by the analysis
// tests that check figures against an independent computation.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"

namespace strata::testing {

struct TableRow {
  int parent = -1;
  std::vector<std::string> cells;  // as JSON scalars' text ("" for null)
};

// The rows of an analysis table (flattened JSON: rows[i].parent and rows[i].cells[j]); the
// column keys go to *columns.
inline std::vector<TableRow> table_rows(const std::string& json,
                                        std::vector<std::string>* columns) {
  std::vector<JsonLine> lines;
  std::string err;
  EXPECT_TRUE(json_flatten(json, &lines, &err)) << err;
  std::vector<TableRow> rows;
  std::string section;
  for (size_t i = 0; i < lines.size(); ++i) {
    const JsonLine& l = lines[i];
    if (l.depth == 0) section = l.key;
    if (section == "columns" && l.depth == 2 && l.key == "key") columns->push_back(l.value);
    if (section != "rows") continue;
    if (l.depth == 1) rows.emplace_back();
    if (l.depth == 2 && l.key == "parent") rows.back().parent = std::stoi(l.value);
    if (l.depth == 3 && l.kind != 'o' && l.kind != 'a') {
      // cells are the only depth-3 scalars whose parent is an array
      bool in_cells = false;
      for (size_t k = i; k-- > 0;)
        if (lines[k].depth == 2) {
          in_cells = lines[k].key == "cells";
          break;
        }
      if (in_cells) rows.back().cells.push_back(l.kind == 'z' ? std::string() : l.value);
    }
  }
  return rows;
}

// The row's cell in column `key` as text ("" when empty); a failure when there is no such column.
inline std::string table_cell(const TableRow& r, const std::vector<std::string>& cols,
                              const char* key) {
  for (size_t c = 0; c < cols.size(); ++c)
    if (cols[c] == key) return c < r.cells.size() ? r.cells[c] : std::string();
  ADD_FAILURE() << "no column " << key;
  return {};
}

// The cell as a number, -1 when empty.
inline double table_number(const TableRow& r, const std::vector<std::string>& cols,
                           const char* key) {
  const std::string v = table_cell(r, cols, key);
  return v.empty() ? -1 : std::stod(v);
}

}  // namespace strata::testing
