#include "engine/advisor/figures_hlo.h"

#include <algorithm>
#include <span>
#include <string_view>

#include "core/base/text.h"
#include "engine/advisor/figures_hlo_graph.h"
#include "engine/advisor/table_figures.h"
#include "engine/analysis/hlo_stats.h"
#include "engine/query_args.h"

namespace strata {

namespace {

constexpr size_t kEvidenceRows = 3;

// XProf's smart suggestions: the HLO categories that move data without computing, and the
// collectives.
constexpr std::string_view kDataShuffle[] = {"gather",
                                             "scatter",
                                             "slice",
                                             "pad",
                                             "concatenate",
                                             "dynamic-slice",
                                             "dynamic-update-slice",
                                             "sort",
                                             "select-and-scatter"};
constexpr std::string_view kCollectives[] = {"all-reduce", "all-gather",         "reduce-scatter",
                                             "all-to-all", "collective-permute", "send",
                                             "recv",       "async-collective"};

// Low precision as XProf's overview counts it against 32-bit compute, by the op's output type.
constexpr std::string_view kLowPrecision[] = {"bf16", "f16", "f8", "s8", "u8", "s4", "u4"};
constexpr std::string_view kHighPrecision[] = {"f32", "f64"};

// XProf's debug-print rule: the device waits on the host printing or calling back.
constexpr std::string_view kDebugPrint[] = {"debug_print", "callback", "outfeed"};
// XProf's special-op rule: cores waiting at a barrier for the others.
constexpr std::string_view kBarrier = "barrier-cores";

template <size_t N>
bool in_list(const std::string& category, const std::string_view (&list)[N]) {
  for (std::string_view c : list)
    if (category.compare(0, c.size(), c) == 0) return true;
  return false;
}

template <size_t N>
bool has_any(const std::string& text, const std::string_view (&list)[N]) {
  for (std::string_view c : list)
    if (text.find(c) != std::string::npos) return true;
  return false;
}

// The element type of an HLO text line's result: "%f.1 = bf16[8]{0} fusion(...)" → "bf16"; the
// first element's for a tuple; "" when the line names none.
std::string_view result_type(std::string_view expression) {
  size_t at = expression.find(" = ");
  at = at == std::string_view::npos ? 0 : at + 3;
  while (at < expression.size() && expression[at] == '(') ++at;
  const size_t end = expression.find_first_of("[ ", at);
  return end == std::string_view::npos ? std::string_view() : expression.substr(at, end - at);
}

bool type_in(std::string_view type, std::span<const std::string_view> list) {
  for (std::string_view t : list)
    if (type.compare(0, t.size(), t) == 0) return true;
  return false;
}

// The low-precision share of the typed ops' self time, debug prints and barrier waits.
void op_kind_figures(const AnalysisTable& t, double all, AdvisorFigureSet* f) {
  const int category = column_index(t, "category"), self = column_index(t, "total_self_time");
  const int name = column_index(t, "hlo_op_name"), expr = column_index(t, "hlo_op_expression");
  if (name < 0 || expr < 0) return f->set_missing("precision", "HLO op names and texts");
  double low = 0, high = 0, debug = 0, barrier = 0;
  std::vector<std::pair<double, const AnalysisRow*>> debug_rows, barrier_rows, high_rows;
  for (const AnalysisRow& r : t.rows) {
    const double ns = cell_number(r, self);
    const std::string& e = r.cells[static_cast<size_t>(expr)].text;
    const std::string type(result_type(e));
    if (type_in(type, kLowPrecision)) low += ns;
    if (type_in(type, kHighPrecision)) {
      high += ns;
      high_rows.emplace_back(ns, &r);
    }
    const std::string text = ascii_lower(r.cells[static_cast<size_t>(name)].text + " " + e + " " +
                                         r.cells[static_cast<size_t>(category)].text);
    if (has_any(text, kDebugPrint)) {
      debug += ns;
      debug_rows.emplace_back(ns, &r);
    }
    if (text.find(kBarrier) != std::string::npos) {
      barrier += ns;
      barrier_rows.emplace_back(ns, &r);
    }
  }
  const auto evidence = [&](AdvisorFigure* fig,
                            std::vector<std::pair<double, const AnalysisRow*>>& rows) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t k = 0; k < rows.size() && k < kEvidenceRows; ++k)
      if (rows[k].first > 0 && !rows[k].second->link.name.empty())
        fig->evidence.push_back({rows[k].second->cells[static_cast<size_t>(name)].text + ": " +
                                     format_figure(rows[k].first, AnalysisUnit::kNs),
                                 rows[k].second->link});
  };
  const auto pct = [&](double v) { return 100.0 * v / all; };
  AdvisorFigure* d = f->add("hlo.debug_print_ns", debug, AnalysisUnit::kNs, "hlo_stats",
                            "self time in debug prints, host callbacks and outfeeds");
  f->add("hlo.debug_print_pct", pct(debug), AnalysisUnit::kPercent, "hlo_stats",
         "debug prints' share of the HLO self time");
  evidence(d, debug_rows);
  AdvisorFigure* b = f->add("hlo.barrier_ns", barrier, AnalysisUnit::kNs, "hlo_stats",
                            "self time of cores waiting at barrier-cores");
  f->add("hlo.barrier_pct", pct(barrier), AnalysisUnit::kPercent, "hlo_stats",
         "barrier-cores' share of the HLO self time");
  evidence(b, barrier_rows);
  if (low + high <= 0)
    return f->set_missing("precision", "ops whose HLO text names a floating-point result type");
  f->add("precision.low_ns", low, AnalysisUnit::kNs, "hlo_stats",
         "self time of ops with a bf16 / f16 / fp8 / int8 result");
  AdvisorFigure* h = f->add("precision.high_ns", high, AnalysisUnit::kNs, "hlo_stats",
                            "self time of ops with an f32 / f64 result");
  f->add("precision.low_pct", 100.0 * low / (low + high), AnalysisUnit::kPercent, "hlo_stats",
         "low-precision share of the 16- and 32-bit ops' self time");
  evidence(h, high_rows);
}

}  // namespace

void hlo_figures(const Engine& engine, AdvisorFigureSet* f) {
  std::string why;
  if (!hlo_stats_available(engine, &why)) {
    f->set_missing("precision", why);
    hlo_graph_figures(engine, nullptr, f);
    return f->set_missing("hlo", why);
  }
  const AnalysisTable t = hlo_stats_table(engine, QueryArgs{});
  hlo_graph_figures(engine, &t, f);
  const int category = column_index(t, "category"), self = column_index(t, "total_self_time");
  if (category < 0 || self < 0) {
    f->set_missing("precision", "HLO ops with self times");
    return f->set_missing("hlo", "HLO ops with self times");
  }
  double all = 0, shuffle = 0, collectives = 0;
  for (const AnalysisRow& r : t.rows) {
    const double ns = cell_number(r, self);
    all += ns;
    const std::string& c = r.cells[static_cast<size_t>(category)].text;
    if (in_list(c, kDataShuffle)) shuffle += ns;
    if (in_list(c, kCollectives)) collectives += ns;
  }
  if (all <= 0) {
    f->set_missing("precision", "HLO ops with self times");
    return f->set_missing("hlo", "HLO ops with self times");
  }
  op_kind_figures(t, all, f);
  const auto pct = [&](double v) { return 100.0 * v / all; };
  f->add("hlo.self_time_ns", all, AnalysisUnit::kNs, "hlo_stats", "self time in HLO ops");
  AdvisorFigure* s = f->add("hlo.data_shuffle_ns", shuffle, AnalysisUnit::kNs, "hlo_stats",
                            "self time in data-shuffling ops (gather, scatter, slice, ...)");
  f->add("hlo.data_shuffle_pct", pct(shuffle), AnalysisUnit::kPercent, "hlo_stats",
         "data-shuffling share of the HLO self time");
  AdvisorFigure* c = f->add("hlo.collectives_ns", collectives, AnalysisUnit::kNs, "hlo_stats",
                            "self time in collectives");
  f->add("hlo.collectives_pct", pct(collectives), AnalysisUnit::kPercent, "hlo_stats",
         "collectives' share of the HLO self time");
  for (std::string_view cat : kDataShuffle)
    for (AdvisorEvidence& e :
         top_rows_where(t, "total_self_time", category, std::string(cat), kEvidenceRows))
      if (s->evidence.size() < kEvidenceRows) s->evidence.push_back(std::move(e));
  for (std::string_view cat : kCollectives)
    for (AdvisorEvidence& e :
         top_rows_where(t, "total_self_time", category, std::string(cat), kEvidenceRows))
      if (c->evidence.size() < kEvidenceRows) c->evidence.push_back(std::move(e));
}

}  // namespace strata
