#include "engine/analysis/breakdown_cells.h"

namespace strata {

double percent_of(TimeNs part, TimeNs whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

void append_breakdown_columns(std::vector<AnalysisColumn>* columns, const char* span_title,
                              const char* span_tip, const char* compute_tip) {
  columns->insert(columns->end(),
                  {
                      {"span", span_title, AnalysisUnit::kNs, span_tip},
                      {"compute", "Compute", AnalysisUnit::kNs, compute_tip},
                      {"exposed_comm", "Exposed comm", AnalysisUnit::kNs,
                       "communication (nccl kernels) while no compute runs"},
                      {"exposed_memcpy", "Exposed memcpy", AnalysisUnit::kNs,
                       "memcpy while neither compute nor communication runs"},
                      {"idle", "Idle", AnalysisUnit::kNs, "span minus the time any GPU work runs"},
                      {"compute_pct", "Compute %", AnalysisUnit::kPercent, "compute / span"},
                  });
}

void fill_breakdown_cells(std::vector<AnalysisCell>* cells, size_t first, const GpuBreakdown& b) {
  AnalysisCell* c = cells->data() + first;
  c[0] = AnalysisCell::of(static_cast<double>(b.span));
  c[1] = AnalysisCell::of(static_cast<double>(b.compute));
  c[2] = AnalysisCell::of(static_cast<double>(b.exposed_comm));
  c[3] = AnalysisCell::of(static_cast<double>(b.exposed_memcpy));
  c[4] = AnalysisCell::of(static_cast<double>(b.idle));
  c[5] = AnalysisCell::of(percent_of(b.compute, b.span));
}

}  // namespace strata
