// What the Runs tab must read for a selection, decided on the discovery alone (no file is read):
// a script's {run, worker, span, view} resolved to indices, the card number of a worker, the
// inputs that make up a profile's trace, the files each statistics table needs, and the
// default pair of a Diff. The UI's runs model (ui/runs/runs_fetch) turns these into the steps
// the page performs.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/runs/run_discovery.h"

namespace strata {

struct RunsSelection {
  int run = 0, profile = 0, view = 0;  // view: RunView
};

// A script's selection query; each part left out keeps the current one (or takes the first).
struct RunsQuery {
  bool has_run = false, run_by_name = false;
  int run_index = -1;
  std::string run_name;
  bool has_worker = false, has_span = false, has_view = false;
  std::string worker, span, view;  // view: a RunView name, any case
};

// The selection `q` names, starting from `now`; false when a part names nothing there.
bool runs_resolve(const RunDiscovery& d, const RunsSelection& now, const RunsQuery& q,
                  RunsSelection* out);

// A worker's card number: its trace's distributedInfo.rank when the head gave one, else its
// trailing digits (rank0 → 0), else its place among the run's workers.
int runs_card_of(const DiscoveredRun& run, const DiscoveredProfile& p);

// The inputs (path indices) the engine opens to hold a profile's trace: the trace itself and,
// for Ascend, the memory CSVs (those with the trace, or alone for the Memory view).
std::vector<int32_t> runs_trace_inputs(const DiscoveredProfile& p, bool memory);

// The statistics tables a runs statistics reply answers for (one request each, Ascend).
enum class RunsPart : uint8_t { kOperators, kKernels, kDistributed };
// The reply key naming the part's table (protocol::keys::runs_stats).
std::string_view runs_part_key(RunsPart part);

// The files, as RunsSession keys → path indices, an Ascend profile's `part` is computed from:
// "a/<file>" for the selected profile, and for Distributed "card<N>/<file>" of every profile
// of the same span in the run (*cards: one past the highest card).
std::vector<std::pair<std::string, int32_t>> runs_ascend_part_files(const RunDiscovery& d,
                                                                    const RunsSelection& s,
                                                                    RunsPart part, int* cards);
// The files of an Ascend profile as Diff side `slot` ("a" / "b").
std::vector<std::pair<std::string, int32_t>> runs_ascend_diff_files(const DiscoveredProfile& p,
                                                                    std::string_view slot);

struct RunsProfileRef {
  int run = -1, profile = -1;
};
bool runs_profile_exists(const RunDiscovery& d, const RunsProfileRef& r);
// The Diff's pair when none is given: the selected profile and the next one in the folder
// (run-major, wrapping to the first).
void runs_default_diff_pair(const RunDiscovery& d, const RunsSelection& now, RunsProfileRef* a,
                            RunsProfileRef* b);

// A path as the browser reports it, made relative with forward slashes ("./a\\b" → "a/b").
std::string runs_normal_path(std::string_view path);

}  // namespace strata
