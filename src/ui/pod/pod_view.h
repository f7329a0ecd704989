// The Pod tab: a pod manifest's hosts (pod.json, opened by ?pod=, a pick or a drop), each with
// the summary its bundle carries (offset on the pod's time axis, span, events, tracks, busy
// share, steps, median step), sortable by any column, stragglers marked (engine/pod/
// pod_session.h says what makes one). Hosts are picked with their checkboxes; "Open" loads the
// picked hosts' bundles as one trace on one time axis (the page asks the worker: podHosts), and
// the table then says which hosts are open and why any did not open.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct PodRow {
  std::string name, bundle;
  double offset_ns = 0, span_ns = 0, events = 0, tracks = 0, busy_ns = 0, busy_pct = 0;
  double steps = 0, step_ns = 0, step_ratio = 0;
  bool straggler = false, open = false;
  std::string why, error;
  bool picked = false;  // its checkbox
};

enum class PodColumn : int {
  kName = 0,
  kOffset,
  kSpan,
  kEvents,
  kTracks,
  kBusy,
  kSteps,
  kStep,
  kStepRatio,
  kCount
};

struct PodView {
  bool loaded = false;  // a pod manifest was opened
  std::string name;     // pod.json's name
  std::vector<PodRow> rows;
  std::vector<std::string> errors;  // the manifest's
  double median_step_ns = 0, median_busy_pct = 0, stragglers = 0;
  PodColumn sort = PodColumn::kName;
  bool descending = false;
  bool opening = false;  // "Open" was pressed: the hosts load
};

// The engine's host table (PodSession::table_json); keeps the picks of hosts still listed.
// False when the JSON does not parse (the view is then unchanged).
bool pod_view_set_table(PodView* v, const std::string& name, const char* json);
void pod_view_sort(PodView* v, PodColumn column, bool descending);
// The picked hosts' names as a JSON array (what "Open" sends).
std::string pod_view_picked_json(const PodView& v);
// Picks exactly these hosts (by name); false when one is not in the pod.
bool pod_view_pick(PodView* v, const std::vector<std::string>& names);
void pod_view_frame(PodView* v, float x, float y, float w, float h);

}  // namespace strata
