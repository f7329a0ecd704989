#include "engine/analysis/op_cells.h"

#include <cstdio>
#include <map>
#include <memory>

#include "core/base/json_writer.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xplane_stats.h"
#include "core/formats/xplane/xplane_tables.h"
#include "engine/engine.h"
#include "engine/query_args.h"
#include "protocol/analysis_keys.h"

namespace strata {

const char* const kTipFlops =
    "Floating-point operations: the op's flops stat (from its event metadata) times its "
    "occurrences. Empty when the file has no flops stat for the op; Strata does not estimate "
    "them.";
const char* const kTipBytes =
    "Bytes accessed: the op's bytes_accessed stat times its occurrences; empty when the file "
    "has none.";
const char* const kTipFlopRate = "FLOPs over the total time (not the self time) of the op.";
const char* const kTipBandwidth = "Bytes accessed over the total time of the op.";
const char* const kTipIntensity = "Operational intensity: FLOPs / bytes accessed.";
const char* const kTipBoundBy =
    "The resource the op uses the larger share of: Compute (FLOP/s over the peak FLOP/s) or "
    "HBM (bytes/s over the peak bandwidth). Needs the peaks (the device plane's stats or the "
    "figures typed in the Roofline).";

namespace {

// The op metrics of one store, per core index (-1: every core), as they were first asked for.
struct OpMetricsCache {
  bool has_cores = false;
  std::vector<OpCore> cores;
  std::map<int, std::shared_ptr<const OpMetricsDb>> by_core;
};

OpMetricsCache& cache_of(const TraceStore& s) {
  std::shared_ptr<void>& slot = s.xspace->analysis_cache;
  if (!slot) slot = std::make_shared<OpMetricsCache>();
  OpMetricsCache& c = *static_cast<OpMetricsCache*>(slot.get());
  if (!c.has_cores) c.cores = op_cores(s), c.has_cores = true;
  return c;
}

}  // namespace

const char* const kTipCategory =
    "The op's hlo_category stat; else the XLA category of its instruction in the module's "
    "HloProto (XLA's ToCategory); else guessed: its name without the .N suffix (Category "
    "source says which)";
const char* const kTipCategoryFrom =
    "Where the category comes from: the file's hlo_category stat, the module's HloProto, or "
    "guessed from the op's name when the file has neither";
const char* const kNoteGuessedCategories =
    "Some ops have neither an hlo_category stat nor their module's HloProto in the file: their "
    "category is guessed from their name without the .N suffix (Category source says which).";

OpCategory op_category(const TraceStore& s, const OpRow& op) {
  if (op.meta && !op.meta->category.empty())
    return {std::string(op.meta->category), CategoryFrom::kStat};
  if (op.hlo && !op.hlo->category.empty()) return {op.hlo->category, CategoryFrom::kHloProto};
  return {std::string(category_from_name(s.strings.get(op.name))), CategoryFrom::kName};
}

const char* category_from_label(CategoryFrom from) {
  switch (from) {
    case CategoryFrom::kStat:
      return "hlo_category stat";
    case CategoryFrom::kHloProto:
      return "HloProto";
    case CategoryFrom::kName:
      break;
  }
  return "guessed from the name";
}

bool xla_ops_available(const Engine& engine, std::string* why) {
  const TraceStore* s = engine.store();
  if (!s || !s->xspace) {
    *why = "needs an xplane (XProf XSpace) profile";
    return false;
  }
  if (cache_of(*s).cores.empty()) {
    *why = "the profile has no device plane with an XLA Ops row";
    return false;
  }
  return true;
}

bool op_analysis_input(const Engine& engine, const QueryArgs& args, OpAnalysisInput* in,
                       AnalysisTable* t) {
  const TraceStore& s = *engine.store();
  OpMetricsCache& cache = cache_of(s);
  in->cores = cache.cores;
  const JsonLine* c = args.get("core");
  std::string why;
  const int core = c ? parse_core_arg(in->cores, c->value, c->kind == 'n', &why) : -1;
  if (core == -2) {
    t->errors.push_back(why);
    return false;
  }
  std::shared_ptr<const OpMetricsDb>& db = cache.by_core[core];
  if (!db) db = std::make_shared<const OpMetricsDb>(build_op_metrics(s, in->cores, core));
  in->db = db;
  in->peaks = analysis_peaks(s, db->cores, args);
  in->to_display = store_to_display(engine.display_tracks(), s.tracks.size());
  return true;
}

void warm_op_metrics(const TraceStore& s) {
  if (!s.xspace) return;
  OpMetricsCache& cache = cache_of(s);
  if (cache.cores.empty()) return;
  std::shared_ptr<const OpMetricsDb>& db = cache.by_core[-1];
  if (!db) db = std::make_shared<const OpMetricsDb>(build_op_metrics(s, cache.cores, -1));
}

std::string cores_json(const std::vector<OpCore>& cores) {
  namespace k = protocol::keys::analysis_core;
  std::string o = "[";
  for (size_t i = 0; i < cores.size(); ++i) {
    if (i) o += ',';
    protocol::append_key(&o, k::kIndex, '{');
    o += std::to_string(i);
    protocol::append_key(&o, k::kName);
    json_append_string(&o, cores[i].name);
    protocol::append_key(&o, k::kTotalNs);
    o += std::to_string(cores[i].total());
    protocol::append_key(&o, k::kBusyNs);
    o += std::to_string(cores[i].busy);
    o += '}';
  }
  return o + ']';
}

namespace {

// Tensor-core dense fp16 FLOPs per cycle per SM, by compute capability (major * 10 + minor).
struct SmFlops {
  int cc;
  double flops_per_cycle;
};
constexpr SmFlops kSmFlops[] = {
    {70, 1024}, {72, 1024}, {75, 1024}, {80, 2048},  {86, 512},
    {87, 1024}, {89, 512},  {90, 4096}, {100, 8192},
};

}  // namespace

Peaks device_peaks(const TraceStore& s, const OpCore& core) {
  Peaks p;
  const XSpaceTables* x = s.xspace.get();
  if (!x || core.plane >= x->planes.size()) return p;
  const XPlaneTables& plane = x->planes[core.plane];
  double tflops = 0, hbm_gbps = 0, clock_khz = 0, cores = 0, bw = 0;
  int major = -1, minor = 0;
  std::string_view vendor;
  const auto* base = reinterpret_cast<const uint8_t*>(plane.stats.data());
  wire::Reader r(base + plane.plane_stats_at, plane.plane_stats_len);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number != 5 || f.type != wire::kLen) continue;
    StatValue v;
    const char* why = "";
    if (!decode_stat(f.data, f.size, &v, &why)) continue;
    const StrId* id = plane.stat_names.find(v.metadata_id);
    if (!id) continue;
    const std::string_view n = s.strings.get(*id);
    const double d = v.as_number();
    if (n == "peak_teraflops_per_second") tflops = d;
    if (n == "peak_hbm_bw_gigabytes_per_second") hbm_gbps = d;
    if (n == "clock_rate") clock_khz = d;
    if (n == "core_count") cores = d;
    if (n == "memory_bandwidth") bw = d;
    if (n == "compute_cap_major") major = static_cast<int>(d);
    if (n == "compute_cap_minor") minor = static_cast<int>(d);
    if (n == "device_vendor") vendor = stat_text(s.strings, plane, v);
  }
  // The per-SM table is NVIDIA's: another vendor's compute capability (AMD reports 9.x) would
  // read as a wrong NVIDIA part.
  const bool nvidia = vendor.empty() || vendor.find("vidia") != std::string_view::npos ||
                      vendor.find("VIDIA") != std::string_view::npos;
  std::string flops_from, bw_from;
  if (tflops > 0) {
    p.flops_per_sec = tflops * 1e12;
    flops_from = "peak_teraflops_per_second";
  } else if (nvidia && major >= 0 && clock_khz > 0 && cores > 0) {
    for (const SmFlops& t : kSmFlops)
      if (t.cc == major * 10 + minor) {
        p.flops_per_sec = cores * clock_khz * 1e3 * t.flops_per_cycle;
        char b[160];
        std::snprintf(b, sizeof b,
                      "core_count x clock_rate x %g FLOPs/cycle/SM (sm_%d%d tensor cores, fp16)",
                      t.flops_per_cycle, major, minor);
        flops_from = b;
      }
  }
  if (hbm_gbps > 0) {
    p.bytes_per_sec = hbm_gbps * 1e9;
    bw_from = "peak_hbm_bw_gigabytes_per_second";
  } else if (bw > 0) {
    p.bytes_per_sec = bw;
    bw_from = "memory_bandwidth";
  }
  if (p.has_flops() || p.has_bytes())
    p.source = "the stats of " + core.name + ": " + (flops_from.empty() ? "-" : flops_from) + "; " +
               (bw_from.empty() ? "-" : bw_from);
  if (!p.has_flops())
    p.why = core.name + " has no peak_teraflops_per_second stat" +
            (nvidia ? " (nor core_count, clock_rate and a known NVIDIA compute capability)"
                    : " (Strata has no per-core FLOPs table for " + std::string(vendor) + " GPUs)");
  if (!p.has_bytes())
    p.why += std::string(p.why.empty() ? "" : "; ") + core.name +
             " has no peak_hbm_bw_gigabytes_per_second or memory_bandwidth stat";
  return p;
}

Peaks analysis_peaks(const TraceStore& s, const std::vector<OpCore>& cores, const QueryArgs& a) {
  Peaks p;
  for (const OpCore& c : cores) {
    p = device_peaks(s, c);
    if (p.has_flops() || p.has_bytes()) break;
  }
  if (cores.empty()) p.why = "no device core";
  const double tflops = a.number("peakTflops", 0), gbps = a.number("peakGBps", 0);
  std::string typed;
  if (tflops > 0) p.flops_per_sec = tflops * 1e12, typed = "peak FLOP/s";
  if (gbps > 0)
    p.bytes_per_sec = gbps * 1e9, typed += typed.empty() ? "peak bandwidth" : " and bandwidth";
  if (!typed.empty()) {
    p.source = "typed by the user (" + typed + ")" + (p.source.empty() ? "" : "; else " + p.source);
    if (p.has_flops() && p.has_bytes()) p.why.clear();
  }
  return p;
}

void OpSum::add(const OpRow& r) {
  occurrences += r.occurrences;
  time += r.time;
  self += r.self;
  flops += r.flops;
  bytes += r.bytes;
  if (r.flops_missing && !flops_missing) {
    flops_why = r.derived ? "the file has no flops stat for this op (its XLA Ops row is derived "
                            "from GPU kernels; XProf would run XLA's cost model on the HloProto)"
                : r.meta  ? r.meta->flops_why
                          : "no event metadata of this device names this op";
  }
  if (r.bytes_missing && !bytes_missing) {
    bytes_why = r.derived ? "the file has no bytes_accessed stat for this op (its XLA Ops row is "
                            "derived from GPU kernels)"
                : r.meta  ? r.meta->bytes_why
                          : "no event metadata of this device names this op";
  }
  flops_missing += r.flops_missing;
  bytes_missing += r.bytes_missing;
}

void OpSum::add(const OpSum& o) {
  occurrences += o.occurrences;
  time += o.time;
  self += o.self;
  flops += o.flops;
  bytes += o.bytes;
  if (o.flops_missing && !flops_missing) flops_why = o.flops_why;
  if (o.bytes_missing && !bytes_missing) bytes_why = o.bytes_why;
  flops_missing += o.flops_missing;
  bytes_missing += o.bytes_missing;
}

AnalysisCell ns_cell(TimeNs v) { return AnalysisCell::of(static_cast<double>(v)); }

namespace {

std::string partial(uint64_t missing, uint64_t of, const std::string& why) {
  if (missing >= of) return why;
  return std::to_string(missing) + " of " + std::to_string(of) + " occurrences lack it: " + why;
}

}  // namespace

AnalysisCell flops_cell(const OpSum& s) {
  if (s.flops_missing)
    return AnalysisCell::empty(partial(s.flops_missing, s.occurrences, s.flops_why));
  return AnalysisCell::of(s.flops);
}

AnalysisCell bytes_cell(const OpSum& s) {
  if (s.bytes_missing)
    return AnalysisCell::empty(partial(s.bytes_missing, s.occurrences, s.bytes_why));
  return AnalysisCell::of(s.bytes);
}

AnalysisCell flop_rate_cell(const OpSum& s) {
  if (s.flops_missing) return flops_cell(s);
  if (s.time <= 0) return AnalysisCell::empty("the op took no time");
  return AnalysisCell::of(s.flops / (static_cast<double>(s.time) * 1e-9));
}

AnalysisCell bandwidth_cell(const OpSum& s) {
  if (s.bytes_missing) return bytes_cell(s);
  if (s.time <= 0) return AnalysisCell::empty("the op took no time");
  return AnalysisCell::of(s.bytes / (static_cast<double>(s.time) * 1e-9));
}

AnalysisCell intensity_cell(const OpSum& s) {
  if (s.flops_missing) return flops_cell(s);
  if (s.bytes_missing) return bytes_cell(s);
  if (s.bytes <= 0) return AnalysisCell::empty("the op accesses no bytes");
  return AnalysisCell::of(s.flops / s.bytes);
}

AnalysisCell bound_by_cell(const OpSum& s, const Peaks& p) {
  if (s.flops_missing) return flops_cell(s);
  if (s.bytes_missing) return bytes_cell(s);
  if (!p.has_flops() || !p.has_bytes())
    return AnalysisCell::empty("no peak figures: " + p.why + " (type them in the Roofline)");
  if (s.time <= 0) return AnalysisCell::empty("the op took no time");
  const double secs = static_cast<double>(s.time) * 1e-9;
  const double compute = s.flops / secs / p.flops_per_sec, hbm = s.bytes / secs / p.bytes_per_sec;
  return AnalysisCell::of(std::string(compute >= hbm ? "Compute" : "HBM"));
}

AnalysisCell percent_cell(double part, double whole, const char* why_none) {
  if (whole <= 0) return AnalysisCell::empty(why_none);
  return AnalysisCell::of(100.0 * part / whole);
}

std::vector<uint32_t> store_to_display(const std::vector<uint32_t>& display_to_store,
                                       size_t tracks) {
  std::vector<uint32_t> out(tracks, kNone);
  for (uint32_t d = 0; d < display_to_store.size(); ++d)
    if (display_to_store[d] < tracks) out[display_to_store[d]] = d;
  return out;
}

std::vector<uint32_t> display_tracks_of(const std::vector<uint32_t>& to_display,
                                        const std::vector<uint32_t>& store_tracks) {
  std::vector<uint32_t> out;
  for (uint32_t t : store_tracks)
    if (t < to_display.size() && to_display[t] != kNone) out.push_back(to_display[t]);
  return out;
}

}  // namespace strata
