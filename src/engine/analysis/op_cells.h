// What op_profile, hlo_stats and roofline share: the device's peak figures (from the plane's
// stats, else the user's), and the cells of a sum of op metrics (FLOPs, bytes, rates,
// operational intensity, bound-by), empty with the reason when the file lacks what they need.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/analysis/analysis_table.h"
#include "engine/analysis/op_metrics.h"

namespace strata {

class Engine;
struct QueryArgs;

// Whether the loaded trace is an xplane with a device "XLA Ops" row; else *why.
bool xla_ops_available(const Engine& engine, std::string* why);
// The cores as JSON for a table's extra: [{"index", "name", "totalNs", "busyNs"}].
std::string cores_json(const std::vector<OpCore>& cores);

// Per-core peaks. 0 where unknown; `source` says where they come from, `why` what is missing.
struct Peaks {
  double flops_per_sec = 0, bytes_per_sec = 0;
  std::string source, why;
  bool has_flops() const { return flops_per_sec > 0; }
  bool has_bytes() const { return bytes_per_sec > 0; }
  double ridge() const { return has_flops() && has_bytes() ? flops_per_sec / bytes_per_sec : 0; }
};

// The peaks of one core from its device plane's stats: TPU peak_teraflops_per_second and
// peak_hbm_bw_gigabytes_per_second; GPU those, else core_count × clock × a per-SM table by
// compute capability, and memory_bandwidth.
Peaks device_peaks(const TraceStore& s, const OpCore& core);
// The cores' peaks (the first core that has them), overridden by args peakTflops / peakGBps.
Peaks analysis_peaks(const TraceStore& s, const std::vector<OpCore>& cores, const QueryArgs& a);

// What op_profile, hlo_stats and roofline start from: the op metrics of the cores asked for
// (args {"core": index | plane name | "all"}), computed once per store and core and then
// reused, every core of the file, their peaks and the store → display track map.
struct OpAnalysisInput {
  std::shared_ptr<const OpMetricsDb> db;
  std::vector<OpCore> cores;
  Peaks peaks;
  std::vector<uint32_t> to_display;
};
// False, with the reason in t->errors, when the core is unknown.
bool op_analysis_input(const Engine& engine, const QueryArgs& args, OpAnalysisInput* in,
                       AnalysisTable* t);

// Builds the all-cores op metrics of an xplane store with XLA ops into the store's cache, so the
// op analyses' first answer after a load is as quick as the later ones: called at the end of
// the load, in the worker, before the page can ask. Nothing for other stores.
void warm_op_metrics(const TraceStore& s);

// A sum of op rows: what a tree node or a flat row shows.
struct OpSum {
  uint64_t occurrences = 0;
  TimeNs time = 0, self = 0;
  double flops = 0, bytes = 0;
  uint64_t flops_missing = 0, bytes_missing = 0;  // occurrences without the stat
  std::string flops_why, bytes_why;               // why, for the first op that lacks it
  void add(const OpRow& r);
  void add(const OpSum& o);
};

// Where an op's category comes from, best first: the file's hlo_category stat, XLA's category
// of the instruction in its module's HloProto, else a guess from the op's name.
enum class CategoryFrom : uint8_t { kStat, kHloProto, kName };
struct OpCategory {
  std::string text;
  CategoryFrom from = CategoryFrom::kName;
};
OpCategory op_category(const TraceStore& s, const OpRow& op);
// "hlo_category stat", "HloProto", "guessed from the name".
const char* category_from_label(CategoryFrom from);
extern const char* const kTipCategory;
extern const char* const kTipCategoryFrom;
// The note a table adds when some of its categories were guessed from names.
extern const char* const kNoteGuessedCategories;

AnalysisCell ns_cell(TimeNs v);
AnalysisCell flops_cell(const OpSum& s);
AnalysisCell bytes_cell(const OpSum& s);
AnalysisCell flop_rate_cell(const OpSum& s);  // FLOP/s over the total time
AnalysisCell bandwidth_cell(const OpSum& s);  // bytes/s over the total time
AnalysisCell intensity_cell(const OpSum& s);  // FLOP / byte
// "Compute" or "HBM": the resource the op uses the larger share of (XProf's bound_by).
AnalysisCell bound_by_cell(const OpSum& s, const Peaks& p);
AnalysisCell percent_cell(double part, double whole, const char* why_none);

// Store track → display track index (kNone when not shown), from Engine::display_tracks().
std::vector<uint32_t> store_to_display(const std::vector<uint32_t>& display_to_store,
                                       size_t tracks);
// The display track indices of store tracks (for a row's link).
std::vector<uint32_t> display_tracks_of(const std::vector<uint32_t>& to_display,
                                        const std::vector<uint32_t>& store_tracks);

// Column tips shared by the three tables.
extern const char* const kTipFlops;
extern const char* const kTipBytes;
extern const char* const kTipFlopRate;
extern const char* const kTipBandwidth;
extern const char* const kTipIntensity;
extern const char* const kTipBoundBy;

}  // namespace strata
