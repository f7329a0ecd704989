#include "engine/analysis/op_profile.h"

#include <algorithm>
#include <map>

#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"
#include "protocol/analysis_keys.h"

namespace strata {

namespace {

enum Col : uint8_t {
  kName,
  kCategory,
  kOccurrences,
  kTime,
  kAvgTime,
  kSelf,
  kSelfPct,
  kFlops,
  kBytes,
  kFlopRate,
  kBandwidth,
  kIntensity,
  kBoundBy,
};

std::vector<AnalysisColumn> columns(bool idle) {
  const std::string of = idle ? "the device's total time (first to last op, idle included)"
                              : "the device's busy time (the top-level ops' time, idle excluded)";
  return {
      {"name", "Program / category / op", AnalysisUnit::kText,
       "Program, then HLO category, then HLO op; ops sharing a deduplicated_name are grouped "
       "under the first one's name"},
      {"category", "Category", AnalysisUnit::kText,
       "The op's hlo_category stat (else its name without the .N suffix)"},
      {"occurrences", "Occurrences", AnalysisUnit::kCount, "Events on the XLA Ops rows"},
      {"time", "Total time", AnalysisUnit::kNs,
       "Sum of the events' durations (nested ops on the row included)"},
      {"avg_time", "Avg. time", AnalysisUnit::kNs, "Total time / occurrences"},
      {"self_time", "Self time", AnalysisUnit::kNs,
       "Time minus the ops nested under it on the same XLA Ops row, summed over occurrences"},
      {"self_percent", "% of device time", AnalysisUnit::kPercent, "Self time over " + of},
      {"flops", "FLOPs", AnalysisUnit::kFlops, kTipFlops},
      {"bytes", "Bytes accessed", AnalysisUnit::kBytes, kTipBytes},
      {"flop_rate", "FLOP/s", AnalysisUnit::kFlopsPerSec, kTipFlopRate},
      {"bandwidth", "Bytes/s", AnalysisUnit::kBytesPerSec, kTipBandwidth},
      {"intensity", "FLOP/byte", AnalysisUnit::kRatio, kTipIntensity},
      {"bound_by", "Bound by", AnalysisUnit::kText, kTipBoundBy},
  };
}

struct Node {
  std::string name, category;
  OpSum sum;
  AnalysisLink link;
  std::vector<Node> children;
};

AnalysisRow make_row(const Node& n, int32_t parent, double denom, const Peaks& peaks) {
  AnalysisRow r;
  r.parent = parent;
  r.link = n.link;
  r.cells.resize(kBoundBy + 1);
  r.cells[kName] = AnalysisCell::of(n.name);
  r.cells[kCategory] = AnalysisCell::of(n.category);
  r.cells[kOccurrences] = AnalysisCell::of(static_cast<double>(n.sum.occurrences));
  r.cells[kTime] = ns_cell(n.sum.time);
  r.cells[kAvgTime] = n.sum.occurrences ? AnalysisCell::of(static_cast<double>(n.sum.time) /
                                                           static_cast<double>(n.sum.occurrences))
                                        : AnalysisCell::empty("no occurrences");
  r.cells[kSelf] = ns_cell(n.sum.self);
  r.cells[kSelfPct] =
      percent_cell(static_cast<double>(n.sum.self), denom, "the device time is zero");
  r.cells[kFlops] = flops_cell(n.sum);
  r.cells[kBytes] = bytes_cell(n.sum);
  r.cells[kFlopRate] = flop_rate_cell(n.sum);
  r.cells[kBandwidth] = bandwidth_cell(n.sum);
  r.cells[kIntensity] = intensity_cell(n.sum);
  r.cells[kBoundBy] = bound_by_cell(n.sum, peaks);
  return r;
}

void sort_tree(std::vector<Node>* nodes) {
  std::stable_sort(nodes->begin(), nodes->end(),
                   [](const Node& a, const Node& b) { return a.sum.self > b.sum.self; });
  for (Node& n : *nodes) sort_tree(&n.children);
}

void emit(const std::vector<Node>& nodes, int32_t parent, double denom, const Peaks& peaks,
          AnalysisTable* t) {
  for (const Node& n : nodes) {
    const auto at = static_cast<int32_t>(t->rows.size());
    t->rows.push_back(make_row(n, parent, denom, peaks));
    emit(n.children, at, denom, peaks, t);
  }
}

}  // namespace

bool op_profile_available(const Engine& engine, std::string* why) {
  return xla_ops_available(engine, why);
}

AnalysisTable op_profile_table(const Engine& engine, const QueryArgs& args) {
  AnalysisTable t;
  const bool include_idle = args.flag("includeIdle");
  t.columns = columns(include_idle);
  OpMetricsDb db;
  std::vector<OpCore> cores;
  if (!op_metrics_for(engine, args, &db, &cores, &t)) return t;
  const TraceStore& s = *engine.store();
  const Peaks peaks = analysis_peaks(s, db.cores, args);
  const std::vector<uint32_t> to_display =
      store_to_display(engine.display_tracks(), s.tracks.size());

  // program → category → deduplicated name → ops, each level summing the one below.
  std::vector<Node> programs;
  std::map<std::string, size_t> program_at;
  std::map<std::pair<size_t, std::string>, size_t> category_at;
  std::map<std::tuple<size_t, size_t, std::string>, size_t> dedup_at;
  bool name_categories = false;
  for (const OpRow& op : db.ops) {
    const std::string_view name = s.strings.get(op.name);
    auto [pit, padded] = program_at.emplace(op.program, programs.size());
    if (padded) {
      Node p;
      if (op.program.empty())
        p.name = "(no program id)";
      else
        p.name = (op.module.empty() ? std::string("program ") : std::string(op.module)) + "(" +
                 op.program + ")";
      p.link.program_id = op.program;
      p.link.module = std::string(op.module);
      programs.push_back(std::move(p));
    }
    Node& prog = programs[pit->second];
    std::string category;
    if (op.meta && !op.meta->category.empty()) {
      category = std::string(op.meta->category);
    } else {
      category = std::string(category_from_name(name));
      name_categories = true;
    }
    auto [cit, cadded] =
        category_at.emplace(std::pair{pit->second, category}, prog.children.size());
    if (cadded) {
      Node c;
      c.name = c.category = category;
      c.link.program_id = op.program;
      c.link.module = std::string(op.module);
      prog.children.push_back(std::move(c));
    }
    Node& cat = prog.children[cit->second];
    Node leaf;
    leaf.name = std::string(name);
    leaf.category = category;
    leaf.sum.add(op);
    leaf.link.name = std::string(name);
    leaf.link.tracks = display_tracks_of(to_display, op.tracks);
    leaf.link.program_id = op.program;
    leaf.link.module = std::string(op.module);
    leaf.link.op = op.meta ? std::string(op.meta->hlo_name) : std::string(name);
    prog.sum.add(leaf.sum);
    cat.sum.add(leaf.sum);
    const std::string dedup = op.meta ? std::string(op.meta->dedup) : std::string();
    if (dedup.empty()) {
      cat.children.push_back(std::move(leaf));
      continue;
    }
    auto [dit, dadded] =
        dedup_at.emplace(std::tuple{pit->second, cit->second, dedup}, cat.children.size());
    if (dadded) {
      cat.children.push_back(std::move(leaf));
      continue;
    }
    Node& group = cat.children[dit->second];
    if (group.children.empty()) {  // the first op becomes the group's first child
      Node first = group;
      group.name = first.name + " and its duplicate(s)";
      group.link.name.clear();  // several names: no one event name selects them all
      group.link.tracks.clear();
      group.children.push_back(std::move(first));
    }
    group.sum.add(leaf.sum);
    group.children.push_back(std::move(leaf));
  }
  sort_tree(&programs);

  const TimeNs total = db.total(), busy = db.busy();
  const TimeNs idle = total > busy ? total - busy : 0;
  const double denom = static_cast<double>(include_idle ? total : busy);
  if (include_idle) {
    Node n;
    n.name = n.category = "IDLE";
    n.sum.time = n.sum.self = idle;
    n.sum.flops_why = n.sum.bytes_why = "idle time runs no op";
    n.sum.flops_missing = n.sum.bytes_missing = 1;
    n.sum.occurrences = 0;
    programs.insert(programs.begin(), std::move(n));
  }
  emit(programs, -1, denom, peaks, &t);

  t.notes.push_back(std::string(db.cores.size() == 1
                                    ? "Core " + db.cores[0].name
                                    : std::to_string(db.cores.size()) + " cores summed") +
                    "; % of device time is over the " +
                    (include_idle ? "total time (first to last op, idle included)"
                                  : "busy time (idle excluded)") +
                    ".");
  if (name_categories)
    t.notes.push_back(
        "Some ops have no hlo_category stat: their category is their name without the .N "
        "suffix (XProf takes it from the HloProto).");
  for (const OpCore& c : db.cores)
    if (c.derived) {
      t.notes.push_back("The XLA Ops row of " + c.name +
                        " is derived from its kernels' hlo_op stats (consecutive kernels of one "
                        "op are one occurrence), as XProf draws it.");
      break;
    }
  namespace k = protocol::keys::analysis_extra;
  std::string extra;
  protocol::append_key(&extra, k::kCores, '{');
  extra += cores_json(cores);
  protocol::append_key(&extra, k::kCore);
  extra += std::to_string(db.core);
  protocol::append_key(&extra, k::kTotalNs);
  extra += std::to_string(total);
  protocol::append_key(&extra, k::kBusyNs);
  extra += std::to_string(busy);
  protocol::append_key(&extra, k::kIdleNs);
  extra += std::to_string(idle);
  t.extra_json = extra + '}';
  return t;
}

}  // namespace strata
