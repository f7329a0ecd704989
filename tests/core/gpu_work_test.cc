// The GPU timeline breakdown: interval arithmetic, the kinds of GPU work, the TraceLens identity
// (compute + exposed comm + exposed memcpy + idle = span), HTA's idle split per stream, and on
// real Kineto traces the same figures from an independent sweep over the events' boundaries.
#include "core/analysis/gpu_work.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "core/analysis/intervals.h"
#include "core/store/trace_builder.h"
#include "import_test_util.h"

namespace strata {
namespace {

TEST(Intervals, MergeSubtractIntersect) {
  std::vector<Interval> a = {{5, 8}, {0, 2}, {1, 3}, {8, 9}, {12, 12}};
  merge_intervals(&a);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].begin, 0);
  EXPECT_EQ(a[0].end, 3);
  EXPECT_EQ(a[1].begin, 5);
  EXPECT_EQ(a[1].end, 9);  // touching intervals merge; the empty one is gone
  std::vector<Interval> cut = {{1, 2}, {6, 20}};
  const std::vector<Interval> left = subtract_intervals(a, cut);
  ASSERT_EQ(left.size(), 3u);
  EXPECT_EQ(total_length(left), 1 + 1 + 1);  // [0,1) [2,3) [5,6)
  EXPECT_EQ(total_length(intersect_intervals(a, cut)), 1 + 3);
  EXPECT_EQ(total_length(subtract_intervals(a, {})), 7);
  EXPECT_TRUE(subtract_intervals({}, cut).empty());
}

TEST(GpuWork, KindsByCategoryAndName) {
  EXPECT_EQ(kineto_gpu_work("kernel", "void gemm"), GpuWork::kCompute);
  EXPECT_EQ(kineto_gpu_work("kernel", "ncclKernel_AllReduce"), GpuWork::kComm);
  EXPECT_EQ(kineto_gpu_work("gpu_memset", "Memset (Device)"), GpuWork::kCompute);
  EXPECT_EQ(kineto_gpu_work("gpu_memcpy", "Memcpy HtoD"), GpuWork::kMemcpy);
  EXPECT_EQ(kineto_gpu_work("Kernel", "void gemm"), GpuWork::kCompute);  // 2021 Kineto
  EXPECT_EQ(kineto_gpu_work("Memcpy", "Memcpy DtoH"), GpuWork::kMemcpy);
  EXPECT_EQ(kineto_gpu_work("cpu_op", "aten::mm"), GpuWork::kNotGpu);
  EXPECT_EQ(kineto_gpu_work("gpu_user_annotation", "nccl:all_reduce"), GpuWork::kNotGpu);
  EXPECT_EQ(xplane_gpu_work("MemcpyD2D"), GpuWork::kMemcpy);
  EXPECT_EQ(xplane_gpu_work("copy-start.3"), GpuWork::kMemcpy);
  EXPECT_EQ(xplane_gpu_work("ncclDevKernel_AllGather"), GpuWork::kComm);
  EXPECT_EQ(xplane_gpu_work("loop_fusion"), GpuWork::kCompute);
}

// Two streams of GPU process 0, launched from CPU thread 1/1 through ac2g flows (times in ns):
//   stream 7: compute [0,100) [110,150) [300,350) [400,420)
//   stream 8: comm [120,220), memcpy [250,330)
// Stream 7's second kernel is launched at 5 (in time; gap 10 < 30: kernel wait), its third at
// 200, after the second ended at 150 (host wait 150), its fourth at 10 (gap 50: other).
std::string two_streams_json() {
  std::string j = "[";
  auto us = [](int ns) {
    return std::to_string(ns / 1000) + "." +
           std::string(3 - std::to_string(ns % 1000).size(), '0') + std::to_string(ns % 1000);
  };
  auto x = [&](int pid, int tid, int ts, int dur, const char* name, const char* cat) {
    j += std::string(j.size() > 1 ? "," : "") + "{\"ph\":\"X\",\"pid\":" + std::to_string(pid) +
         ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + us(ts) + ",\"dur\":" + us(dur) +
         ",\"name\":\"" + name + "\",\"cat\":\"" + cat + "\"}";
  };
  auto flow = [&](int id, int from_ts, int to_ts) {
    j += ",{\"ph\":\"s\",\"id\":" + std::to_string(id) +
         ",\"pid\":1,\"tid\":1,\"ts\":" + us(from_ts) + ",\"cat\":\"ac2g\",\"name\":\"f\"}";
    j += ",{\"ph\":\"f\",\"id\":" + std::to_string(id) +
         ",\"pid\":0,\"tid\":7,\"ts\":" + us(to_ts) +
         ",\"cat\":\"ac2g\",\"name\":\"f\",\"bp\":\"e\"}";
  };
  x(0, 7, 0, 100, "gemm", "kernel");
  x(0, 7, 110, 40, "gemm", "kernel");
  x(0, 7, 300, 50, "gemm", "kernel");
  x(0, 7, 400, 20, "gemm", "kernel");
  x(0, 8, 120, 100, "ncclKernel_AllReduce", "kernel");
  x(0, 8, 250, 80, "Memcpy HtoD", "gpu_memcpy");
  x(1, 1, 5, 1, "cudaLaunchKernel", "cuda_runtime");
  x(1, 1, 200, 1, "cudaLaunchKernel", "cuda_runtime");
  x(1, 1, 10, 1, "cudaLaunchKernel", "cuda_runtime");
  flow(1, 5, 110);
  flow(2, 200, 300);
  flow(3, 10, 400);
  return j + "]";
}

TEST(GpuWork, BreakdownIdentityOnTwoStreams) {
  testing::ImportResult r = testing::import_json(two_streams_json());
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  const GpuWorkSet w = find_gpu_work(s);
  ASSERT_EQ(w.devices.size(), 1u);  // the CPU process has no GPU work
  ASSERT_EQ(w.devices[0].streams.size(), 2u);
  std::vector<uint32_t> all;
  for (const GpuStream& st : w.devices[0].streams)
    all.insert(all.end(), st.events.begin(), st.events.end());
  const GpuBreakdown b = gpu_breakdown(s, w, all);
  EXPECT_EQ(b.span, 420);
  EXPECT_EQ(b.compute, 100 + 40 + 50 + 20);
  EXPECT_EQ(b.exposed_comm, 70);            // [150,220)
  EXPECT_EQ(b.exposed_memcpy, 50);          // [250,300)
  EXPECT_EQ(b.busy, 100 + 110 + 100 + 20);  // [0,100) [110,220) [250,350) [400,420)
  EXPECT_EQ(b.idle, 90);
  EXPECT_EQ(b.compute + b.exposed_comm + b.exposed_memcpy + b.idle, b.span);
  EXPECT_EQ(b.comm, 100);
  EXPECT_EQ(b.comm_overlapped, 30);  // [120,150)
  EXPECT_EQ(b.events, 6u);

  const GpuStream* s7 = nullptr;
  for (const GpuStream& st : w.devices[0].streams)
    if (s.tracks[st.track].key == "7") s7 = &st;
  ASSERT_NE(s7, nullptr);
  const std::vector<TimeNs> launch = launch_starts(s, *s7);
  ASSERT_EQ(launch.size(), 4u);
  EXPECT_EQ(launch[0], -1);
  EXPECT_EQ(launch[1], 5);
  EXPECT_EQ(launch[2], 200);
  const StreamIdle idle = stream_idle(s, *s7, launch);
  EXPECT_EQ(idle.gaps, 3u);
  EXPECT_EQ(idle.kernel_wait, 10);
  EXPECT_EQ(idle.host_wait, 150);
  EXPECT_EQ(idle.other, 50);
  EXPECT_EQ(idle.launches_known, 3u);
}

// An independent sweep over the boundaries of a device's GPU events: between two consecutive
// boundaries, whatever runs decides where the segment goes (compute first, then communication,
// then memcpy, else idle).
struct Sweep {
  TimeNs compute = 0, exposed_comm = 0, exposed_memcpy = 0, idle = 0, span = 0, comm = 0;
};
Sweep sweep(const TraceStore& s, const std::vector<std::pair<uint32_t, int>>& events) {
  std::vector<std::tuple<TimeNs, int, int>> edges;  // time, +1/-1, kind (0 comp, 1 comm, 2 mem)
  for (auto [e, kind] : events) {
    edges.emplace_back(s.events.start[e], +1, kind);
    edges.emplace_back(s.events.start[e] + s.events.dur[e], -1, kind);
  }
  std::sort(edges.begin(), edges.end());
  Sweep r;
  int active[3] = {0, 0, 0};
  for (size_t i = 0; i + 1 < edges.size(); ++i) {
    active[std::get<2>(edges[i])] += std::get<1>(edges[i]);
    const TimeNs len = std::get<0>(edges[i + 1]) - std::get<0>(edges[i]);
    if (active[0] > 0)
      r.compute += len;
    else if (active[1] > 0)
      r.exposed_comm += len;
    else if (active[2] > 0)
      r.exposed_memcpy += len;
    else
      r.idle += len;
    if (active[1] > 0) r.comm += len;
  }
  if (!edges.empty()) r.span = std::get<0>(edges.back()) - std::get<0>(edges.front());
  return r;
}

std::string lower(std::string_view v) {
  std::string o(v);
  for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

void check_real_kineto(const char* rel) {
  std::string gz, json;
  if (!testing::read_shared(rel, &gz)) GTEST_SKIP() << rel << " not in ../shared";
  ASSERT_TRUE(testing::gunzip(gz, &json));
  testing::ImportResult r = testing::import_json(json);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  // The test's own reading of the categories, per process.
  std::map<uint32_t, std::vector<std::pair<uint32_t, int>>> by_process;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    if (s.events.dur[e] <= 0 && s.events.phase[e] != 'X') continue;  // instants; 0-length X count
    const std::string cat = lower(s.strings.get(s.events.cat[e]));
    const bool nccl = s.strings.get(s.events.name[e]).find("nccl") != std::string_view::npos;
    int kind = -1;
    if (cat == "gpu_memcpy" || cat == "memcpy")
      kind = 2;
    else if (cat == "kernel" || cat == "gpu_memset" || cat == "memset")
      kind = nccl ? 1 : 0;
    if (kind >= 0) by_process[s.tracks[s.events.track[e]].process].emplace_back(e, kind);
  }
  const GpuWorkSet w = find_gpu_work(s);
  ASSERT_EQ(w.devices.size(), by_process.size()) << rel;
  ASSERT_FALSE(w.devices.empty()) << rel << " has GPU work";
  for (const GpuDevice& dev : w.devices) {
    std::vector<uint32_t> all;
    for (const GpuStream& st : dev.streams)
      all.insert(all.end(), st.events.begin(), st.events.end());
    const GpuBreakdown b = gpu_breakdown(s, w, all);
    const Sweep want = sweep(s, by_process[dev.process]);
    EXPECT_EQ(b.events, by_process[dev.process].size()) << rel;
    EXPECT_EQ(b.span, want.span) << rel;
    EXPECT_EQ(b.compute, want.compute) << rel;
    EXPECT_EQ(b.exposed_comm, want.exposed_comm) << rel;
    EXPECT_EQ(b.exposed_memcpy, want.exposed_memcpy) << rel;
    EXPECT_EQ(b.idle, want.idle) << rel;
    EXPECT_EQ(b.comm, want.comm) << rel;
    EXPECT_EQ(b.compute + b.exposed_comm + b.exposed_memcpy + b.idle, b.span) << rel;
    // HTA's idle split covers each stream's gaps exactly.
    for (const GpuStream& st : dev.streams) {
      const StreamIdle idle = stream_idle(s, st, launch_starts(s, st));
      TimeNs gaps = 0;
      for (size_t i = 1; i < st.events.size(); ++i) {
        const uint32_t p = st.events[i - 1], c = st.events[i];
        gaps += std::max<TimeNs>(0, s.events.start[c] - s.events.start[p] - s.events.dur[p]);
      }
      EXPECT_EQ(idle.host_wait + idle.kernel_wait + idle.other, gaps) << rel;
    }
  }
}

TEST(GpuWork, RealKinetoH100) {
  check_real_kineto("pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
}
TEST(GpuWork, RealKinetoMi300) {
  check_real_kineto("pytorch_kineto/tracelens/mi300/gaunernst_bert-small-uncased__1016001.json.gz");
}
TEST(GpuWork, RealKineto2021) {
  check_real_kineto(
      "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/"
      "worker0.1623143566756.pt.trace.json.gz");
}
TEST(GpuWork, RealKinetoSglangWithNccl) {
  check_real_kineto("pytorch_kineto/tracelens/sglang_decode/bs_32_rank0.json.gz");
}

// Ascend's NPU streams: HCCL's tasks are communication, MEMCPY tasks memcpy, ops compute.
TEST(GpuWork, AscendNpuTasks) {
  EXPECT_EQ(ascend_npu_work("hcom_allReduce__586_0_1"), GpuWork::kComm);
  EXPECT_EQ(ascend_npu_work("Notify Wait"), GpuWork::kComm);
  EXPECT_EQ(ascend_npu_work("SDMA"), GpuWork::kComm);
  EXPECT_EQ(ascend_npu_work("MEMCPY_ASYNC"), GpuWork::kMemcpy);
  EXPECT_EQ(ascend_npu_work("aclnnMm_MatMulCommon_MatMulV2"), GpuWork::kCompute);
  EXPECT_TRUE(is_ascend_hardware_process("Ascend Hardware"));
  EXPECT_FALSE(is_ascend_hardware_process("HCCL"));
}

}  // namespace
}  // namespace strata
