#include "engine/analysis/overview.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/analysis/step_partition.h"
#include "core/analysis/steps.h"
#include "engine/analysis/analysis_cache.h"
#include "engine/analysis/op_cells.h"
#include "engine/analysis/overview_verdicts.h"
#include "engine/engine.h"
#include "engine/query_args.h"

namespace strata {

namespace {

constexpr size_t kTopOps = 10;

// Columns: name, start, duration, the parts, then the shares.
constexpr int kName = 0, kStart = 1, kDuration = 2, kFirstPart = 3;
constexpr int kInputPct = kFirstPart + static_cast<int>(kStepParts);
constexpr int kDutyPct = kInputPct + 1, kCount = kDutyPct + 1, kSharePct = kCount + 1;
constexpr int kColumns = kSharePct + 1;

const char* part_tip(StepPart p) {
  switch (p) {
    case StepPart::kDeviceCompute:
      return "GPU kernels and memsets (not collectives): XProf's device compute, which owns "
             "the time whatever else overlaps it";
    case StepPart::kCollectives:
      return "communication kernels (nccl) while no higher-priority work runs";
    case StepPart::kHostToDevice:
      return "host to device copies (Memcpy HtoD), not hidden by device work";
    case StepPart::kDeviceToHost:
      return "device to host copies (Memcpy DtoH): XProf's output time";
    case StepPart::kDeviceToDevice:
      return "device to device and peer copies";
    case StepPart::kInputWait:
      return "the host waiting for the next batch (enumerate(DataLoader)..., IteratorGetNext) "
             "while the device runs nothing";
    case StepPart::kKernelLaunch:
      return "runtime calls that launch device work (cudaLaunchKernel, cudaMemcpyAsync, ...) "
             "while the device runs nothing";
    case StepPart::kHostCompute:
      return "other host operators while the device runs nothing";
    case StepPart::kCompile:
      return "host events named compile (not \"compiled\")";
    case StepPart::kOther:
      return "host to host copies and the profiler's overhead events";
    case StepPart::kIdle:
      return "no event at all (Python between operators, waits): part of XProf's all others";
  }
  return "";
}

std::vector<AnalysisColumn> columns() {
  std::vector<AnalysisColumn> c = {
      {"name", "Step", AnalysisUnit::kText,
       "a step; a group row is the mean of its steps; the top device ops follow"},
      {"start", "Start", AnalysisUnit::kNs, "from the trace's start"},
      {"duration", "Duration", AnalysisUnit::kNs,
       "the step's length = the sum of its parts; an op row: its time inside the steps"},
  };
  for (size_t p = 0; p < kStepParts; ++p)
    c.push_back({step_part_key(static_cast<StepPart>(p)), step_part_label(static_cast<StepPart>(p)),
                 AnalysisUnit::kNs, part_tip(static_cast<StepPart>(p))});
  c.push_back({"input_pct", "Input %", AnalysisUnit::kPercent,
               "XProf's input share: (input wait + host to device) / duration"});
  c.push_back({"duty_cycle", "Duty cycle %", AnalysisUnit::kPercent,
               "time the device runs anything / duration"});
  c.push_back({"count", "Events", AnalysisUnit::kCount,
               "a step: the device events running in it; an op: its occurrences in the steps"});
  c.push_back({"share_pct", "Share %", AnalysisUnit::kPercent,
               "an op: its time / all device work's time in the steps"});
  return c;
}

std::string track_name(const TraceStore& s, uint32_t track) {
  const Track& t = s.tracks[track];
  const Process& p = s.processes[t.process];
  std::string n = p.name ? std::string(s.strings.get(p.name)) : "process " + p.key;
  return n + " / " + (t.name ? std::string(s.strings.get(t.name)) : "thread " + t.key);
}

double as_ns(TimeNs v) { return static_cast<double>(v); }
double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

void set_parts(AnalysisRow* r, const double* parts, bool has_device) {
  for (size_t p = 0; p < kStepParts; ++p) {
    const auto part = static_cast<StepPart>(p);
    const bool device_part = part == StepPart::kDeviceCompute || part == StepPart::kCollectives ||
                             part == StepPart::kDeviceToHost || part == StepPart::kDeviceToDevice;
    r->cells[kFirstPart + p] = !has_device && device_part
                                   ? AnalysisCell::empty("no GPU work in this trace")
                                   : AnalysisCell::of(parts[p]);
  }
}

AnalysisRow blank_row() {
  AnalysisRow r;
  r.cells.assign(kColumns, AnalysisCell{});
  return r;
}

struct OpTotal {
  TimeNs time = 0;
  uint64_t count = 0;
  std::vector<uint32_t> tracks;  // display tracks it runs on
};

}  // namespace

bool overview_available(const Engine& engine, std::string* why) {
  if (shared_gpu_work(engine).devices.empty() && shared_steps(engine).empty()) {
    *why =
        "no steps (ProfilerStep#N slices, an xplane Steps row) and no GPU work: nothing to "
        "break down";
    return false;
  }
  return true;
}

AnalysisTable overview_table(const Engine& engine, const QueryArgs& /*args*/) {
  const TraceStore& s = *engine.store();
  const GpuWorkSet& w = shared_gpu_work(engine);
  const std::vector<Step>& steps = shared_steps(engine);
  const std::vector<StepBreakdown>& parts = shared_step_parts(engine);
  const std::vector<uint32_t> display_of =
      store_to_display(engine.display_tracks(), s.tracks.size());
  const TimeNs origin = s.has_time ? s.start_ns : 0;
  const bool has_device = !w.devices.empty();

  AnalysisTable t;
  t.title = "Overview";
  t.columns = columns();
  t.notes.push_back(
      "Each step is split as XProf's overview does: every event in it gets a type, and where "
      "events overlap the type of higher priority owns the time (device compute, device to host, "
      "device to device, input wait, collectives, kernel launch, host to device, compile, host "
      "compute), so the parts sum to the step. Idle is time no event covers; XProf counts it in "
      "\"all others\" with Other.");
  t.notes.push_back(
      "Kineto: the step's process's threads (Python frames and the profiler's own span left "
      "out) and the GPUs it launches work on; xplane: the device's streams and the host "
      "threads.");
  if (!has_device)
    t.notes.push_back(
        "No GPU work in this trace: the device parts, the duty cycle and the top device ops do "
        "not apply.");
  if (steps.empty())
    t.notes.push_back(
        "No steps (no ProfilerStep#N slices, no xplane Steps row): the step-time breakdown and "
        "the verdicts need them; the top device ops below cover the whole trace.");

  // Per group of steps: a mean row, its steps, a standard deviation row.
  std::unordered_map<uint32_t, OpTotal> ops;  // by event name
  TimeNs device_time = 0;
  for (size_t i = 0; i < steps.size();) {
    const uint32_t group = parts[i].group;
    const uint32_t track = s.events.track[steps[i].event];
    size_t j = i;
    while (j < steps.size() && parts[j].group == group) ++j;
    const double n = static_cast<double>(j - i);
    double sum[kStepParts] = {}, sum2[kStepParts] = {};
    double dur_sum = 0, dur_sum2 = 0, busy_sum = 0, events_sum = 0;
    StepParts total{};
    TimeNs total_dur = 0;
    for (size_t k = i; k < j; ++k) {
      for (size_t p = 0; p < kStepParts; ++p) {
        const double v = as_ns(parts[k].parts[p]);
        sum[p] += v, sum2[p] += v * v;
        total[p] += parts[k].parts[p];
      }
      const double d = as_ns(steps[k].end - steps[k].start);
      dur_sum += d, dur_sum2 += d * d;
      total_dur += steps[k].end - steps[k].start;
      busy_sum += as_ns(parts[k].device_busy);
      events_sum += static_cast<double>(parts[k].device_work.size());
    }
    const std::string where = track_name(s, track);
    AnalysisRow g = blank_row();
    g.cells[kName] = AnalysisCell::of(where + " (" + std::to_string(j - i) +
                                      (j - i == 1 ? " step, mean)" : " steps, mean)"));
    g.cells[kStart] = AnalysisCell::empty("a group of steps");
    g.cells[kDuration] = AnalysisCell::of(dur_sum / n);
    double mean[kStepParts], sd[kStepParts];
    for (size_t p = 0; p < kStepParts; ++p) {
      mean[p] = sum[p] / n;
      sd[p] = std::sqrt(std::max(0.0, sum2[p] / n - mean[p] * mean[p]));
    }
    set_parts(&g, mean, has_device);
    const StepShares shares = step_shares(total, total_dur);
    g.cells[kInputPct] = AnalysisCell::of(shares.input);
    g.cells[kDutyPct] = has_device ? AnalysisCell::of(pct(busy_sum, dur_sum))
                                   : AnalysisCell::empty("no GPU work in this trace");
    g.cells[kCount] = AnalysisCell::of(events_sum / n);
    g.cells[kSharePct] = AnalysisCell::empty("for device ops");
    if (display_of[track] != kNone) g.link.tracks.push_back(display_of[track]);
    const auto parent = static_cast<int32_t>(t.rows.size());
    t.rows.push_back(std::move(g));

    const std::string prefix = steps.size() > j - i ? where + ": " : std::string();
    for (const std::string& v : step_verdicts(shares)) t.notes.push_back(prefix + v);
    if (has_device) {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "Duty cycle %.1f %%: the device runs work in that share of "
                    "the steps' time.",
                    pct(busy_sum, dur_sum));
      t.notes.push_back(prefix + buf);
    }

    for (size_t k = i; k < j; ++k) {
      const Step& st = steps[k];
      AnalysisRow r = blank_row();
      r.parent = parent;
      const std::string name(s.strings.get(s.events.name[st.event]));
      r.cells[kName] = AnalysisCell::of(name);
      r.cells[kStart] = AnalysisCell::of(as_ns(st.start - origin));
      r.cells[kDuration] = AnalysisCell::of(as_ns(st.end - st.start));
      double v[kStepParts];
      for (size_t p = 0; p < kStepParts; ++p) v[p] = as_ns(parts[k].parts[p]);
      set_parts(&r, v, has_device);
      const StepShares one = step_shares(parts[k].parts, st.end - st.start);
      r.cells[kInputPct] = AnalysisCell::of(one.input);
      r.cells[kDutyPct] =
          has_device ? AnalysisCell::of(pct(as_ns(parts[k].device_busy), as_ns(st.end - st.start)))
                     : AnalysisCell::empty("no GPU work in this trace");
      r.cells[kCount] = AnalysisCell::of(static_cast<double>(parts[k].device_work.size()));
      r.cells[kSharePct] = AnalysisCell::empty("for device ops");
      r.link.name = name;
      if (display_of[track] != kNone) r.link.tracks.push_back(display_of[track]);
      // Each part cell selects the events that own its time (found again when clicked).
      for (size_t p = 0; p < kStepParts; ++p) {
        const auto col = static_cast<uint32_t>(kFirstPart + p);
        if (static_cast<StepPart>(p) == StepPart::kIdle || parts[k].parts[p] <= 0 ||
            r.cells[col].kind != AnalysisCell::Kind::kNumber)
          continue;
        AnalysisCellLink c;
        c.column = col;
        c.link.step_event = st.event;
        c.link.part = step_part_key(static_cast<StepPart>(p));
        r.cell_links.push_back(std::move(c));
      }
      t.rows.push_back(std::move(r));
      for (uint32_t e : parts[k].device_work) {
        const TimeNs a = std::max(s.events.start[e], st.start);
        const TimeNs z = std::min(s.events.start[e] + s.events.dur[e], st.end);
        OpTotal& o = ops[s.events.name[e]];
        o.time += z - a;
        ++o.count;
        device_time += z - a;
        const uint32_t dt = display_of[s.events.track[e]];
        if (dt != kNone && std::find(o.tracks.begin(), o.tracks.end(), dt) == o.tracks.end())
          o.tracks.push_back(dt);
      }
    }
    AnalysisRow sdr = blank_row();
    sdr.parent = parent;
    sdr.cells[kName] = AnalysisCell::of("standard deviation");
    sdr.cells[kStart] = AnalysisCell::empty("the spread of the steps above");
    sdr.cells[kDuration] =
        AnalysisCell::of(std::sqrt(std::max(0.0, dur_sum2 / n - (dur_sum / n) * (dur_sum / n))));
    set_parts(&sdr, sd, has_device);
    for (int c : {kInputPct, kDutyPct, kCount, kSharePct})
      sdr.cells[c] = AnalysisCell::empty("see each step");
    t.rows.push_back(std::move(sdr));
    i = j;
  }

  // The top device ops: in the steps, or over the whole trace when it has none.
  if (steps.empty())
    for (const GpuDevice& dev : w.devices)
      for (const GpuStream& st : dev.streams)
        for (uint32_t e : st.events) {
          OpTotal& o = ops[s.events.name[e]];
          o.time += std::max<TimeNs>(0, s.events.dur[e]);
          ++o.count;
          device_time += std::max<TimeNs>(0, s.events.dur[e]);
          const uint32_t dt = display_of[st.track];
          if (dt != kNone && std::find(o.tracks.begin(), o.tracks.end(), dt) == o.tracks.end())
            o.tracks.push_back(dt);
        }
  if (!ops.empty()) {
    std::vector<std::pair<uint32_t, const OpTotal*>> order;
    for (const auto& [name, o] : ops) order.push_back({name, &o});
    std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
      if (a.second->time != b.second->time) return a.second->time > b.second->time;
      return s.strings.get(a.first) < s.strings.get(b.first);
    });
    const size_t n = std::min(kTopOps, order.size());
    AnalysisRow g = blank_row();
    g.cells[kName] = AnalysisCell::of("Top " + std::to_string(n) + " device ops" +
                                      (steps.empty() ? " (whole trace)" : " (in the steps)"));
    for (int c = kStart; c < kColumns; ++c) g.cells[c] = AnalysisCell::empty("see each op");
    const auto parent = static_cast<int32_t>(t.rows.size());
    t.rows.push_back(std::move(g));
    for (size_t i = 0; i < n; ++i) {
      AnalysisRow r = blank_row();
      r.parent = parent;
      const std::string name(s.strings.get(order[i].first));
      r.cells[kName] = AnalysisCell::of(name);
      r.cells[kStart] = AnalysisCell::empty("an op runs many times");
      r.cells[kDuration] = AnalysisCell::of(as_ns(order[i].second->time));
      for (int c = kFirstPart; c < kCount; ++c) r.cells[c] = AnalysisCell::empty("for steps");
      r.cells[kCount] = AnalysisCell::of(static_cast<double>(order[i].second->count));
      r.cells[kSharePct] = AnalysisCell::of(pct(as_ns(order[i].second->time), as_ns(device_time)));
      r.link.name = name;
      r.link.tracks = order[i].second->tracks;
      std::sort(r.link.tracks.begin(), r.link.tracks.end());
      t.rows.push_back(std::move(r));
    }
  }
  return t;
}

std::vector<uint32_t> overview_part_events(const Engine& engine, uint32_t step_event,
                                           std::string_view part_key) {
  const TraceStore& s = *engine.store();
  size_t part = kStepParts;
  for (size_t p = 0; p < kStepParts; ++p)
    if (part_key == step_part_key(static_cast<StepPart>(p))) part = p;
  if (part == kStepParts) return {};
  const GpuWorkSet& w = shared_gpu_work(engine);
  for (const Step& st : shared_steps(engine)) {
    if (st.event != step_event) continue;
    std::vector<StepBreakdown> b = partition_steps(s, w, {st}, true);
    return std::move(b[0].part_events[part]);
  }
  return {};
}

}  // namespace strata
