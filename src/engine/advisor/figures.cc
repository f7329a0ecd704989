#include "engine/advisor/figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/analysis/step_partition.h"
#include "core/analysis/steps.h"
#include "core/formats/json/json_flat.h"
#include "engine/advisor/figures_events.h"
#include "engine/advisor/figures_hlo.h"
#include "engine/advisor/table_figures.h"
#include "engine/analysis/gpu_breakdown.h"
#include "engine/analysis/kernel_launches.h"
#include "engine/analysis/memory_viewer.h"
#include "engine/analysis/op_cells.h"
#include "engine/analysis/overview.h"
#include "engine/analysis/overview_verdicts.h"
#include "engine/analysis/queue_length.h"
#include "engine/analysis/ranks.h"
#include "engine/analysis/roofline.h"
#include "engine/engine.h"
#include "engine/query_args.h"
#include "protocol/memory_viewer_keys.h"

namespace strata {

namespace {

// How many rows a figure links as its evidence, at most.
constexpr size_t kEvidenceRows = 3;

double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

// The step-time breakdown summed over every step (the overview's figures).
void step_figures(const Engine& engine, AdvisorFigureSet* f) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet w = find_gpu_work(s);
  const std::vector<Step> steps = find_steps(s, w);
  if (steps.empty()) {
    f->set_missing("step", "steps (ProfilerStep#N slices or an xplane Steps row)");
    return;
  }
  const std::vector<StepBreakdown> parts = partition_steps(s, w, steps);
  const std::vector<uint32_t> display_of =
      store_to_display(engine.display_tracks(), s.tracks.size());
  StepParts total{};
  TimeNs duration = 0, busy = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    for (size_t p = 0; p < kStepParts; ++p) total[p] += parts[i].parts[p];
    duration += steps[i].end - steps[i].start;
    busy += parts[i].device_busy;
  }
  const StepShares sh = step_shares(total, duration);
  const auto d = static_cast<double>(duration);
  f->add("step.count", static_cast<double>(steps.size()), AnalysisUnit::kCount, "overview",
         "steps");
  f->add("step.time_ns", d, AnalysisUnit::kNs, "overview", "time in steps");
  f->add("step.mean_ns", d / static_cast<double>(steps.size()), AnalysisUnit::kNs, "overview",
         "mean step time");
  f->add("step.input_pct", sh.input, AnalysisUnit::kPercent, "overview",
         "input share of the step (input wait + host to device)");
  f->add("step.output_pct", sh.output, AnalysisUnit::kPercent, "overview",
         "output share of the step (device to host)");
  f->add("step.launch_pct", sh.launch, AnalysisUnit::kPercent, "overview",
         "kernel-launch share of the step");
  f->add("step.collectives_pct", sh.collectives, AnalysisUnit::kPercent, "overview",
         "exposed collectives share of the step");
  f->add("step.all_other_pct", sh.all_other, AnalysisUnit::kPercent, "overview",
         "share of the step in other work or idle");
  // XProf's input split: host-side processing against the transfer to the device (enqueue).
  const auto input_part = [&](StepPart p) {
    return static_cast<double>(total[static_cast<size_t>(p)]);
  };
  const double input = input_part(StepPart::kInputWait) + input_part(StepPart::kHostToDevice);
  f->add("step.input_host_share_pct", pct(input_part(StepPart::kInputWait), input),
         AnalysisUnit::kPercent, "overview", "host processing's share of the input time");
  f->add("step.input_transfer_share_pct", pct(input_part(StepPart::kHostToDevice), input),
         AnalysisUnit::kPercent, "overview", "host-to-device transfer's share of the input time");
  if (!w.devices.empty())
    f->add("step.duty_cycle_pct", pct(static_cast<double>(busy), d), AnalysisUnit::kPercent,
           "overview", "device duty cycle in the steps");

  // Per part: its time, its share, and the steps where it is largest (their part cells).
  struct PartFigure {
    const char* name;
    std::vector<StepPart> parts;
    const char* label;
  };
  const PartFigure list[] = {
      {"input", {StepPart::kInputWait, StepPart::kHostToDevice}, "input wait + host to device"},
      {"launch", {StepPart::kKernelLaunch}, "kernel launch"},
      {"collectives", {StepPart::kCollectives}, "exposed collectives"},
      {"idle", {StepPart::kIdle}, "idle (no event)"},
      {"host_compute", {StepPart::kHostCompute}, "host compute while the device is idle"},
      {"device_compute", {StepPart::kDeviceCompute}, "device compute"},
      {"input_host", {StepPart::kInputWait}, "input processing on the host"},
      {"input_transfer", {StepPart::kHostToDevice}, "input transfer to the device"},
  };
  for (const PartFigure& pf : list) {
    TimeNs sum = 0;
    for (StepPart p : pf.parts) sum += total[static_cast<size_t>(p)];
    const std::string base = std::string("step.") + pf.name;
    AdvisorFigure* ns = f->add(base + "_ns", static_cast<double>(sum), AnalysisUnit::kNs,
                               "overview", std::string(pf.label) + " in the steps");
    const std::string name(pf.name);
    if (name != "input" && name != "launch" && name != "collectives" && name != "input_host" &&
        name != "input_transfer")
      f->add(base + "_pct", pct(static_cast<double>(sum), d), AnalysisUnit::kPercent, "overview",
             std::string(pf.label) + " share of the step");
    // The steps with most of it, each part's events (the overview's part cells).
    std::vector<std::pair<TimeNs, size_t>> order;
    for (size_t i = 0; i < steps.size(); ++i) {
      TimeNs v = 0;
      for (StepPart p : pf.parts) v += parts[i].parts[static_cast<size_t>(p)];
      if (v > 0) order.emplace_back(v, i);
    }
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (size_t k = 0; k < order.size() && k < kEvidenceRows; ++k) {
      const Step& st = steps[order[k].second];
      const std::string step_name(s.strings.get(s.events.name[st.event]));
      AdvisorEvidence e;
      e.label = step_name + ": " +
                format_figure(static_cast<double>(order[k].first), AnalysisUnit::kNs) + " " +
                pf.label;
      const StepPart first = pf.parts[0];
      if (first == StepPart::kIdle) {
        // Idle has no events: the step itself.
        e.link.name = step_name;
        const uint32_t track = display_of[s.events.track[st.event]];
        if (track != kNone) e.link.tracks.push_back(track);
      } else {
        StepPart with_time = first;
        for (StepPart p : pf.parts)
          if (parts[order[k].second].parts[static_cast<size_t>(p)] > 0) {
            with_time = p;
            break;
          }
        e.link.step_event = st.event;
        e.link.part = step_part_key(with_time);
      }
      ns->evidence.push_back(std::move(e));
    }
  }
}

void gpu_figures(const Engine& engine, AdvisorFigureSet* f) {
  std::string why;
  if (!gpu_breakdown_available(engine, &why)) return f->set_missing("gpu", why);
  const AnalysisTable t = gpu_breakdown_table(engine, QueryArgs{});
  const double span = sum_column(t, "span", true), idle = sum_column(t, "idle", true);
  f->add("gpu.span_ns", span, AnalysisUnit::kNs, "gpu_breakdown", "GPU span");
  f->add("gpu.idle_ns", idle, AnalysisUnit::kNs, "gpu_breakdown", "GPU idle time");
  f->add("gpu.idle_pct", pct(idle, span), AnalysisUnit::kPercent, "gpu_breakdown",
         "GPU idle share of its span");
  const double comm = sum_column(t, "exposed_comm", true);
  f->add("gpu.exposed_comm_ns", comm, AnalysisUnit::kNs, "gpu_breakdown", "exposed communication");
  f->add("gpu.exposed_comm_pct", pct(comm, span), AnalysisUnit::kPercent, "gpu_breakdown",
         "exposed communication share of the GPU span");
  f->add("gpu.compute_pct", pct(sum_column(t, "compute", true), span), AnalysisUnit::kPercent,
         "gpu_breakdown", "compute share of the GPU span");
  if (has_number(t, "host_wait", false)) {
    const double wait = sum_column(t, "host_wait", false);
    f->add("gpu.host_wait_ns", wait, AnalysisUnit::kNs, "gpu_breakdown",
           "stream idle waiting for the host's launch");
    f->add("gpu.host_wait_pct", pct(wait, sum_column(t, "span", false)), AnalysisUnit::kPercent,
           "gpu_breakdown", "host-wait share of the streams' spans");
  } else {
    f->set_missing("gpu.host_wait", "kernels linked to the runtime calls that launched them");
  }
}

void launch_figures(const Engine& engine, AdvisorFigureSet* f) {
  std::string why;
  if (!kernel_launches_available(engine, &why)) return f->set_missing("launch", why);
  const AnalysisTable t = kernel_launches_table(engine, QueryArgs{});
  const double launches = sum_column(t, "launches", true);
  if (launches <= 0) return f->set_missing("launch", "kernels linked to their launches");
  f->add("launch.count", launches, AnalysisUnit::kCount, "kernel_launches", "linked launches");
  struct Outlier {
    const char* column;
    const char* label;
  };
  const Outlier list[] = {{"late", "launches delayed over 100 µs"},
                          {"short", "kernels shorter than their launch call"},
                          {"slow_runtime", "runtime calls over 50 µs"}};
  for (const Outlier& o : list) {
    const double n = sum_column(t, o.column, true);
    AdvisorFigure* c = f->add(std::string("launch.") + o.column + "_count", n, AnalysisUnit::kCount,
                              "kernel_launches", o.label);
    f->add(std::string("launch.") + o.column + "_pct", pct(n, launches), AnalysisUnit::kPercent,
           "kernel_launches", std::string(o.label) + ", share of the launches");
    c->evidence = top_rows(t, o.column, false, kEvidenceRows, AnalysisUnit::kCount);
  }
  // Σ launch delay = Σ per kernel of its mean delay × its launches.
  double delay = 0;
  const int avg = column_index(t, "delay_avg"), n = column_index(t, "launches");
  for (const AnalysisRow& r : t.rows)
    if (r.parent >= 0 && avg >= 0 && n >= 0)
      delay += std::max(0.0, cell_number(r, avg)) * cell_number(r, n);
  f->add("launch.delay_total_ns", delay, AnalysisUnit::kNs, "kernel_launches",
         "total launch delay (mean delay × launches, per kernel)");
}

void rank_figures(const Engine& engine, AdvisorFigureSet* f) {
  std::string why;
  if (!ranks_available(engine, &why)) return f->set_missing("ranks", why);
  const AnalysisTable t = ranks_table(engine, QueryArgs{});
  const int straggler = column_index(t, "straggler"), compute = column_index(t, "compute");
  const int late_rank = column_index(t, "late_rank"), name = column_index(t, "name");
  const int skew = column_index(t, "skew");
  double ranks = 0, stragglers = 0, lo = 0, hi = 0, sum = 0;
  std::vector<std::string> straggler_names;
  for (const AnalysisRow& r : t.rows) {
    if (r.parent >= 0 || straggler < 0 || r.cells[straggler].kind != AnalysisCell::Kind::kText)
      continue;
    const double c = cell_number(r, compute);
    lo = ranks ? std::min(lo, c) : c;
    hi = ranks ? std::max(hi, c) : c;
    sum += c;
    ++ranks;
    if (!r.cells[straggler].text.empty()) {
      ++stragglers;
      straggler_names.push_back(r.cells[name].text);
    }
  }
  f->add("ranks.count", ranks, AnalysisUnit::kCount, "ranks", "ranks");
  AdvisorFigure* st =
      f->add("ranks.stragglers", stragglers, AnalysisUnit::kCount, "ranks", "straggler ranks");
  f->add("ranks.compute_spread_pct", ranks ? pct(hi - lo, sum / ranks) : 0, AnalysisUnit::kPercent,
         "ranks", "(max - min) / mean of the ranks' compute");
  // The collectives a straggler arrived last at, most skewed first.
  std::vector<std::pair<double, const AnalysisRow*>> late;
  for (const AnalysisRow& r : t.rows) {
    if (r.parent < 0 || late_rank < 0 || r.link.name.empty()) continue;
    const std::string& who = r.cells[late_rank].text;
    if (std::find(straggler_names.begin(), straggler_names.end(), who) != straggler_names.end())
      late.emplace_back(cell_number(r, skew), &r);
  }
  std::stable_sort(late.begin(), late.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = 0; k < late.size() && k < kEvidenceRows; ++k)
    st->evidence.push_back({late[k].second->cells[name].text + ": " +
                                late[k].second->cells[late_rank].text + " late by " +
                                format_figure(late[k].first, AnalysisUnit::kNs),
                            late[k].second->link});
}

void roofline_figures(const Engine& engine, AdvisorFigureSet* f) {
  std::string why;
  if (!roofline_available(engine, &why)) return f->set_missing("roofline", why);
  const AnalysisTable t = roofline_table(engine, QueryArgs{});
  const int kind = column_index(t, "kind"), bound = column_index(t, "bound_by");
  const int time = column_index(t, "time");
  double hbm = 0, compute = 0, all = 0;
  std::string no_bound;
  for (const AnalysisRow& r : t.rows) {
    if (kind < 0 || bound < 0 || r.cells[kind].text != "op") continue;
    const double ns = cell_number(r, time);
    all += ns;
    const AnalysisCell& b = r.cells[bound];
    if (b.kind != AnalysisCell::Kind::kText) {
      if (no_bound.empty()) no_bound = b.why;
      continue;
    }
    (b.text == "HBM" ? hbm : compute) += ns;
  }
  if (hbm + compute <= 0)
    return f->set_missing("roofline", no_bound.empty() ? "ops with FLOPs and bytes" : no_bound);
  f->add("roofline.op_time_ns", all, AnalysisUnit::kNs, "roofline", "time in HLO ops");
  AdvisorFigure* m = f->add("roofline.hbm_bound_pct", pct(hbm, all), AnalysisUnit::kPercent,
                            "roofline", "share of op time bound by memory bandwidth");
  AdvisorFigure* c = f->add("roofline.compute_bound_pct", pct(compute, all), AnalysisUnit::kPercent,
                            "roofline", "share of op time bound by compute");
  f->add("roofline.hbm_bound_ns", hbm, AnalysisUnit::kNs, "roofline", "op time bound by memory");
  f->add("roofline.compute_bound_ns", compute, AnalysisUnit::kNs, "roofline",
         "op time bound by compute");
  m->evidence = top_rows_where(t, "time", bound, "HBM", kEvidenceRows);
  c->evidence = top_rows_where(t, "time", bound, "Compute", kEvidenceRows);
}

void memory_figures(const Engine& engine, AdvisorFigureSet* f) {
  std::string why;
  if (!memory_viewer_available(engine, &why)) return f->set_missing("memory", why);
  const AnalysisTable t = memory_viewer_table(engine, QueryArgs{});
  std::vector<JsonLine> lines;
  std::string err;
  if (t.extra_json.empty() || !json_flatten(t.extra_json, &lines, &err))
    return f->set_missing("memory", "a module with a buffer assignment");
  namespace key = protocol::keys::memory_viewer;
  namespace item = protocol::keys::memory_viewer_item;
  double peak = -1, device = -1;
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (l.depth != 1 || l.kind != 'n' || keys[1] != item::kBytes) return;
    if (keys[0] == key::kPeak) peak = json_number(l);
    if (keys[0] == key::kDevice) device = json_number(l);
  });
  if (peak < 0) return f->set_missing("memory", "a heap simulation of the module");
  AdvisorFigure* p =
      f->add("memory.peak_bytes", peak, AnalysisUnit::kBytes, "memory_viewer", "peak heap");
  p->evidence = top_rows(t, "size", true, kEvidenceRows, AnalysisUnit::kBytes);
  if (device <= 0) {
    f->set_missing("memory.device", "the device's memory size (a memory_size stat)");
    return;
  }
  f->add("memory.device_bytes", device, AnalysisUnit::kBytes, "memory_viewer", "device memory");
  f->add("memory.peak_pct", pct(peak, device), AnalysisUnit::kPercent, "memory_viewer",
         "peak heap / device memory");
}

void queue_figures(const Engine& engine, AdvisorFigureSet* f) {
  std::string why;
  if (!queue_length_available(engine, &why)) return f->set_missing("queue", why);
  const AnalysisTable t = queue_length_table(engine, QueryArgs{});
  f->add("queue.at_stall_ns", sum_column(t, "at_stall", true), AnalysisUnit::kNs, "queue_length",
         "time with 1024 or more launches queued");
  f->add("queue.max", max_column(t, "max"), AnalysisUnit::kCount, "queue_length", "longest queue");
}

}  // namespace

const AdvisorFigure* AdvisorFigureSet::find(const std::string& name) const {
  for (const AdvisorFigure& f : figures)
    if (f.name == name) return &f;
  return nullptr;
}

std::string AdvisorFigureSet::why_missing(const std::string& name) const {
  // The longest source that prefixes the name: "gpu.host_wait" before "gpu".
  const std::pair<std::string, std::string>* best = nullptr;
  for (const auto& m : missing)
    if (name.compare(0, m.first.size(), m.first) == 0 &&
        (name.size() == m.first.size() || name[m.first.size()] == '.' ||
         name[m.first.size()] == '_') &&
        (!best || m.first.size() > best->first.size()))
      best = &m;
  return best ? best->second : "the figure " + name;
}

AdvisorFigure* AdvisorFigureSet::add(std::string name, double value, AnalysisUnit unit,
                                     std::string analysis, std::string label) {
  AdvisorFigure fig;
  fig.name = std::move(name);
  fig.value = std::isfinite(value) ? value : 0;
  fig.unit = unit;
  fig.analysis = std::move(analysis);
  fig.label = std::move(label);
  figures.push_back(std::move(fig));
  return &figures.back();
}

void AdvisorFigureSet::set_missing(const std::string& source, const std::string& why) {
  missing.emplace_back(source, why);
}

AdvisorFigureSet advisor_figures(const Engine& engine) {
  AdvisorFigureSet f;
  // add() hands out pointers: no reallocation while filling (some 110 figures today).
  f.figures.reserve(256);
  step_figures(engine, &f);
  gpu_figures(engine, &f);
  launch_figures(engine, &f);
  rank_figures(engine, &f);
  roofline_figures(engine, &f);
  memory_figures(engine, &f);
  queue_figures(engine, &f);
  hlo_figures(engine, &f);
  event_figures(engine, &f);
  return f;
}

std::string format_figure(double v, AnalysisUnit unit) {
  char buf[64];
  switch (unit) {
    case AnalysisUnit::kPercent:
      std::snprintf(buf, sizeof buf, "%.1f %%", v);
      break;
    case AnalysisUnit::kNs: {
      const double a = std::fabs(v);
      if (a >= 1e9)
        std::snprintf(buf, sizeof buf, "%.2f s", v / 1e9);
      else if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f ms", v / 1e6);
      else if (a >= 1e3)
        std::snprintf(buf, sizeof buf, "%.1f µs", v / 1e3);
      else
        std::snprintf(buf, sizeof buf, "%.0f ns", v);
      break;
    }
    case AnalysisUnit::kBytes: {
      const double a = std::fabs(v);
      if (a >= 1024.0 * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.2f GiB", v / (1024.0 * 1024 * 1024));
      else if (a >= 1024.0 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f MiB", v / (1024.0 * 1024));
      else if (a >= 1024.0)
        std::snprintf(buf, sizeof buf, "%.1f KiB", v / 1024.0);
      else
        std::snprintf(buf, sizeof buf, "%.0f B", v);
      break;
    }
    case AnalysisUnit::kCount:
      std::snprintf(buf, sizeof buf, "%.0f", v);
      break;
    default:
      std::snprintf(buf, sizeof buf, "%.3g", v);
  }
  return buf;
}

}  // namespace strata
