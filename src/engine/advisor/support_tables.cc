#include "engine/advisor/support_tables.h"

#include <algorithm>

#include "engine/advisor/table_figures.h"
#include "engine/analysis/hlo_stats.h"
#include "engine/analysis/kernel_stats.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {

namespace {

// Rows of the top-ops table.
constexpr size_t kTopOps = 10;

std::string share(double part, double whole) {
  return whole > 0 ? format_figure(100.0 * part / whole, AnalysisUnit::kPercent) : "";
}

AdvisorSupportTable step_table(const AdvisorFigureSet& f) {
  AdvisorSupportTable t{"Step breakdown", "overview", {}, {}};
  const AdvisorFigure* total = f.find("step.time_ns");
  if (!total) {
    t.missing = f.why_missing("step.time_ns");
    return t;
  }
  const char* parts[] = {"device_compute", "collectives",  "input",
                         "launch",         "host_compute", "idle"};
  const char* labels[] = {"Device compute", "Exposed collectives", "Input",
                          "Kernel launch",  "Host compute",        "Idle"};
  for (size_t i = 0; i < std::size(parts); ++i) {
    const AdvisorFigure* p = f.find(std::string("step.") + parts[i] + "_ns");
    if (!p) continue;
    AdvisorSupportRow r{
        labels[i], p->value, share(p->value, total->value) + " of the step time", {}};
    if (!p->evidence.empty()) r.link = p->evidence[0].link;
    t.rows.push_back(std::move(r));
  }
  return t;
}

// The ops with most self time: the HLO ops of an xplane, else the GPU kernels.
AdvisorSupportTable top_ops_table(const Engine& engine) {
  std::string why;
  if (hlo_stats_available(engine, &why)) {
    AdvisorSupportTable t{"Top ops", "hlo_stats", {}, {}};
    const AnalysisTable h = hlo_stats_table(engine, QueryArgs{});
    const int name = column_index(h, "hlo_op_name"), category = column_index(h, "category");
    const int self = column_index(h, "total_self_time");
    const int pct = column_index(h, "total_self_time_percent");
    // hlo_stats ranks its rows by self time.
    for (const AnalysisRow& r : h.rows) {
      if (t.rows.size() >= kTopOps || name < 0 || category < 0) break;
      t.rows.push_back({r.cells[static_cast<size_t>(name)].text, cell_number(r, self),
                        r.cells[static_cast<size_t>(category)].text + ", " +
                            format_figure(cell_number(r, pct), AnalysisUnit::kPercent) +
                            " of the HLO self time",
                        r.link});
    }
    return t;
  }
  std::string kernels_why;
  if (kernel_stats_available(engine, &kernels_why)) {
    AdvisorSupportTable t{"Top kernels", "kernel_stats", {}, {}};
    const AnalysisTable k = kernel_stats_run(engine, QueryArgs{});
    const int name = column_index(k, "kernel"), total = column_index(k, "total");
    const int count = column_index(k, "count"), pct = column_index(k, "pct");
    std::vector<std::pair<double, const AnalysisRow*>> order;
    for (const AnalysisRow& r : k.rows)
      if (r.parent < 0) order.emplace_back(cell_number(r, total), &r);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < order.size() && i < kTopOps && name >= 0; ++i) {
      const AnalysisRow& r = *order[i].second;
      t.rows.push_back({r.cells[static_cast<size_t>(name)].text, order[i].first,
                        format_figure(cell_number(r, count), AnalysisUnit::kCount) + " launches, " +
                            format_figure(cell_number(r, pct), AnalysisUnit::kPercent) +
                            " of the kernels' time",
                        r.link});
    }
    return t;
  }
  return {"Top ops", "hlo_stats", {}, why + "; " + kernels_why};
}

AdvisorSupportTable roofline_table(const AdvisorFigureSet& f) {
  AdvisorSupportTable t{"Roofline", "roofline", {}, {}};
  const AdvisorFigure* all = f.find("roofline.op_time_ns");
  if (!all) {
    t.missing = f.why_missing("roofline.op_time_ns");
    return t;
  }
  const struct {
    const char* figure;
    const char* pct;
    const char* label;
  } bounds[] = {{"roofline.hbm_bound_ns", "roofline.hbm_bound_pct", "Bound by memory bandwidth"},
                {"roofline.compute_bound_ns", "roofline.compute_bound_pct", "Bound by compute"}};
  for (const auto& b : bounds) {
    const AdvisorFigure* ns = f.find(b.figure);
    const AdvisorFigure* pct = f.find(b.pct);
    if (!ns || !pct) continue;
    t.rows.push_back({b.label,
                      ns->value,
                      format_figure(pct->value, AnalysisUnit::kPercent) + " of the op time",
                      {}});
    for (const AdvisorEvidence& e : pct->evidence)
      t.rows.push_back({"  " + e.label, -1, "", e.link});
  }
  return t;
}

AdvisorSupportTable memory_table(const AdvisorFigureSet& f) {
  AdvisorSupportTable t{"Memory", "memory_viewer", {}, {}};
  const AdvisorFigure* peak = f.find("memory.peak_bytes");
  if (!peak) {
    t.missing = f.why_missing("memory.peak_bytes");
    return t;
  }
  std::string text = format_figure(peak->value, AnalysisUnit::kBytes);
  if (const AdvisorFigure* pct = f.find("memory.peak_pct"))
    text += ", " + format_figure(pct->value, AnalysisUnit::kPercent) + " of " +
            format_figure(f.find("memory.device_bytes")->value, AnalysisUnit::kBytes);
  t.rows.push_back({"Peak heap", -1, text, {}});
  for (const AdvisorEvidence& e : peak->evidence)
    t.rows.push_back({"  " + e.label, -1, "", e.link});
  return t;
}

}  // namespace

std::vector<AdvisorSupportTable> advisor_support_tables(const Engine& engine,
                                                        const AdvisorFigureSet& figures) {
  return {step_table(figures), top_ops_table(engine), roofline_table(figures),
          memory_table(figures)};
}

}  // namespace strata
