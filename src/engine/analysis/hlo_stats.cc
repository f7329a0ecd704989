#include "engine/analysis/hlo_stats.h"

#include <algorithm>
#include <numeric>

#include "core/formats/xplane/xplane_tables.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"
#include "protocol/analysis_keys.h"

namespace strata {

namespace {

enum Col : uint8_t {
  kRank,
  kProgram,
  kCategory,
  kCategoryFrom,
  kOpName,
  kExpression,
  kFrameworkOp,
  kSource,
  kOccurrences,
  kTime,
  kAvgTime,
  kSelf,
  kAvgSelf,
  kSelfPct,
  kCumSelfPct,
  kFlopRate,
  kBandwidth,
  kIntensity,
  kBoundBy,
  kRemat,
  kOutside,
  kCount,
};

std::vector<AnalysisColumn> columns() {
  const std::string pct_of = "the device's total time (first to last op, idle included), as XProf";
  return {
      {"rank", "Rank", AnalysisUnit::kCount, "By total self time"},
      {"program_id", "Program id", AnalysisUnit::kText, "XLA program id (exact, as text)"},
      {"category", "HLO op category", AnalysisUnit::kText, kTipCategory},
      {"category_from", "Category source", AnalysisUnit::kText, kTipCategoryFrom},
      {"hlo_op_name", "HLO op name", AnalysisUnit::kText, "The HLO instruction"},
      {"hlo_op_expression", "HLO op text", AnalysisUnit::kText,
       "The op's long_name stat, else the instruction's text in its module's HloProto"},
      {"tf_op_name", "Framework op name", AnalysisUnit::kText, "The op's tf_op stat"},
      {"source_info", "Source", AnalysisUnit::kText, "The op's source (or source_info) stat"},
      {"occurrences", "#Occurrences", AnalysisUnit::kCount, "Events on the XLA Ops rows"},
      {"total_time", "Total time", AnalysisUnit::kNs, "Sum of the events' durations"},
      {"avg_time", "Avg. time", AnalysisUnit::kNs, "Total time / occurrences"},
      {"total_self_time", "Total self time", AnalysisUnit::kNs,
       "Time minus the ops nested under it on the same XLA Ops row"},
      {"avg_self_time", "Avg. self time", AnalysisUnit::kNs, "Total self time / occurrences"},
      {"total_self_time_percent", "Total self time (%)", AnalysisUnit::kPercent,
       "Self time over " + pct_of},
      {"cumulative_total_self_time_percent", "Cumulative self time (%)", AnalysisUnit::kPercent,
       "This row's and the higher ranked rows' self time over " + pct_of},
      {"flop_rate", "FLOP/s", AnalysisUnit::kFlopsPerSec, kTipFlopRate},
      {"memory_bw", "Memory BW", AnalysisUnit::kBytesPerSec, kTipBandwidth},
      {"operational_intensity", "Operational intensity", AnalysisUnit::kRatio, kTipIntensity},
      {"bound_by", "Bound by", AnalysisUnit::kText, kTipBoundBy},
      {"rematerialization", "Rematerialization", AnalysisUnit::kText,
       "Yes when the op's name carries XLA's .remat suffix (or a rematerialization stat says "
       "so)"},
      {"outside_compilation", "Outside compilation", AnalysisUnit::kText,
       "The op's outside_compilation stat, when the file has one"},
  };
}

AnalysisCell text_or(std::string_view v, const char* why) {
  return v.empty() ? AnalysisCell::empty(why) : AnalysisCell::of(std::string(v));
}

}  // namespace

bool hlo_stats_available(const Engine& engine, std::string* why) {
  return xla_ops_available(engine, why);
}

AnalysisTable hlo_stats_table(const Engine& engine, const QueryArgs& args) {
  AnalysisTable t;
  t.columns = columns();
  OpAnalysisInput in;
  if (!op_analysis_input(engine, args, &in, &t)) return t;
  const TraceStore& s = *engine.store();
  const OpMetricsDb& db = *in.db;
  const std::vector<OpCore>& cores = in.cores;
  const Peaks& peaks = in.peaks;
  const std::vector<uint32_t>& to_display = in.to_display;
  std::vector<uint32_t> order(db.ops.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return db.ops[a].self > db.ops[b].self; });
  const double total = static_cast<double>(db.total());
  double cumulative = 0;
  bool name_categories = false;
  for (size_t i = 0; i < order.size(); ++i) {
    const OpRow& op = db.ops[order[i]];
    const OpMeta* m = op.meta;
    const std::string_view name = s.strings.get(op.name);
    OpSum sum;
    sum.add(op);
    AnalysisRow r;
    r.cells.resize(kCount);
    r.cells[kRank] = AnalysisCell::of(static_cast<double>(i + 1));
    r.cells[kProgram] = text_or(op.program, "the op's event has no program id");
    const OpCategory oc = op_category(s, op);
    r.cells[kCategory] = AnalysisCell::of(oc.text);
    r.cells[kCategoryFrom] = AnalysisCell::of(std::string(category_from_label(oc.from)));
    name_categories = name_categories || oc.from == CategoryFrom::kName;
    r.cells[kOpName] = AnalysisCell::of(std::string(m ? m->hlo_name : name));
    const char* no_meta = "no event metadata of this device names this op";
    if (m && !m->long_name.empty())
      r.cells[kExpression] = AnalysisCell::of(std::string(m->long_name));
    else if (op.hlo && !op.hlo->expression.empty())
      r.cells[kExpression] = AnalysisCell::of(op.hlo->expression);  // from its module's HloProto
    else
      r.cells[kExpression] = m ? AnalysisCell::empty("the file has no long_name stat for this op")
                               : AnalysisCell::empty(no_meta);
    r.cells[kFrameworkOp] = m ? text_or(m->tf_op, "the file has no tf_op stat for this op")
                              : AnalysisCell::empty(no_meta);
    r.cells[kSource] = m ? text_or(m->source, "the file has no source stat for this op")
                         : AnalysisCell::empty(no_meta);
    r.cells[kOccurrences] = AnalysisCell::of(static_cast<double>(op.occurrences));
    r.cells[kTime] = ns_cell(op.time);
    const double occ = static_cast<double>(op.occurrences ? op.occurrences : 1);
    r.cells[kAvgTime] = AnalysisCell::of(static_cast<double>(op.time) / occ);
    r.cells[kSelf] = ns_cell(op.self);
    r.cells[kAvgSelf] = AnalysisCell::of(static_cast<double>(op.self) / occ);
    cumulative += static_cast<double>(op.self);
    r.cells[kSelfPct] =
        percent_cell(static_cast<double>(op.self), total, "the device time is zero");
    r.cells[kCumSelfPct] = percent_cell(cumulative, total, "the device time is zero");
    r.cells[kFlopRate] = flop_rate_cell(sum);
    r.cells[kBandwidth] = bandwidth_cell(sum);
    r.cells[kIntensity] = intensity_cell(sum);
    r.cells[kBoundBy] = bound_by_cell(sum, peaks);
    const bool remat = (m && m->remat == 1) || name.find(".remat") != std::string_view::npos;
    r.cells[kRemat] = AnalysisCell::of(std::string(remat ? "Yes" : "No"));
    r.cells[kOutside] = m && m->outside >= 0
                            ? AnalysisCell::of(std::string(m->outside ? "Yes" : "No"))
                            : AnalysisCell::empty("the file has no outside_compilation stat");
    r.link.name = std::string(name);
    r.link.tracks = display_tracks_of(to_display, op.tracks);
    r.link.program_id = op.program;
    r.link.module = std::string(op.module);
    r.link.op = std::string(m ? m->hlo_name : name);
    t.rows.push_back(std::move(r));
  }
  t.notes.push_back(std::string(db.cores.size() == 1
                                    ? "Core " + db.cores[0].name
                                    : std::to_string(db.cores.size()) + " cores summed") +
                    "; self time % is over the total device time (idle included).");
  if (name_categories) t.notes.push_back(kNoteGuessedCategories);
  namespace k = protocol::keys::analysis_extra;
  std::string extra;
  protocol::append_key(&extra, k::kCores, '{');
  extra += cores_json(cores);
  protocol::append_key(&extra, k::kCore);
  extra += std::to_string(db.core);
  protocol::append_key(&extra, k::kTotalNs);
  extra += std::to_string(db.total());
  t.extra_json = extra + '}';
  return t;
}

}  // namespace strata
