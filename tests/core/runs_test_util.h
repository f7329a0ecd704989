// Helpers for the run-statistics tests: gunzip a sample, import a Kineto trace, and a tiny
// quote-aware CSV splitter written independently of core/formats/ascend_csv, so the tests'
// expected sums do not come from the code under test.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "import_test_util.h"

namespace strata::testing {

// Reads a shared sample, gunzipping *.gz. False when absent.
inline bool read_shared_text(const std::string& rel, std::string* text) {
  std::string raw;
  if (!read_shared(rel, &raw)) return false;
  if (rel.size() > 3 && rel.substr(rel.size() - 3) == ".gz") return gunzip(raw, text);
  *text = std::move(raw);
  return true;
}

// Records of a CSV: fields split on commas outside double quotes, records on newlines outside
// quotes; quotes are dropped (a doubled quote is one quote). No trimming.
inline std::vector<std::vector<std::string>> naive_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  rows.back().emplace_back();
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      if (quoted && i + 1 < text.size() && text[i + 1] == '"') {
        rows.back().back().push_back('"');
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == ',' && !quoted) {
      rows.back().emplace_back();
    } else if ((c == '\n' || c == '\r') && !quoted) {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      rows.emplace_back();
      rows.back().emplace_back();
    } else {
      rows.back().back().push_back(c);
    }
  }
  while (!rows.empty() && rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

inline int naive_col(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    std::string h = header[i];
    if (i == 0 && h.rfind("\xEF\xBB\xBF", 0) == 0) h = h.substr(3);
    if (h == name) return int(i);
  }
  return -1;
}

inline double naive_num(const std::vector<std::string>& row, int col) {
  if (col < 0 || size_t(col) >= row.size()) return 0;
  return std::atof(row[col].c_str());
}

}  // namespace strata::testing
