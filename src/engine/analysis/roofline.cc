#include "engine/analysis/roofline.h"

#include <algorithm>
#include <map>

#include "core/base/json_writer.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"
#include "engine/query_args.h"
#include "protocol/analysis_keys.h"

namespace strata {

namespace {

enum Col : uint8_t {
  kName,
  kKind,
  kCategory,
  kTime,
  kFlops,
  kBytes,
  kIntensity,
  kFlopRate,
  kBandwidth,
  kRoof,
  kOfRoof,
  kBoundBy,
  kCount,
};

std::vector<AnalysisColumn> columns() {
  return {
      {"name", "Program / op", AnalysisUnit::kText, "A program, then its HLO ops"},
      {"kind", "Kind", AnalysisUnit::kText, "program or op"},
      {"category", "Category", AnalysisUnit::kText, kTipCategory},
      {"time", "Total time", AnalysisUnit::kNs, "Sum of the events' durations"},
      {"flops", "FLOPs", AnalysisUnit::kFlops, kTipFlops},
      {"bytes", "Bytes accessed", AnalysisUnit::kBytes, kTipBytes},
      {"intensity", "FLOP/byte", AnalysisUnit::kRatio, kTipIntensity},
      {"flop_rate", "Achieved FLOP/s", AnalysisUnit::kFlopsPerSec,
       "FLOPs over the total time; with several cores, the time is summed over them, so this "
       "is the rate per core, against the per-core peaks"},
      {"bandwidth", "Achieved bytes/s", AnalysisUnit::kBytesPerSec, kTipBandwidth},
      {"roof", "Roofline FLOP/s", AnalysisUnit::kFlopsPerSec,
       "min(intensity x peak bandwidth, peak FLOP/s): the best rate at this intensity"},
      {"of_roof", "% of roofline", AnalysisUnit::kPercent, "Achieved FLOP/s over the roofline"},
      {"bound_by", "Bound by", AnalysisUnit::kText, kTipBoundBy},
  };
}

void append_number_or_null(std::string* o, double v) {
  if (v > 0)
    json_append_number(o, v);
  else
    *o += "null";
}

AnalysisRow make_row(std::string name, const char* kind, std::string category, const OpSum& sum,
                     const Peaks& peaks) {
  AnalysisRow r;
  r.cells.resize(kCount);
  r.cells[kName] = AnalysisCell::of(std::move(name));
  r.cells[kKind] = AnalysisCell::of(std::string(kind));
  r.cells[kCategory] = AnalysisCell::of(std::move(category));
  r.cells[kTime] = ns_cell(sum.time);
  r.cells[kFlops] = flops_cell(sum);
  r.cells[kBytes] = bytes_cell(sum);
  r.cells[kIntensity] = intensity_cell(sum);
  r.cells[kFlopRate] = flop_rate_cell(sum);
  r.cells[kBandwidth] = bandwidth_cell(sum);
  const AnalysisCell& oi = r.cells[kIntensity];
  if (oi.kind != AnalysisCell::Kind::kNumber) {
    r.cells[kRoof] = r.cells[kOfRoof] = AnalysisCell::empty(oi.why);
  } else if (!peaks.has_flops() || !peaks.has_bytes()) {
    r.cells[kRoof] = r.cells[kOfRoof] =
        AnalysisCell::empty("no peak figures: " + peaks.why + " (type them in the Roofline)");
  } else {
    const double roof = std::min(oi.number * peaks.bytes_per_sec, peaks.flops_per_sec);
    r.cells[kRoof] = AnalysisCell::of(roof);
    const AnalysisCell& rate = r.cells[kFlopRate];
    r.cells[kOfRoof] = rate.kind == AnalysisCell::Kind::kNumber && roof > 0
                           ? AnalysisCell::of(100.0 * rate.number / roof)
                           : AnalysisCell::empty(rate.why.empty() ? "no rate" : rate.why);
  }
  r.cells[kBoundBy] = bound_by_cell(sum, peaks);
  return r;
}

}  // namespace

bool roofline_available(const Engine& engine, std::string* why) {
  return xla_ops_available(engine, why);
}

AnalysisTable roofline_table(const Engine& engine, const QueryArgs& args) {
  AnalysisTable t;
  t.columns = columns();
  OpAnalysisInput in;
  if (!op_analysis_input(engine, args, &in, &t)) return t;
  const TraceStore& s = *engine.store();
  const OpMetricsDb& db = *in.db;
  const std::vector<OpCore>& cores = in.cores;
  const Peaks& peaks = in.peaks;
  const std::vector<uint32_t>& to_display = in.to_display;

  // Programs by total time, each followed by its ops by total time.
  std::map<std::string, std::vector<uint32_t>> by_program;
  for (uint32_t i = 0; i < db.ops.size(); ++i) by_program[db.ops[i].program].push_back(i);
  std::vector<std::pair<OpSum, const std::vector<uint32_t>*>> programs;
  for (auto& [program, ops] : by_program) {
    OpSum sum;
    for (uint32_t i : ops) sum.add(db.ops[i]);
    std::stable_sort(ops.begin(), ops.end(),
                     [&](uint32_t a, uint32_t b) { return db.ops[a].time > db.ops[b].time; });
    programs.emplace_back(sum, &ops);
  }
  std::stable_sort(programs.begin(), programs.end(),
                   [](const auto& a, const auto& b) { return a.first.time > b.first.time; });
  for (const auto& [sum, ops] : programs) {
    const OpRow& first = db.ops[ops->front()];
    std::string name = first.program.empty() ? std::string("(no program id)")
                                             : (first.module.empty() ? std::string("program ")
                                                                     : std::string(first.module)) +
                                                   "(" + first.program + ")";
    const auto parent = static_cast<int32_t>(t.rows.size());
    AnalysisRow pr = make_row(std::move(name), "program", "", sum, peaks);
    pr.link.program_id = first.program;
    pr.link.module = std::string(first.module);
    t.rows.push_back(std::move(pr));
    for (uint32_t i : *ops) {
      const OpRow& op = db.ops[i];
      const std::string_view name_of = s.strings.get(op.name);
      OpSum one;
      one.add(op);
      AnalysisRow r = make_row(std::string(name_of), "op", op_category(s, op).text, one, peaks);
      r.parent = parent;
      r.link.name = std::string(name_of);
      r.link.tracks = display_tracks_of(to_display, op.tracks);
      r.link.program_id = op.program;
      r.link.module = std::string(op.module);
      r.link.op = std::string(op.meta ? op.meta->hlo_name : name_of);
      t.rows.push_back(std::move(r));
    }
  }
  if (!peaks.has_flops() || !peaks.has_bytes())
    t.notes.push_back("No roofline without both peaks: " + peaks.why +
                      ". Type them (peakTflops, peakGBps) to draw it.");
  else
    t.notes.push_back("Peaks per core from " + peaks.source + ".");

  namespace k = protocol::keys::analysis_extra;
  namespace pk = protocol::keys::analysis_peaks;
  std::string extra;
  protocol::append_key(&extra, k::kCores, '{');
  extra += cores_json(cores);
  protocol::append_key(&extra, k::kCore);
  extra += std::to_string(db.core);
  protocol::append_key(&extra, k::kPeaks);
  protocol::append_key(&extra, pk::kFlopsPerSec, '{');
  append_number_or_null(&extra, peaks.flops_per_sec);
  protocol::append_key(&extra, pk::kBytesPerSec);
  append_number_or_null(&extra, peaks.bytes_per_sec);
  protocol::append_key(&extra, pk::kSource);
  json_append_string(&extra, peaks.source);
  protocol::append_key(&extra, pk::kWhy);
  json_append_string(&extra, peaks.why);
  extra += '}';
  protocol::append_key(&extra, k::kRidge);
  append_number_or_null(&extra, peaks.ridge());
  t.extra_json = extra + '}';
  return t;
}

}  // namespace strata
