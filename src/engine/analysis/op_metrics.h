// XProf's op metrics of an xplane, from the loaded store: per device core (a device plane with
// an "XLA Ops" row) and per (program, HLO op), the occurrences, time, self time, FLOPs and bytes
// that op_profile, hlo_stats and roofline present. One pass over the XLA Ops rows' columns; the
// ops' metadata stats (hlo_category, flops, bytes_accessed, long_name, program_id, ...) are
// decoded once per event metadata, not per event.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/types.h"
#include "core/formats/xplane/xla_module_name.h"  // split_module_name
#include "core/store/trace_store.h"

namespace strata {

struct XPlaneTables;
struct HloOpText;

// What an HLO op's event metadata says about it (views into the store's strings / the plane's
// stats: valid while the store is).
struct OpMeta {
  std::string_view hlo_name;  // XEventMetadata.name: the HLO instruction
  std::string_view category, long_name, tf_op, source, dedup;
  bool has_program = false;
  uint64_t program = 0;
  double flops = -1, bytes = -1;  // per occurrence; -1: absent or unusable (see *_why)
  std::string flops_why, bytes_why;
  int remat = -1, outside = -1;  // -1: the file does not say
};

struct OpCore {
  uint32_t plane = 0;  // index in XSpaceTables::planes
  std::string name;    // "/device:TPU:0"
  bool tpu = false;
  bool derived = false;                 // its XLA Ops row was derived by Strata from GPU kernels
  TimeNs first = 0, last = 0;           // device time span (XProf's total time: first to last op)
  TimeNs busy = 0;                      // sum of the top-level ops' time on the XLA Ops row
  std::vector<uint32_t> tracks;         // store tracks of its XLA Ops rows
  std::vector<uint32_t> module_tracks;  // per XLA Ops track: its XLA Modules track, or kNone
  std::vector<uint32_t> span_tracks;    // tracks whose events span the device time
  TimeNs total() const { return last > first ? last - first : 0; }
};

struct OpRow {
  std::string program;           // program id, decimal (uint64), "" when unknown
  std::string_view module;       // HLO module name, "" when unknown
  StrId name = 0;                // the event name on the XLA Ops row
  const OpMeta* meta = nullptr;  // nullptr: no event metadata matches the name
  uint64_t occurrences = 0;
  TimeNs time = 0, self = 0;
  double flops = 0, bytes = 0;
  uint64_t flops_missing = 0, bytes_missing = 0;  // occurrences without a usable stat
  std::vector<uint32_t> tracks;                   // store tracks it occurs on
  uint32_t first_core = 0;  // the first core it was seen on (index in OpMetricsDb::cores)
  bool derived = false;     // from a derived (GPU) XLA Ops row
  // The instruction as its module's HloProto (on the metadata plane) describes it: expression,
  // XLA category and, for a fusion, what it calls; nullptr when the file has no such module.
  const HloOpText* hlo = nullptr;
};

struct OpMetricsDb {
  std::vector<OpCore> cores;  // the cores asked for
  int core = -1;              // their index in op_cores(), -1: all
  std::vector<OpRow> ops;
  std::vector<std::string> notes;
  std::vector<std::unique_ptr<OpMeta>> meta_store;  // owns every OpMeta the rows point at
  TimeNs total() const;
  TimeNs busy() const;
};

// The device cores of the store (device planes with an XLA Ops row), in plane order.
std::vector<OpCore> op_cores(const TraceStore& s);

// `core`: an index into `cores` (op_cores()), or -1 for every core (rows then sum over cores).
OpMetricsDb build_op_metrics(const TraceStore& s, const std::vector<OpCore>& cores, int core);

// The `core` argument of the analyses: "all" / absent → -1, a number → that index, a plane
// name → its index; *why when it names no core.
int parse_core_arg(const std::vector<OpCore>& cores, const std::string& text, bool is_number,
                   std::string* why);

// The op name a category falls back to when the file has no hlo_category stat: the name
// without its ".N" suffixes ("fusion.3" → "fusion").
std::string_view category_from_name(std::string_view op);

// The uint64 text of an XStat integer (program ids above 2^63 arrive as negative int64s).
std::string uint64_text(uint64_t v);

}  // namespace strata
