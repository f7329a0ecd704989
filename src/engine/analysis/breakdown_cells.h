// The breakdown columns gpu_breakdown and ranks share: span = compute + exposed communication +
// exposed memcpy + idle (TraceLens's GPU timeline breakdown), and compute's share of the span.
#pragma once
#include <cstddef>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "engine/analysis/analysis_table.h"

namespace strata {

// How many columns the breakdown takes: span, compute, exposed comm, exposed memcpy, idle,
// compute %.
inline constexpr size_t kBreakdownColumns = 6;

// Appends the breakdown columns; the span and compute columns say what they cover.
void append_breakdown_columns(std::vector<AnalysisColumn>* columns, const char* span_title,
                              const char* span_tip, const char* compute_tip);
// Writes the breakdown into `cells` from index `first` on.
void fill_breakdown_cells(std::vector<AnalysisCell>* cells, size_t first, const GpuBreakdown& b);

// part / whole in percent, 0 when whole is 0.
double percent_of(TimeNs part, TimeNs whole);

}  // namespace strata
