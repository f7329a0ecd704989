// The Runs tab (issue 9; the seed's TensorBoard NPU plugin views): Runs / Views / Workers /
// Spans selectors over a profiler folder, and the Operator, Kernel, Distributed and Diff views
// of the selected profile. Discovery is core/runs/run_discovery (run here, on the paths);
// The UI keeps the selection and decides what each view needs (runs_fetch.h); web/page/runs.js
// performs those steps and hands back each view's statistics as JSON (engine/runs_session.h),
// read into the plain vectors below.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/runs/run_discovery.h"
#include "ui/runs/runs_fetch.h"
#include "ui/widgets/number_format.h"

namespace strata {

struct RunsView {
  std::vector<std::string> paths;
  RunDiscovery discovery;
  std::vector<int64_t> head_ranks;     // per path: its head's distributedInfo.rank, -1 unknown
  int run = 0, profile = 0, view = 0;  // the selection (view: RunView)
  std::string status;                  // "Loading ...", an error, or a disabled view's note
  bool group_by_shape = false;
  bool kernel_by_statistic = false;
  int stacks_of = -1;  // the operator whose call stacks the popup shows

  struct Op {
    std::string name, shape;
    double calls = 0, host_self = 0, host_total = 0, device_self = 0, device_total = 0;
    double ai_self_pct = 0, ai_total_pct = 0;
    bool ai_eligible = false;
    std::vector<std::pair<std::string, double>> stacks;  // stack text, count
  };
  std::vector<Op> ops;
  std::vector<int> ops_order;
  bool ops_sorted = false;

  struct Kernel {
    std::string name, core_type;
    double count = 0, total = 0, min = 0, avg = 0, max = 0;
  };
  std::vector<Kernel> kernels, core_types;
  struct Detail {
    std::string name, type, core_type, step;
    double start = 0, duration = 0, wait = 0, block_dim = 0;
  };
  std::vector<Detail> details;
  double details_total = 0;
  std::vector<int> kernels_order, details_order;
  bool kernels_sorted = false, details_sorted = false;

  struct CommOp {
    std::string name;
    double calls = 0, elapse = 0, transit = 0, wait = 0, sync = 0;
  };
  struct Card {
    int card = 0;
    std::string step;
    double compute = 0, communication = 0, overlap = 0, free = 0, transfer = 0, wait = 0, sync = 0;
    std::vector<CommOp> ops;
  };
  std::vector<Card> cards;
  int comm_card = 0;

  struct DiffRow {
    std::string name, shape;
    // a, b, diff, ratio for host, self host, device, self device.
    double v[4][4] = {};
  };
  std::vector<DiffRow> op_diff;
  struct StepRow {
    std::string op_type;
    double a = 0, b = 0, diff = 0, cumulative = 0;
  };
  std::vector<StepRow> step_rows;
  std::vector<std::string> steps;
  std::string step;
  int diff_a = -1, diff_b = -1;  // flat profile indices (run-major) of the compared pair
  bool diff_cols[4] = {true, true, true, true};
  int diff_pick = -1;  // the step row clicked in the chart
  // What the Diff chart's axes showed last frame (runs_view_chart_json).
  bool diff_log_scale = false;
  std::vector<std::string> diff_bar_ticks, diff_line_ticks;
  bool has_ops = false, has_kernels = false, has_cards = false, has_diff = false;
  RunsFetch fetch;  // what the page is fetching for the tab, and what it fetched
};

// New folder: the relative paths (one per line); returns run_discovery_json.
std::string runs_view_set_folder(RunsView* v, const std::string& paths_nl);
// Whether the paths (one per line) may hold profiler runs: runs by their names, or JSON traces
// whose heads may name ranks. A folder that cannot leaves the Runs tab as it was.
bool runs_view_folder_may_hold_runs(const std::string& paths_nl);
// The selection (the UI owns it: selector clicks change it at once; the page is told what to
// fetch). Out-of-range indices leave it as it is; the same selection again changes nothing.
void runs_view_select(RunsView* v, int run, int profile, int view);
// {run, profile, view, viewName, groupByShape, diff: {a: {run, profile}, b, step} | null}, or
// null before a folder with runs.
std::string runs_view_selection_json(const RunsView& v);
// part: the table the reply answers for, named as its key (protocol::keys::runs_stats
// kOperators, kKernels, kDistributed), or kRunsDiffPart for a Diff.
inline constexpr std::string_view kRunsDiffPart = "diff";
void runs_view_stats(RunsView* v, const std::string& part, const char* json);
void runs_view_frame(RunsView* v, float x, float y, float w, float h);
// {diff: {logScale, barTicks, lineTicks}}: what the Diff chart's axes showed last frame.
std::string runs_view_chart_json(const RunsView& v);

// Drawing pieces (runs_charts.cc).
struct PieSlice {
  std::string label;
  double value = 0;
};
// A pie of the top slices (the rest as "Other") with a legend, in a child of size (w, h).
void runs_pie(const char* id, const char* title, std::vector<PieSlice> slices, size_t top, float w,
              float h);
// Formats µs for tables ("1,234.56"; missing: "-").
inline std::string runs_us(double us) { return format_thousands(us, 2); }
// A colour swatch and its label, on the current line (charts' legends).
void runs_legend(uint32_t colour, const char* label);
// A statistic that may be missing (NaN) as 0, for bar lengths and sums.
double runs_or_zero(double v);

// The views (runs_view.cc: operator, kernel; runs_distributed_view.cc; runs_diff_view.cc).
void runs_operator_view(RunsView* v, float w, float h);
void runs_kernel_view(RunsView* v, float w, float h);
void runs_distributed_view(RunsView* v, float w, float h);
void runs_diff_view(RunsView* v, float w, float h);

}  // namespace strata
