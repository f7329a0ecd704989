#include "engine/analysis/op_profile.h"

#include <algorithm>
#include <map>

#include "core/formats/xplane/xplane_tables.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"
#include "protocol/analysis_keys.h"

namespace strata {

namespace {

enum Col : uint8_t {
  kName,
  kCategory,
  kCategoryFrom,
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
      {"category", "Category", AnalysisUnit::kText, kTipCategory},
      {"category_from", "Category source", AnalysisUnit::kText, kTipCategoryFrom},
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
  std::string name, category, category_from;
  OpSum sum;
  AnalysisLink link;
  std::vector<Node> children;
  bool dedup_group = false;  // ops sharing a deduplicated_name, under the first one's name
  bool fused = false;        // an instruction inside a fusion: no time of its own in the file
};

constexpr const char* kFusedNoTime =
    "an instruction inside a fusion: the file times the fusion only (XProf, too, lists a "
    "fusion's instructions without time)";
constexpr const char* kFusedNoFlops =
    "the file has no flops stat for the instructions inside a fusion (XProf takes them from "
    "XLA's cost model)";

AnalysisRow fused_row(const Node& n, int32_t parent) {
  AnalysisRow r;
  r.parent = parent;
  r.link = n.link;
  r.cells.assign(kBoundBy + 1, AnalysisCell::empty(kFusedNoTime));
  r.cells[kName] = AnalysisCell::of(n.name);
  r.cells[kCategory] = AnalysisCell::of(n.category);
  r.cells[kCategoryFrom] = AnalysisCell::of(n.category_from);
  for (Col c : {kFlops, kFlopRate, kIntensity, kBoundBy})
    r.cells[c] = AnalysisCell::empty(kFusedNoFlops);
  r.cells[kBytes] = r.cells[kBandwidth] = AnalysisCell::empty(
      "the file has no bytes_accessed stat for the instructions inside a fusion");
  return r;
}

// A fusion's instructions from its module's HloProto, as XProf nests them under the fusion.
void add_fused(const std::vector<HloFusedOp>& fused, const AnalysisLink& fusion, Node* into) {
  for (const HloFusedOp& f : fused) {
    Node n;
    n.name = f.name;
    n.category = f.category.empty() ? std::string(category_from_name(f.name)) : f.category;
    n.category_from =
        category_from_label(f.category.empty() ? CategoryFrom::kName : CategoryFrom::kHloProto);
    n.fused = true;
    n.link.program_id = fusion.program_id;
    n.link.module = fusion.module;
    n.link.op = f.name;  // opens in the Graph tab; no events of its own to select
    add_fused(f.fused, fusion, &n);
    into->children.push_back(std::move(n));
  }
}

AnalysisRow make_row(const Node& n, int32_t parent, double denom, const Peaks& peaks) {
  if (n.fused) return fused_row(n, parent);
  AnalysisRow r;
  r.parent = parent;
  r.link = n.link;
  r.cells.resize(kBoundBy + 1);
  r.cells[kName] = AnalysisCell::of(n.name);
  r.cells[kCategory] = AnalysisCell::of(n.category);
  r.cells[kCategoryFrom] = AnalysisCell::of(n.category_from);
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
  // A fusion's instructions keep their computation's order (they have no time to sort by).
  if (!nodes->empty() && !nodes->front().fused)
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
  OpAnalysisInput in;
  if (!op_analysis_input(engine, args, &in, &t)) return t;
  const TraceStore& s = *engine.store();
  const OpMetricsDb& db = *in.db;
  const std::vector<OpCore>& cores = in.cores;
  const Peaks& peaks = in.peaks;
  const std::vector<uint32_t>& to_display = in.to_display;

  // program → category → deduplicated name → ops, each level summing the one below.
  std::vector<Node> programs;
  std::map<std::string, size_t> program_at;
  std::map<std::pair<size_t, std::string>, size_t> category_at;
  std::map<std::tuple<size_t, size_t, std::string>, size_t> dedup_at;
  bool name_categories = false, fusions = false;
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
    const OpCategory oc = op_category(s, op);
    const std::string& category = oc.text;
    name_categories = name_categories || oc.from == CategoryFrom::kName;
    auto [cit, cadded] =
        category_at.emplace(std::pair{pit->second, category}, prog.children.size());
    if (cadded) {
      Node c;
      c.name = c.category = category;
      c.category_from = category_from_label(oc.from);
      c.link.program_id = op.program;
      c.link.module = std::string(op.module);
      prog.children.push_back(std::move(c));
    }
    Node& cat = prog.children[cit->second];
    Node leaf;
    leaf.name = std::string(name);
    leaf.category = category;
    leaf.category_from = category_from_label(oc.from);
    leaf.sum.add(op);
    leaf.link.name = std::string(name);
    leaf.link.tracks = display_tracks_of(to_display, op.tracks);
    leaf.link.program_id = op.program;
    leaf.link.module = std::string(op.module);
    leaf.link.op = op.meta ? std::string(op.meta->hlo_name) : std::string(name);
    if (op.hlo && !op.hlo->fused.empty()) {
      add_fused(op.hlo->fused, leaf.link, &leaf);
      fusions = true;
    }
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
    if (!group.dedup_group) {  // the first op becomes the group's first child
      Node first = group;
      group.name = first.name + " and its duplicate(s)";
      group.link.name.clear();  // several names: no one event name selects them all
      group.link.tracks.clear();
      group.children.clear();
      group.children.push_back(std::move(first));
      group.dedup_group = true;
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
  if (name_categories) t.notes.push_back(kNoteGuessedCategories);
  if (fusions)
    t.notes.push_back(
        "A fusion's row opens to the instructions it calls, from its module's HloProto; they "
        "have no time of their own (the file times the fusion), as in XProf.");
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
