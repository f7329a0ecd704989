// HTA's queue length per stream: a hand-made stream, then a real Kineto trace checked against
// a direct count (at each change, the events whose launch began and which have not ended).
#include "core/analysis/queue_length.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "import_test_util.h"

namespace strata {
namespace {

// Three kernels on stream 7, launched at 0, 1 and 2 µs; they run [5,10), [10,20), [20,21).
constexpr const char* kTrace = R"([
  {"ph":"X","pid":1,"tid":1,"ts":0,"dur":1,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":1,"tid":1,"ts":2,"dur":1,"name":"cudaLaunchKernel","cat":"cuda_runtime"},
  {"ph":"X","pid":0,"tid":7,"ts":5,"dur":5,"name":"k1","cat":"kernel"},
  {"ph":"X","pid":0,"tid":7,"ts":10,"dur":10,"name":"k2","cat":"kernel"},
  {"ph":"X","pid":0,"tid":7,"ts":20,"dur":1,"name":"k3","cat":"kernel"},
  {"ph":"s","id":1,"pid":1,"tid":1,"ts":0.5,"cat":"ac2g","name":"f"},
  {"ph":"f","id":1,"pid":0,"tid":7,"ts":5,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":2,"pid":1,"tid":1,"ts":1.5,"cat":"ac2g","name":"f"},
  {"ph":"f","id":2,"pid":0,"tid":7,"ts":10,"cat":"ac2g","name":"f","bp":"e"},
  {"ph":"s","id":3,"pid":1,"tid":1,"ts":2.5,"cat":"ac2g","name":"f"},
  {"ph":"f","id":3,"pid":0,"tid":7,"ts":20,"cat":"ac2g","name":"f","bp":"e"}
])";

TEST(QueueLength, HandMadeStream) {
  testing::ImportResult r = testing::import_json(kTrace);
  ASSERT_FALSE(r.failed) << r.failure;
  const GpuWorkSet w = find_gpu_work(*r.store);
  ASSERT_EQ(w.devices.size(), 1u);
  uint64_t launches = 0;
  const std::vector<QueueSample> q =
      stream_queue_length(*r.store, w.devices[0].streams[0], &launches);
  EXPECT_EQ(launches, 3u);
  // 1 at 0, 2 at 1, 3 at 2 µs; 2 at 10, 1 at 20, 0 at 21.
  ASSERT_EQ(q.size(), 6u);
  EXPECT_EQ(q[2].t, 2'000);
  EXPECT_EQ(q[2].length, 3);
  EXPECT_EQ(q[3].t, 10'000);
  EXPECT_EQ(q[3].length, 2);  // k1 ends as k2 starts: k2 stays queued, k1 leaves
  EXPECT_EQ(q.back().length, 0);
  const QueueSummary s = summarize_queue(q, launches);
  EXPECT_EQ(s.max, 3);
  EXPECT_EQ(s.max_at, 2'000);
  // Area: 1·1 + 2·1 + 3·8 + 2·10 + 1·1 = 48 µs·events over 21 µs.
  EXPECT_NEAR(s.mean, 48.0 / 21.0, 1e-9);
  EXPECT_EQ(s.at_stall, 0);
}

// A real trace: the step function equals, just after each of its changes, a direct count.
TEST(QueueLength, RealKinetoMatchesDirectCount) {
  std::string gz, json;
  if (!testing::read_shared(
          "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz", &gz))
    GTEST_SKIP();
  ASSERT_TRUE(testing::gunzip(gz, &json));
  testing::ImportResult r = testing::import_json(json);
  const TraceStore& s = *r.store;
  const GpuWorkSet w = find_gpu_work(s);
  size_t checked = 0;
  for (const GpuDevice& d : w.devices)
    for (const GpuStream& st : d.streams) {
      struct Span {
        TimeNs a, z;
      };
      std::vector<Span> spans;
      for (uint32_t e : st.events) {
        const uint32_t from = launching_event(s, e);
        if (from == kNone) continue;
        const TimeNs z = s.events.start[e] + s.events.dur[e];
        spans.push_back({std::min(s.events.start[from], z), z});
      }
      uint64_t launches = 0;
      const std::vector<QueueSample> q = stream_queue_length(s, st, &launches);
      EXPECT_EQ(launches, spans.size());
      for (const QueueSample& x : q) {
        int64_t n = 0;
        for (const Span& sp : spans) n += sp.a <= x.t && x.t < sp.z;
        EXPECT_EQ(x.length, n) << "at " << x.t;
        ++checked;
      }
      if (!q.empty()) {
        EXPECT_EQ(q.back().length, 0);
      }
    }
  EXPECT_GT(checked, 10u);
}

// The derived counter track: one per stream with linked launches, right after the stream in
// its process, its samples the queue length's, counted apart from the file's counters.
TEST(QueueLength, CounterTrackPerStream) {
  testing::ImportResult r = testing::import_json(kTrace);
  ASSERT_FALSE(r.failed) << r.failure;
  TraceStore& s = *r.store;
  const GpuWorkSet w = find_gpu_work(s);
  const std::vector<QueueSample> q = stream_queue_length(s, w.devices[0].streams[0]);
  const uint32_t stream = w.devices[0].streams[0].track;
  const size_t tracks = s.tracks.size(), series = s.series.size(), samples = s.samples.size();
  EXPECT_EQ(add_queue_length_tracks(&s), 1u);
  ASSERT_EQ(s.tracks.size(), tracks + 1);
  EXPECT_EQ(derived_counter_samples(s), q.size());
  const Track& t = s.tracks.back();
  EXPECT_TRUE(is_derived_track(t));
  EXPECT_FALSE(is_derived_track(s.tracks[stream]));
  EXPECT_EQ(t.kind, TrackKind::kCounter);
  EXPECT_EQ(s.strings.get(t.name).substr(0, 14), "Queue length (");
  EXPECT_EQ(t.process, s.tracks[stream].process);
  const std::vector<uint32_t>& order = s.processes[t.process].tracks;
  auto at = std::find(order.begin(), order.end(), stream);
  ASSERT_NE(at, order.end());
  ASSERT_NE(at + 1, order.end());
  EXPECT_EQ(*(at + 1), tracks);
  ASSERT_EQ(s.series.size(), series + 1);
  ASSERT_EQ(t.first_series, series);
  const CounterSeries& cs = s.series.back();
  EXPECT_EQ(cs.first_sample, samples);
  ASSERT_EQ(cs.sample_count, q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    EXPECT_EQ(s.samples.ts[samples + i], q[i].t);
    EXPECT_EQ(s.samples.value[samples + i], static_cast<double>(q[i].length));
  }
  // The GPU work is what it was: the counter track holds no events.
  const GpuWorkSet after = find_gpu_work(s);
  ASSERT_EQ(after.devices.size(), 1u);
  EXPECT_EQ(after.devices[0].streams.size(), w.devices[0].streams.size());
}

}  // namespace
}  // namespace strata
