// Reading figures out of an analysis' table by column key: sums, maxima and the rows with the
// largest values as evidence (rows whose link names events).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "engine/advisor/figures.h"
#include "engine/analysis/analysis_table.h"

namespace strata {

int column_index(const AnalysisTable& t, const std::string& key);  // -1 when absent
double cell_number(const AnalysisRow& r, int column);              // 0 for an empty or text cell
// Σ of a column's numbers over the top-level rows (`top_level`) or over the child rows.
double sum_column(const AnalysisTable& t, const std::string& key, bool top_level);
double max_column(const AnalysisTable& t, const std::string& key);
bool has_number(const AnalysisTable& t, const std::string& key, bool top_level);
// The `n` rows with the largest positive `key` whose link names events (top-level rows only
// with `top_level`, else any), labelled "<first cell>: <value>".
std::vector<AdvisorEvidence> top_rows(const AnalysisTable& t, const std::string& key,
                                      bool top_level, size_t n, AnalysisUnit unit);
// The same among rows whose text column `filter_column` reads `filter_text`.
std::vector<AdvisorEvidence> top_rows_where(const AnalysisTable& t, const std::string& key,
                                            int filter_column, const std::string& filter_text,
                                            size_t n);

}  // namespace strata
