// FLOPs and bytes accessed of one HLO op, taken from its occurrences in the trace, for the
// graph viewer's node details (issue 7, item 3). XProf's xplanes carry them as stats of the
// op's events or of their event metadata (`flops`, `model_flops`, `bytes_accessed`,
// `raw_bytes_accessed`); Chrome JSON traces from JAX / XLA carry the same names as args. Both
// arrive here the same way: an occurrence's details JSON (Engine::details_json), whose
// record.args holds the decoded stats or the event's args. Values may be numbers or numeric
// strings. When no occurrence carries a stat it stays absent (count 0), so the pane can say
// "not in the trace" instead of hiding it.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace strata::graph {

enum CostStat : uint8_t { kFlops, kModelFlops, kBytesAccessed, kRawBytesAccessed, kCostStats };
// The trace's names (xplane stats, JSON args) and the JSON keys we write.
inline constexpr std::string_view kCostStatName[kCostStats] = {
    "flops", "model_flops", "bytes_accessed", "raw_bytes_accessed"};
inline constexpr std::string_view kCostStatKey[kCostStats] = {"flops", "modelFlops",
                                                              "bytesAccessed", "rawBytesAccessed"};

// One occurrence: its duration and the stats it carries (NaN: absent).
struct OpCostSample {
  double dur_ns = 0;
  double value[kCostStats] = {NAN, NAN, NAN, NAN};
};

// Reads an occurrence from its details JSON: durNs, and record.args.<name> (else
// record.xla.<name>). False when the JSON does not parse or has no durNs.
bool op_cost_sample(std::string_view details_json, OpCostSample* out);

// One stat over the occurrences that carry it.
struct OpCostTotal {
  uint32_t count = 0;  // occurrences carrying it
  double total = 0, min = 0, max = 0;
  double time_ns = 0;  // summed duration of those occurrences
  double per_occurrence() const { return count ? total / count : NAN; }
  // The rate over the op's time: FLOP/s or bytes/s (NaN without time).
  double per_second() const { return time_ns > 0 ? total / time_ns * 1e9 : NAN; }
};

struct OpCosts {
  std::string name;         // the op (the node's instruction name)
  int64_t occurrences = 0;  // in the trace (the search's count)
  uint32_t read = 0;        // occurrences whose stats were read
  double time_ns = 0;       // their summed duration
  OpCostTotal stat[kCostStats];
  bool any() const {
    for (const OpCostTotal& t : stat)
      if (t.count) return true;
    return false;
  }
};

void add_op_cost_sample(OpCosts* c, const OpCostSample& s);

// {"name", "occurrences", "read", "timeNs", "flops": {count, total, perOccurrence, min, max,
// timeNs, perSecond} | null, "modelFlops", "bytesAccessed", "rawBytesAccessed"}
std::string op_costs_json(const OpCosts& c);
// The same back (the UI reads the worker's answer with it). False when malformed.
bool read_op_costs_json(std::string_view json, OpCosts* out);

// "1.23 G", "456 k", "12.0 T": the pane's short numbers (SI prefixes, 3 significant digits).
std::string si_number(double v);

}  // namespace strata::graph
