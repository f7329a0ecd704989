// The Runs tab's fetching, decided in the UI: for each thing a script or a click asks of the
// Runs tab (open a folder, show the selection, the tables for strata.stats(), a Diff) the UI
// makes the list of steps that gets it — open these inputs, post this runsStats message, let a
// frame draw — and keeps what comes back (the replies, per profile, part and grouping; which
// profile's trace the engine holds). web/page/runs.js only performs one step after another
// (runs_fetch_next) and returns the last step's answer; it reads nothing else of them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/runs/run_plan.h"
#include "protocol/runs_steps.h"

namespace strata {

struct RunsView;

struct RunsStep {
  enum class Kind : uint8_t {
    kOpen,         // the page opens input `entry` (`text`: a note for the trace's summary)
    kRequest,      // the page posts `message` with `files`; the reply comes back to the UI
    kFrames,       // the page lets the UI draw
    kStatus,       // the status line becomes `text`
    kLoaded,       // the engine holds profile `text`'s trace
    kCommit,       // the replies since the last commit become `cache_keys`' (or the Diff's)
    kDeliver,      // the UI's table `text` (a runs_stats key) is read from `cache_keys[0]`
    kShowProfile,  // the app shows the Timeline or Memory tab for the selection
    kHeads,        // the traces' heads are read: discover again with their ranks, then plan
  };
  Kind kind = Kind::kFrames;
  int32_t entry = -1;
  int32_t head_of = -1;  // kRequest: the reply is this input's head (its rank)
  std::string text;
  std::string message;                                 // a runsStats message, files left out
  std::vector<std::pair<std::string, int32_t>> files;  // session key → input index
  bool append = false;  // the reply's distributed rows and errors join the previous reply's
  bool keep = true;     // false: the reply only says the request was done
  std::vector<std::string> cache_keys;
  bool diff = false;  // kCommit: the reply is the Diff of `a` against `b`
  RunsProfileRef a, b;
};

// kNoRuns: a folder with no runs, which left the tab as it was; its answer is {"runs": []}.
enum class RunsGoal : uint8_t { kIdle, kFolder, kShow, kSelect, kStats, kDiff, kNoRuns };

struct RunsFetch {
  RunsGoal goal = RunsGoal::kIdle;
  bool names_nothing = false;  // the goal's query named no profile (its answer says so)
  std::vector<RunsStep> steps;
  size_t next = 0;
  std::string reply;       // the replies since the last commit (one JSON object)
  std::string loaded_key;  // the profile whose trace the engine holds ("<run>/<profile>")
  std::map<std::string, std::string> cache;  // "<run>/<profile>/<part>/<grouped>" → reply
  std::string diff;                          // the last Diff's reply, with its pair
};

// Begin a goal (any goal not finished is dropped). The selection and grouping change at once.
// A folder's JSON traces first have their heads read (their distributedInfo.rank names the
// ranks their file names may not), then the runs are found again with those ranks.
void runs_fetch_folder(RunsView* v);   // after runs_view_set_folder
void runs_fetch_no_runs(RunsView* v);  // instead, for a folder that holds no runs
void runs_fetch_show(RunsView* v);     // what the selected view shows
// A script's {run, worker, span, view, groupByShape} (JSON; names, view in any case): selected
// when it names a profile, then shown; the answer is null when it names none.
void runs_fetch_select(RunsView* v, std::string_view query_json);
void runs_fetch_stats(RunsView* v);  // the selected profile's tables for strata.stats()
// A Diff: {a: {run, profile}, b, step} (JSON, each part optional: the selected profile and the
// next one, every step), or the Diff view's pair.
void runs_fetch_diff(RunsView* v, std::string_view query_json);
void runs_fetch_diff_pair(RunsView* v, RunsProfileRef a, RunsProfileRef b, std::string step);

struct RunsNextStep {
  std::string json;  // {step, entry | message + files | answer} (protocol::keys::runs_step)
  bool show_profile_tab = false;  // the app should show the Timeline / Memory tab now
};
// The next step for the page; `reply` is the answer to the step before it (a request's reply
// JSON, "" after any other step).
RunsNextStep runs_fetch_next(RunsView* v, std::string_view reply);
// The step before failed (`error`): the goal ends, the status line says why; returns the
// answer (a Diff's answer is an empty Diff with the error; null otherwise).
std::string runs_fetch_failed(RunsView* v, std::string_view error);

}  // namespace strata
