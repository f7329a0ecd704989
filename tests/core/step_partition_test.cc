// The step-time partition (XProf's overlap priority): hand-made windows, then real Kineto traces
// and a real GPU xplane checked against an independent computation written here (types taken
// from the highest priority down, each keeping what the higher ones left, by interval
// subtraction), and the overview analysis built from it.
#include "core/analysis/step_partition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/analysis/intervals.h"
#include "core/formats/xplane/xplane_tables.h"
#include "engine/analysis/overview.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "real_trace_fixtures.h"

namespace strata {
namespace {

TimeNs part(const StepParts& p, StepPart which) { return p[static_cast<size_t>(which)]; }

TimeNs sum(const StepParts& p) {
  TimeNs t = 0;
  for (TimeNs v : p) t += v;
  return t;
}

TEST(StepPartition, HigherPriorityOwnsTheOverlap) {
  // [0, 100): host compute [0, 60), a launch [10, 20), a kernel [15, 40), a DtoH copy
  // [35, 50), an input wait [70, 80); nothing in [60, 70) and [80, 100).
  const StepParts p =
      partition_window(0, 100,
                       {{0, 60, StepEventType::kHostCompute},
                        {10, 20, StepEventType::kHostPrepare},
                        {15, 40, StepEventType::kDeviceCompute},
                        {35, 50, StepEventType::kDeviceToHost},
                        {70, 80, StepEventType::kHostWaitInput},
                        {-50, 5, StepEventType::kDeviceCollectives}});  // clipped to the window
  EXPECT_EQ(part(p, StepPart::kCollectives), 5);
  EXPECT_EQ(part(p, StepPart::kHostCompute), 5 + 10);  // [5,10) and [50,60)
  EXPECT_EQ(part(p, StepPart::kKernelLaunch), 5);      // [10,15)
  EXPECT_EQ(part(p, StepPart::kDeviceCompute), 25);    // [15,40): compute outranks DtoH
  EXPECT_EQ(part(p, StepPart::kDeviceToHost), 10);     // [40,50)
  EXPECT_EQ(part(p, StepPart::kInputWait), 10);
  EXPECT_EQ(part(p, StepPart::kIdle), 30);
  EXPECT_EQ(sum(p), 100);
  EXPECT_EQ(sum(partition_window(5, 5, {{0, 10, StepEventType::kHostCompute}})), 0);
}

TEST(StepPartition, Classification) {
  EXPECT_EQ(classify_host_event("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                                "user_annotation", false),
            StepEventType::kHostWaitInput);
  EXPECT_EQ(classify_host_event("cudaLaunchKernel", "cuda_runtime", true),
            StepEventType::kHostPrepare);
  EXPECT_EQ(classify_host_event("cudaStreamSynchronize", "cuda_runtime", false),
            StepEventType::kHostCompute);
  EXPECT_EQ(classify_host_event("XlaCompile", "", false), StepEventType::kHostCompile);
  EXPECT_EQ(classify_host_event("Torch-Compiled Region", "", false), StepEventType::kHostCompute);
  EXPECT_EQ(classify_host_event("Activity Buffer Request", "overhead", false),
            StepEventType::kUnknown);
  EXPECT_EQ(classify_device_event(GpuWork::kMemcpy, "Memcpy HtoD (Pageable -> Device)"),
            StepEventType::kHostToDevice);
  EXPECT_EQ(classify_device_event(GpuWork::kMemcpy, "Memcpy DtoH (Device -> Pinned)"),
            StepEventType::kDeviceToHost);
  EXPECT_EQ(classify_device_event(GpuWork::kMemcpy, "Memcpy DtoD (Device -> Device)"),
            StepEventType::kDeviceToDevice);
  EXPECT_EQ(classify_device_event(GpuWork::kComm, "ncclKernel_AllReduce"),
            StepEventType::kDeviceCollectives);
  EXPECT_EQ(step_part_of(StepEventType::kHostToHost), StepPart::kOther);
}

// ---- the independent computation -------------------------------------------------------------

struct Span {
  TimeNs a, z;
  StepEventType type;
  uint32_t event = kNone;
};

// Types from the highest priority down: each gets what its union leaves of the time the
// higher ones took; idle is what none took.
StepParts by_subtraction(TimeNs a, TimeNs z, const std::vector<Span>& spans) {
  std::map<int, std::vector<Interval>, std::greater<int>> by_type;
  for (const Span& s : spans) {
    const TimeNs x = std::max(a, s.a), y = std::min(z, s.z);
    if (y > x) by_type[static_cast<int>(s.type)].push_back({x, y});
  }
  StepParts out{};
  std::vector<Interval> taken;
  for (auto& [type, list] : by_type) {
    merge_intervals(&list);
    out[static_cast<size_t>(step_part_of(static_cast<StepEventType>(type)))] +=
        total_length(subtract_intervals(list, taken));
    taken.insert(taken.end(), list.begin(), list.end());
    merge_intervals(&taken);
  }
  out[static_cast<size_t>(StepPart::kIdle)] = (z - a) - total_length(taken);
  return out;
}

bool skipped(const TraceStore& s, uint32_t e) {
  const std::string_view n = s.strings.get(s.events.name[e]);
  const std::string_view c = s.strings.get(s.events.cat[e]);
  return n.substr(0, 13) == "ProfilerStep#" || c == "python_function" || c == "Trace";
}

// Kineto: host events of the step's process, typed here; launches found from the flows; GPU
// work of the devices that process launches on.
struct KinetoSpans {
  std::vector<uint8_t> launches;
  std::map<uint32_t, std::vector<uint32_t>> devices_of;  // host process → GPU processes
  KinetoSpans(const TraceStore& s, const GpuWorkSet& w) : launches(s.events.size(), 0) {
    for (size_t f = 0; f < s.flows.size(); ++f) {
      const uint32_t from = s.flows.from[f], to = s.flows.to[f];
      const uint32_t pf = s.tracks[s.events.track[from]].process;
      const uint32_t pt = s.tracks[s.events.track[to]].process;
      if (pf == pt || w.work_of[to] == GpuWork::kNotGpu) continue;
      launches[from] = 1;
      devices_of[pf].push_back(pt);
    }
  }
  std::vector<Span> of(const TraceStore& s, const GpuWorkSet& w, const Step& st) {
    const uint32_t process = s.tracks[s.events.track[st.event]].process;
    std::vector<Span> spans;
    for (uint32_t t : s.processes[process].tracks) {
      if (s.tracks[t].kind != TrackKind::kThread) continue;
      for (uint32_t e = s.tracks[t].first_event;
           e < s.tracks[t].first_event + s.tracks[t].event_count; ++e)
        if (s.events.dur[e] > 0 && !skipped(s, e))
          spans.push_back({s.events.start[e], s.events.start[e] + s.events.dur[e],
                           launches[e] ? StepEventType::kHostPrepare
                                       : classify_host_event(s.strings.get(s.events.name[e]),
                                                             s.strings.get(s.events.cat[e]), false),
                           e});
    }
    const std::vector<uint32_t>& devs = devices_of[process];
    for (const GpuDevice& d : w.devices) {
      if (!devs.empty() && std::find(devs.begin(), devs.end(), d.process) == devs.end()) continue;
      for (const GpuStream& gs : d.streams)
        for (uint32_t e : gs.events)
          spans.push_back({s.events.start[e], s.events.start[e] + s.events.dur[e],
                           classify_device_event(w.work_of[e], s.strings.get(s.events.name[e])),
                           e});
    }
    return spans;
  }
};

void expect_kineto_partition(const TraceStore& s) {
  const GpuWorkSet w = find_gpu_work(s);
  const std::vector<Step> steps = find_steps(s, w);
  ASSERT_FALSE(steps.empty());
  const std::vector<StepBreakdown> got = partition_steps(s, w, steps);
  ASSERT_EQ(got.size(), steps.size());
  KinetoSpans spans_of(s, w);
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& st = steps[k];
    const StepParts want = by_subtraction(st.start, st.end, spans_of.of(s, w, st));
    EXPECT_EQ(sum(got[k].parts), st.end - st.start) << "step " << k;
    for (size_t p = 0; p < kStepParts; ++p)
      EXPECT_EQ(got[k].parts[p], want[p])
          << "step " << k << " part " << step_part_key(static_cast<StepPart>(p));
  }
}

TEST(StepPartition, RealKinetoResnetMatchesIndependentIntervals) {
  testing::ImportResult r;
  if (!testing::import_shared_gz(testing::kResnetKineto, &r)) GTEST_SKIP();
  expect_kineto_partition(*r.store);
  // The data loader shows as input wait in some step.
  const TraceStore& s = *r.store;
  const GpuWorkSet w = find_gpu_work(s);
  const std::vector<StepBreakdown> b = partition_steps(s, w, find_steps(s, w));
  TimeNs input = 0, compute = 0;
  for (const StepBreakdown& x : b) {
    input += part(x.parts, StepPart::kInputWait);
    compute += part(x.parts, StepPart::kDeviceCompute);
  }
  EXPECT_GT(input, 0);
  EXPECT_GT(compute, 0);
}

TEST(StepPartition, RealKinetoH100MatchesIndependentIntervals) {
  testing::ImportResult r;
  if (!testing::import_shared_gz(testing::kBertH100Kineto, &r)) GTEST_SKIP();
  expect_kineto_partition(*r.store);
}

TEST(StepPartition, RealKinetoAmdMatchesIndependentIntervals) {
  testing::ImportResult r;
  if (!testing::import_shared_gz(
          "pytorch_kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", &r))
    GTEST_SKIP();
  const GpuWorkSet w = find_gpu_work(*r.store);
  if (find_steps(*r.store, w).empty()) GTEST_SKIP() << "no steps in this trace";
  expect_kineto_partition(*r.store);
}

// A real GPU xplane: device Steps rows; the device's streams and every host thread.
TEST(StepPartition, RealXplaneMatchesIndependentIntervals) {
  std::string bytes;
  if (!testing::read_shared(testing::kTfGpuXplane, &bytes)) GTEST_SKIP();
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "x.xplane.pb", bytes));
  const TraceStore& s = *e.store();
  const GpuWorkSet w = find_gpu_work(s);
  const std::vector<Step> steps = find_steps(s, w);
  ASSERT_GE(steps.size(), 2u);
  const std::vector<StepBreakdown> got = partition_steps(s, w, steps);
  std::vector<uint8_t> launches(s.events.size(), 0), gpu(s.processes.size(), 0);
  for (const GpuDevice& d : w.devices) gpu[d.process] = 1;
  for (size_t f = 0; f < s.flows.size(); ++f)
    if (w.work_of[s.flows.to[f]] != GpuWork::kNotGpu &&
        s.tracks[s.events.track[s.flows.from[f]]].process !=
            s.tracks[s.events.track[s.flows.to[f]]].process)
      launches[s.flows.from[f]] = 1;
  // Host threads: the /host: planes but metadata.
  std::vector<uint32_t> host_tracks;
  for (uint32_t p = 0; p < s.processes.size(); ++p) {
    const uint32_t plane = s.xspace->plane_of_process[p];
    if (gpu[p] || plane == kNone) continue;
    const std::string& n = s.xspace->planes[plane].name;
    if (n.rfind("/host:", 0) != 0 || n == "/host:metadata") continue;
    for (uint32_t t : s.processes[p].tracks)
      if (s.tracks[t].kind == TrackKind::kThread) host_tracks.push_back(t);
  }
  size_t with_host = 0;
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& st = steps[k];
    ASSERT_TRUE(st.on_device);
    std::vector<Span> spans;
    for (uint32_t t : host_tracks)
      for (uint32_t ev = s.tracks[t].first_event;
           ev < s.tracks[t].first_event + s.tracks[t].event_count; ++ev)
        if (s.events.dur[ev] > 0 && !skipped(s, ev))
          spans.push_back({s.events.start[ev], s.events.start[ev] + s.events.dur[ev],
                           launches[ev]
                               ? StepEventType::kHostPrepare
                               : classify_host_event(s.strings.get(s.events.name[ev]),
                                                     s.strings.get(s.events.cat[ev]), false)});
    const uint32_t process = s.tracks[s.events.track[st.event]].process;
    for (const GpuDevice& d : w.devices) {
      if (d.process != process) continue;
      for (const GpuStream& gs : d.streams)
        for (uint32_t ev : gs.events)
          spans.push_back({s.events.start[ev], s.events.start[ev] + s.events.dur[ev],
                           classify_device_event(w.work_of[ev], s.strings.get(s.events.name[ev]))});
    }
    const StepParts want = by_subtraction(st.start, st.end, spans);
    EXPECT_EQ(sum(got[k].parts), st.end - st.start) << "step " << k;
    for (size_t p = 0; p < kStepParts; ++p)
      EXPECT_EQ(got[k].parts[p], want[p])
          << "step " << k << " part " << step_part_key(static_cast<StepPart>(p));
    EXPECT_GT(part(got[k].parts, StepPart::kDeviceCompute), 0) << "step " << k;
    with_host += got[k].host_events > 0;
  }
  EXPECT_GT(with_host, 0u);
}

// The analysis: a group row, its steps (each summing to its duration), verdict lines.
TEST(Overview, KinetoTableAndVerdicts) {
  std::string json;
  if (!testing::read_shared_gz(testing::kResnetKineto, &json)) GTEST_SKIP();
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "w.pt.trace.json", json));
  const std::string t = e.query_json("analysis", R"({"name":"overview"})");
  EXPECT_NE(t.find("steps, mean)"), std::string::npos) << t.substr(0, 2000);
  EXPECT_NE(t.find("input-bound"), std::string::npos) << t.substr(0, 2000);
  EXPECT_NE(t.find("Duty cycle"), std::string::npos);
  EXPECT_NE(t.find("Top 10 device ops (in the steps)"), std::string::npos);
  EXPECT_NE(t.find(R"("key":"device_compute")"), std::string::npos);
  EXPECT_NE(e.query_json("analysis", "{}").find(R"({"name":"overview","title":"Overview")"),
            std::string::npos);
}

// A CPU-only trace with steps: the host parts, and a sentence for the device ones.
TEST(Overview, WithoutGpuWork) {
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "t.json", R"([
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":100,"name":"ProfilerStep#1","cat":"user_annotation"},
    {"ph":"X","pid":1,"tid":1,"ts":0,"dur":30,"name":"enumerate(DataLoader)#x.__next__","cat":"user_annotation"},
    {"ph":"X","pid":1,"tid":1,"ts":40,"dur":50,"name":"aten::mm","cat":"cpu_op"}])"));
  const std::string t = e.query_json("analysis", R"({"name":"overview"})");
  EXPECT_NE(t.find("No GPU work in this trace"), std::string::npos) << t;
  EXPECT_NE(t.find("Highly input-bound: 30.0 %"), std::string::npos) << t;
  // ProfilerStep#1: input wait 30 µs, host compute 50 µs, idle 20 µs.
  EXPECT_NE(
      t.find(
          R"("cells":["ProfilerStep#1",0,100000,null,null,0,null,null,30000,0,50000,0,0,20000,30)"),
      std::string::npos)
      << t;
}

// An Ascend trace_view.json: its ProfilerStep#N on the Python process is a step, split by the
// host events and the NPU's streams.
TEST(Overview, RealAscendTraceStep) {
  std::string json;
  if (!testing::read_shared(
          "ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
          &json))
    GTEST_SKIP();
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "trace_view.json", json));
  const TraceStore& s = *e.store();
  const GpuWorkSet w = find_gpu_work(s);
  const std::vector<Step> steps = find_steps(s, w);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(testing::name_of(s, s.events.name[steps[0].event]), "ProfilerStep#50");
  EXPECT_NEAR(static_cast<double>(steps[0].end - steps[0].start), 155985.8 * 1000, 1000);
  const std::vector<StepBreakdown> b = partition_steps(s, w, steps);
  EXPECT_EQ(sum(b[0].parts), steps[0].end - steps[0].start);
  EXPECT_GT(part(b[0].parts, StepPart::kHostCompute), 0);
  // The NPU's "Ascend Hardware" streams are its device work, launched through torch_to_npu.
  ASSERT_FALSE(w.devices.empty());
  EXPECT_GT(steps[0].device_events, 0u);
  EXPECT_GT(part(b[0].parts, StepPart::kDeviceCompute), 0);
  EXPECT_GT(part(b[0].parts, StepPart::kCollectives), 0);
  EXPECT_NE(e.query_json("analysis", R"({"name":"steps"})").find("ProfilerStep#50"),
            std::string::npos);
}

TEST(Overview, WithoutStepsOrGpuWorkIsUnavailable) {
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "t.json",
                                  R"([{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5,"name":"a"}])"));
  EXPECT_NE(e.query_json("analysis", "{}")
                .find(R"("name":"overview","title":"Overview","available":false)"),
            std::string::npos);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(StepPartition, PartEventsAreThoseOwningTheirPartsTime) {
  StepPartEvents ev;
  // [0, 100): a kernel [10, 50) (event 1), host compute [0, 60) (2) and [20, 30) (3, hidden
  // under the kernel), a launch [55, 58) (4), a DtoH copy [15, 45) (5, hidden), one outside.
  const StepParts p = partition_window(0, 100,
                                       {{10, 50, StepEventType::kDeviceCompute, 1},
                                        {0, 60, StepEventType::kHostCompute, 2},
                                        {20, 30, StepEventType::kHostCompute, 3},
                                        {55, 58, StepEventType::kHostPrepare, 4},
                                        {15, 45, StepEventType::kDeviceToHost, 5},
                                        {200, 300, StepEventType::kDeviceCompute, 6}},
                                       &ev);
  auto of = [&](StepPart q) { return ev[static_cast<size_t>(q)]; };
  EXPECT_EQ(of(StepPart::kDeviceCompute), std::vector<uint32_t>{1});
  EXPECT_EQ(of(StepPart::kHostCompute), std::vector<uint32_t>{2});
  EXPECT_EQ(of(StepPart::kKernelLaunch), std::vector<uint32_t>{4});
  EXPECT_TRUE(of(StepPart::kDeviceToHost).empty());
  EXPECT_TRUE(of(StepPart::kIdle).empty());
  EXPECT_EQ(part(p, StepPart::kHostCompute), 10 + 5 + 2);  // [0,10), [50,55), [58,60)
}

// Every part cell of a real trace's steps links the events behind its figure: with the part's
// other events left out, the independent computation still gives the cell's figure, and each
// linked event keeps some time against the higher-priority work alone.
TEST(Overview, PartCellsLinkTheEventsBehindTheirFigure) {
  std::string json;
  if (!testing::read_shared_gz(testing::kResnetKineto, &json)) GTEST_SKIP();
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "w.pt.trace.json", json));
  const TraceStore& s = *e.store();
  const GpuWorkSet w = find_gpu_work(s);
  const std::vector<Step> steps = find_steps(s, w);
  ASSERT_FALSE(steps.empty());
  const std::vector<StepBreakdown> got = partition_steps(s, w, steps);
  KinetoSpans spans_of(s, w);
  size_t linked_parts = 0;
  for (size_t k = 0; k < steps.size(); ++k) {
    const std::vector<Span> spans = spans_of.of(s, w, steps[k]);
    for (size_t p = 0; p < kStepParts; ++p) {
      const auto which = static_cast<StepPart>(p);
      const std::vector<uint32_t> linked =
          overview_part_events(e, steps[k].event, step_part_key(which));
      if (which == StepPart::kIdle) {
        EXPECT_TRUE(linked.empty());
        continue;
      }
      EXPECT_EQ(linked.empty(), got[k].parts[p] == 0)
          << "step " << k << " " << step_part_key(which);
      if (linked.empty()) continue;
      ++linked_parts;
      std::vector<Span> kept;
      for (const Span& sp : spans)
        if (step_part_of(sp.type) != which ||
            std::binary_search(linked.begin(), linked.end(), sp.event))
          kept.push_back(sp);
      EXPECT_EQ(by_subtraction(steps[k].start, steps[k].end, kept)[p], got[k].parts[p])
          << "step " << k << " " << step_part_key(which);
      // The first linked events each own time against the higher-priority spans.
      for (size_t i = 0; i < linked.size() && i < 8; ++i) {
        const auto own = std::find_if(spans.begin(), spans.end(),
                                      [&](const Span& x) { return x.event == linked[i]; });
        ASSERT_NE(own, spans.end()) << "step " << k << " event " << linked[i];
        const int own_type = static_cast<int>(own->type);
        std::vector<Span> alone;
        for (const Span& sp : spans)
          if (sp.event == linked[i] || static_cast<int>(sp.type) > own_type) alone.push_back(sp);
        EXPECT_GT(by_subtraction(steps[k].start, steps[k].end, alone)[p], 0)
            << "step " << k << " " << step_part_key(which) << " event " << linked[i];
      }
    }
  }
  EXPECT_GT(linked_parts, steps.size());
  // The table names each step's part cells; the select query's part mode answers their events.
  const std::string t = e.query_json("analysis", R"({"name":"overview"})");
  EXPECT_NE(t.find(R"("cellLinks":{"device_compute":{)"), std::string::npos);
  const std::vector<uint32_t> compute =
      overview_part_events(e, steps[0].event, step_part_key(StepPart::kDeviceCompute));
  const std::string sel = e.query_json(
      "select", R"({"step":)" + std::to_string(steps[0].event) + R"(,"part":"device_compute"})");
  EXPECT_EQ(sel.rfind(R"({"count":)" + std::to_string(compute.size()) + ",", 0), 0u)
      << sel.substr(0, 200);
}

}  // namespace
}  // namespace strata
