// Reading web/page/runs.js's messages into RunsView: the folder's paths (discovery runs here) and
// each view's statistics (engine/runs_json.h's JSON, flattened by core/formats/json).
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "core/runs/run_plan.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_runs.h"
#include "ui/runs/runs_view.h"

namespace strata {

namespace reply = protocol::keys;
namespace {

namespace stats = reply::runs_stats;
namespace op = reply::runs_operator;
namespace kernel = reply::runs_kernel;
namespace detail = reply::runs_kernel_detail;
namespace card = reply::runs_card;
namespace comm = reply::runs_comm_op;
namespace diff = reply::runs_operator_diff;
namespace step_row = reply::runs_step_diff_row;

void read_op(RunsView::Op* o, const std::vector<std::string>& k, const JsonLine& l) {
  if (l.depth == 2) {
    const std::string& f = k[2];
    if (f == op::kName)
      o->name = l.value;
    else if (f == op::kInputShape)
      o->shape = l.value;
    else if (f == op::kCalls)
      o->calls = json_number(l);
    else if (f == op::kHostSelfUs)
      o->host_self = json_number(l);
    else if (f == op::kHostTotalUs)
      o->host_total = json_number(l);
    else if (f == op::kDeviceSelfUs)
      o->device_self = json_number(l);
    else if (f == op::kDeviceTotalUs)
      o->device_total = json_number(l);
    else if (f == op::kAiCoreEligible)
      o->ai_eligible = l.value == "true";
    else if (f == op::kAiCoreSelfPct)
      o->ai_self_pct = json_number(l);
    else if (f == op::kAiCoreTotalPct)
      o->ai_total_pct = json_number(l);
  } else if (l.depth == 3 && k[2] == op::kCallStacks) {
    o->stacks.emplace_back("", 0);
  } else if (l.depth == 4 && k[2] == op::kCallStacks && !o->stacks.empty()) {
    if (k[4] == reply::runs_call_stack::kStack)
      o->stacks.back().first = l.value;
    else if (k[4] == reply::runs_call_stack::kCount)
      o->stacks.back().second = json_number(l);
  }
}

void read_kernel(RunsView::Kernel* r, const std::string& f, const JsonLine& l) {
  if (f == kernel::kName)
    r->name = l.value;
  else if (f == kernel::kCoreType)
    r->core_type = l.value;
  else if (f == kernel::kCount)
    r->count = json_number(l);
  else if (f == kernel::kTotalUs)
    r->total = json_number(l);
  else if (f == kernel::kMinUs)
    r->min = json_number(l);
  else if (f == kernel::kAvgUs)
    r->avg = json_number(l);
  else if (f == kernel::kMaxUs)
    r->max = json_number(l);
}

void read_detail(RunsView::Detail* d, const std::string& f, const JsonLine& l) {
  if (f == detail::kName)
    d->name = l.value;
  else if (f == detail::kType)
    d->type = l.value;
  else if (f == detail::kCoreType)
    d->core_type = l.value;
  else if (f == detail::kStep)
    d->step = l.value;
  else if (f == detail::kStartUs)
    d->start = json_number(l);
  else if (f == detail::kDurationUs)
    d->duration = json_number(l);
  else if (f == detail::kWaitUs)
    d->wait = json_number(l);
  else if (f == detail::kBlockDim)
    d->block_dim = json_number(l);
}

void read_card(RunsView::Card* c, const std::vector<std::string>& k, const JsonLine& l) {
  if (l.depth == 2) {
    const std::string& f = k[2];
    if (f == card::kCard)
      c->card = static_cast<int>(json_number(l));
    else if (f == card::kStep)
      c->step = l.value;
    else if (f == card::kComputeUs)
      c->compute = json_number(l);
    else if (f == card::kCommunicationUs)
      c->communication = json_number(l);
    else if (f == card::kOverlapUs)
      c->overlap = json_number(l);
    else if (f == card::kFreeUs)
      c->free = json_number(l);
    else if (f == card::kTransferUs)
      c->transfer = json_number(l);
    else if (f == card::kWaitUs)
      c->wait = json_number(l);
    else if (f == card::kSyncUs)
      c->sync = json_number(l);
  } else if (l.depth == 3 && k[2] == card::kCommOps) {
    c->ops.emplace_back();
  } else if (l.depth == 4 && k[2] == card::kCommOps && !c->ops.empty()) {
    RunsView::CommOp& o = c->ops.back();
    const std::string& f = k[4];
    if (f == comm::kName)
      o.name = l.value;
    else if (f == comm::kCalls)
      o.calls = json_number(l);
    else if (f == comm::kElapseUs)
      o.elapse = json_number(l);
    else if (f == comm::kTransitUs)
      o.transit = json_number(l);
    else if (f == comm::kWaitUs)
      o.wait = json_number(l);
    else if (f == comm::kSyncUs)
      o.sync = json_number(l);
  }
}

void read_diff_row(RunsView::DiffRow* r, const std::string& f, const JsonLine& l) {
  static constexpr std::string_view kGroups[4][4] = {
      {diff::kAHostUs, diff::kBHostUs, diff::kHostDiffUs, diff::kHostRatio},
      {diff::kASelfHostUs, diff::kBSelfHostUs, diff::kSelfHostDiffUs, diff::kSelfHostRatio},
      {diff::kADeviceUs, diff::kBDeviceUs, diff::kDeviceDiffUs, diff::kDeviceRatio},
      {diff::kASelfDeviceUs, diff::kBSelfDeviceUs, diff::kSelfDeviceDiffUs,
       diff::kSelfDeviceRatio}};
  if (f == diff::kName)
    r->name = l.value;
  else if (f == diff::kInputShape)
    r->shape = l.value;
  for (int g = 0; g < 4; ++g)
    for (int i = 0; i < 4; ++i)
      if (f == kGroups[g][i]) r->v[g][i] = json_number(l);
}

}  // namespace

namespace {
std::vector<std::string> folder_paths(const std::string& paths_nl) {
  std::vector<std::string> paths;
  std::istringstream in(paths_nl);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) paths.push_back(runs_normal_path(line));
  return paths;
}
}  // namespace

std::string runs_view_set_folder(RunsView* v, const std::string& paths_nl) {
  *v = RunsView();
  v->paths = folder_paths(paths_nl);
  v->discovery = discover_runs(v->paths);
  return run_discovery_json(v->discovery);
}

bool runs_view_folder_may_hold_runs(const std::string& paths_nl) {
  const std::vector<std::string> paths = folder_paths(paths_nl);
  return paths_hold_runs(paths) || !run_head_candidates(paths).empty();
}

void runs_view_select(RunsView* v, int run, int profile, int view) {
  if (run < 0 || run >= static_cast<int>(v->discovery.runs.size())) return;
  const size_t profiles = v->discovery.runs[static_cast<size_t>(run)].profiles.size();
  if (profile < 0 || static_cast<size_t>(profile) >= profiles) return;
  if (view < 0 || view >= kRunViewCount) return;
  if (run != v->run || profile != v->profile) {
    v->has_ops = v->has_kernels = v->has_cards = false;
    v->stacks_of = -1;
  }
  v->run = run;
  v->profile = profile;
  v->view = view;
}

void runs_view_stats(RunsView* v, const std::string& part, const char* json) {
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json, &lines, &error)) {
    v->status = "Statistics could not be read: " + error;
    return;
  }
  if (part == stats::kOperators) {
    v->ops.clear();
    json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
      if (k[0] != stats::kOperators || l.depth < 1) return;
      if (l.depth == 1)
        v->ops.emplace_back();
      else if (!v->ops.empty())
        read_op(&v->ops.back(), k, l);
    });
    v->ops_sorted = false;
    v->has_ops = true;
  } else if (part == stats::kKernels) {
    v->kernels.clear();
    v->core_types.clear();
    v->details.clear();
    json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
      if (k[0] == stats::kKernelDetailsTotal && l.depth == 0) v->details_total = json_number(l);
      if (l.depth < 1) return;
      std::vector<RunsView::Kernel>* list = k[0] == stats::kKernels           ? &v->kernels
                                            : k[0] == stats::kKernelCoreTypes ? &v->core_types
                                                                              : nullptr;
      if (list) {
        if (l.depth == 1)
          list->emplace_back();
        else if (l.depth == 2 && !list->empty())
          read_kernel(&list->back(), k[2], l);
      } else if (k[0] == stats::kKernelDetails) {
        if (l.depth == 1)
          v->details.emplace_back();
        else if (l.depth == 2 && !v->details.empty())
          read_detail(&v->details.back(), k[2], l);
      }
    });
    v->kernels_sorted = v->details_sorted = false;
    v->has_kernels = true;
  } else if (part == stats::kDistributed) {
    v->cards.clear();
    json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
      if (k[0] != stats::kDistributed || l.depth < 1) return;
      if (l.depth == 1)
        v->cards.emplace_back();
      else if (!v->cards.empty())
        read_card(&v->cards.back(), k, l);
    });
    v->comm_card = 0;
    v->has_cards = true;
  } else if (part == kRunsDiffPart) {
    v->op_diff.clear();
    v->step_rows.clear();
    v->steps.clear();
    int a_run = -1, a_prof = -1, b_run = -1, b_prof = -1;
    json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
      if (k[0] == stats::kSteps && l.depth == 1) {  // every step of either profile
        v->steps.push_back(l.value);
      } else if (k[0] == stats::kOperatorDiff && l.depth >= 1) {
        if (l.depth == 1)
          v->op_diff.emplace_back();
        else if (l.depth == 2 && !v->op_diff.empty())
          read_diff_row(&v->op_diff.back(), k[2], l);
      } else if (k[0] == stats::kStepDiff && l.depth >= 1) {
        if (l.depth == 1 && k[1] == reply::runs_step_diff::kStep) v->step = l.value;
        if (k[1] != reply::runs_step_diff::kRows || l.depth < 2) return;
        if (l.depth == 2)
          v->step_rows.emplace_back();
        else if (l.depth == 3 && !v->step_rows.empty()) {
          RunsView::StepRow& r = v->step_rows.back();
          if (k[3] == step_row::kOpType)
            r.op_type = l.value;
          else if (k[3] == step_row::kADeviceUs)
            r.a = json_number(l);
          else if (k[3] == step_row::kBDeviceUs)
            r.b = json_number(l);
          else if (k[3] == step_row::kDiffUs)
            r.diff = json_number(l);
          else if (k[3] == step_row::kCumulativeDiffUs)
            r.cumulative = json_number(l);
        }
      } else if ((k[0] == stats::kA || k[0] == stats::kB) && l.depth == 1) {
        int* run = k[0] == stats::kA ? &a_run : &b_run;
        int* prof = k[0] == stats::kA ? &a_prof : &b_prof;
        if (k[1] == reply::runs_diff_side::kRun) *run = static_cast<int>(json_number(l));
        if (k[1] == reply::runs_diff_side::kProfile) *prof = static_cast<int>(json_number(l));
      }
    });
    // Flat indices (run-major) for the two pickers.
    auto flat = [&](int run, int prof) {
      int n = 0;
      for (int r = 0; r < static_cast<int>(v->discovery.runs.size()); ++r) {
        if (r == run) return n + prof;
        n += static_cast<int>(v->discovery.runs[r].profiles.size());
      }
      return -1;
    };
    v->diff_a = flat(a_run, a_prof);
    v->diff_b = flat(b_run, b_prof);
    v->diff_pick = -1;
    v->has_diff = true;
  }
  // The first error, if any, as the status line.
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] == stats::kErrors && l.depth == 1 && v->status.empty()) v->status = l.value;
  });
}

std::string runs_view_selection_json(const RunsView& v) {
  if (v.discovery.runs.empty()) return "null";
  std::string out = "{\"run\":" + std::to_string(v.run) +
                    ",\"profile\":" + std::to_string(v.profile) +
                    ",\"view\":" + std::to_string(v.view) + ",\"viewName\":";
  json_append_string(&out, run_view_name(static_cast<RunView>(v.view)));
  out += std::string(",\"groupByShape\":") + (v.group_by_shape ? "true" : "false");
  // The compared pair as {run, profile}, from the flat (run-major) indices the Diff view keeps.
  auto side = [&](int flat) {
    int n = 0;
    for (size_t r = 0; r < v.discovery.runs.size(); ++r) {
      const int size = static_cast<int>(v.discovery.runs[r].profiles.size());
      if (flat >= n && flat < n + size)
        return "{\"run\":" + std::to_string(r) + ",\"profile\":" + std::to_string(flat - n) + "}";
      n += size;
    }
    return std::string("null");
  };
  out += ",\"diff\":";
  if (v.diff_a >= 0 && v.diff_b >= 0) {
    out += "{\"a\":" + side(v.diff_a) + ",\"b\":" + side(v.diff_b) + ",\"step\":";
    json_append_string(&out, v.step);
    out += "}";
  } else {
    out += "null";
  }
  return out + "}";
}

std::string runs_view_chart_json(const RunsView& v) {
  auto list = [](std::string* o, const std::vector<std::string>& l) {
    *o += '[';
    for (size_t i = 0; i < l.size(); ++i) {
      if (i) *o += ',';
      json_append_string(o, l[i]);
    }
    *o += ']';
  };
  std::string o = "{\"diff\":{\"logScale\":";
  o += v.diff_log_scale ? "true" : "false";
  o += ",\"barTicks\":";
  list(&o, v.diff_bar_ticks);
  o += ",\"lineTicks\":";
  list(&o, v.diff_line_ticks);
  return o + "}}";
}

}  // namespace strata
