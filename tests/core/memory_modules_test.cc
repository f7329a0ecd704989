// The Memory tab ⇄ Memory Viewer link: which XLA program run an instant of device memory
// belongs to (memory_live's module) and a module's runs with their memory (memory_module).
// Unit cases for the allocator → device mapping, the run windows and the window peak; on the
// real JAX xplanes, the run of each allocator's peak is checked against the file read here
// independently with the protoc-generated classes: the first kernel on the allocator's device
// that has not ended by the peak names the module (hlo_module stat) and its program, and the
// kernels of that program just before it start the run.
#include "engine/memory_modules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

#include "core/formats/json/json_flat.h"
#include "core/memory/memory_query.h"
#include "engine/graph_session.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

TEST(MemoryModules, AllocatorNamesGiveTheirDevicePlane) {
  EXPECT_EQ(memory_device_plane("GPU_0_bfc"), "/device:GPU:0");
  EXPECT_EQ(memory_device_plane("GPU_12_bfc"), "/device:GPU:12");
  EXPECT_EQ(memory_device_plane("TPU_3"), "/device:TPU:3");
  EXPECT_EQ(memory_device_plane("/device:GPU:2"), "/device:GPU:2");
  // Host allocators, Kineto's and Ascend's device names: no XLA device plane.
  EXPECT_EQ(memory_device_plane("xla_gpu_host_bfc"), "");
  EXPECT_EQ(memory_device_plane("GPU 0"), "");
  EXPECT_EQ(memory_device_plane("NPU:0"), "");
  EXPECT_EQ(memory_device_plane("GPU_x_bfc"), "");
  EXPECT_EQ(memory_device_plane("_0"), "");
}

TEST(MemoryModules, AnInstantBelongsToTheRunItIsInOrTheNextOne) {
  std::vector<XlaModuleRun> runs(3);
  runs[0].start = 100, runs[0].end = 200, runs[0].window_start = 0;
  runs[1].start = 300, runs[1].end = 400, runs[1].window_start = 200;
  runs[2].start = 400, runs[2].end = 450, runs[2].window_start = 400;
  bool during = false;
  EXPECT_EQ(xla_run_at(runs, 150, &during), &runs[0]);
  EXPECT_TRUE(during);
  EXPECT_EQ(xla_run_at(runs, 50, &during), &runs[0]);  // before the first: allocated for it
  EXPECT_FALSE(during);
  EXPECT_EQ(xla_run_at(runs, 250, &during), &runs[1]);  // in the gap: the next run's buffers
  EXPECT_FALSE(during);
  EXPECT_EQ(xla_run_at(runs, 200, &during), &runs[0]);  // its last instant
  EXPECT_TRUE(during);
  EXPECT_EQ(xla_run_at(runs, 420, &during), &runs[2]);
  EXPECT_TRUE(during);
  EXPECT_EQ(xla_run_at(runs, 451, &during), nullptr);  // after the last run
  EXPECT_EQ(xla_run_at({}, 1, &during), nullptr);
}

TEST(MemoryModules, WindowPeakCountsTheSampleInEffectAtItsStart) {
  MemorySeries s;
  s.add(10, 5, NAN);
  s.add(20, 9, NAN);
  s.add(30, 2, NAN);
  s.add(40, 7, NAN);
  double bytes = 0;
  TimeNs at = 0;
  ASSERT_TRUE(memory_window_peak(s, 25, 45, &bytes, &at));
  EXPECT_EQ(bytes, 9);  // set at 20, still held at 25
  EXPECT_EQ(at, 25);
  ASSERT_TRUE(memory_window_peak(s, 30, 45, &bytes, &at));
  EXPECT_EQ(bytes, 7);
  EXPECT_EQ(at, 40);
  ASSERT_TRUE(memory_window_peak(s, 0, 15, &bytes, &at));
  EXPECT_EQ(bytes, 5);
  EXPECT_EQ(at, 10);
  EXPECT_FALSE(memory_window_peak(MemorySeries{}, 0, 100, &bytes, &at));
  MemorySeries reserved_only;
  reserved_only.add(10, NAN, 3);
  reserved_only.add(20, NAN, 4);
  ASSERT_TRUE(memory_window_peak(reserved_only, 0, 100, &bytes, &at));
  EXPECT_EQ(bytes, 4);
}

// ---- the real files --------------------------------------------------------------------

struct Kernel {
  int64_t start = 0, end = 0;  // ns, as the store times them
  std::string module;
  std::string program;
};

std::string stat_text(const pb::XPlane& p, const pb::XStat& st) {
  if (st.has_str_value()) return st.str_value();
  if (st.has_ref_value()) {
    auto it = p.stat_metadata().find(static_cast<int64_t>(st.ref_value()));
    return it == p.stat_metadata().end() ? std::string() : it->second.name();
  }
  if (st.has_int64_value()) return std::to_string(st.int64_value());
  if (st.has_uint64_value()) return std::to_string(st.uint64_value());
  return {};
}

// Per device plane, its events carrying an hlo_module stat (on the event or its metadata).
std::map<std::string, std::vector<Kernel>> kernels(const pb::XSpace& space) {
  std::map<std::string, std::vector<Kernel>> out;
  for (const pb::XPlane& p : space.planes()) {
    if (p.name().rfind("/device:", 0) != 0) continue;
    for (const pb::XLine& l : p.lines())
      for (const pb::XEvent& e : l.events()) {
        Kernel k;
        auto read = [&](const pb::XStat& st) {
          auto sm = p.stat_metadata().find(st.metadata_id());
          if (sm == p.stat_metadata().end()) return;
          if (sm->second.name() == "hlo_module") k.module = stat_text(p, st);
          if (sm->second.name() == "program_id") k.program = stat_text(p, st);
        };
        auto md = p.event_metadata().find(e.metadata_id());
        if (md != p.event_metadata().end())
          for (const pb::XStat& st : md->second.stats()) read(st);
        for (const pb::XStat& st : e.stats()) read(st);
        if (k.module.empty()) continue;
        const int64_t ps = l.timestamp_ns() * 1000 + e.offset_ps();
        k.start = (ps + 500) / 1000;
        k.end = (ps + e.duration_ps() + 500) / 1000;
        out[p.name()].push_back(k);
      }
  }
  for (auto& [plane, list] : out)
    std::sort(list.begin(), list.end(),
              [](const Kernel& a, const Kernel& b) { return a.start < b.start; });
  return out;
}

// A JSON reply's value at a dotted path of object keys ("module.programId").
std::string value_at(const std::string& json, const std::string& path) {
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(json, &lines, &err)) return "?";
  std::string found = "<absent>";
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    std::string p;
    for (size_t i = 0; i <= l.depth && i < k.size(); ++i) p += (i ? "." : "") + k[i];
    if (p == path) found = l.value;
  });
  return found;
}

void load_all(Engine* e, const std::string& bytes) {
  ASSERT_TRUE(engine_load(e, bytes));
  if (e->memory_scan_begin() > 0) {
    for (size_t off = 0; off < bytes.size(); off += 65536) {
      const size_t n = std::min<size_t>(65536, bytes.size() - off);
      std::memcpy(e->load_buffer(n), bytes.data() + off, n);
      if (e->memory_scan_feed(e->load_buffer(n), n)) break;
    }
    e->memory_scan_end();
  }
  GraphSession& g = e->graph_session();
  ASSERT_GT(g.hlo_stream_begin(0), 0u);
  bool done = false;
  for (size_t at = 0; at < bytes.size() && !done; at += 65536) {
    const size_t n = std::min<size_t>(65536, bytes.size() - at);
    std::memcpy(g.buffer(n), bytes.data() + at, n);
    done = g.hlo_stream_commit(n);
  }
  g.hlo_stream_end(true);
}

TEST(MemoryModules, RealXplanesThePeakOfEachAllocatorFallsInTheRunOfItsDevice) {
  int tested = 0;
  for (const char* f : kWithHlo) {
    std::string bytes;
    if (!read_shared(f, &bytes)) continue;
    pb::XSpace space;
    ASSERT_TRUE(space.ParseFromString(bytes));
    const auto by_plane = kernels(space);
    Engine e;
    load_all(&e, bytes);
    const MemoryData& m = e.memory();
    const TimeNs origin = e.store()->start_ns;
    const GraphSession& g = e.graph_session();
    for (const std::string& device : memory_devices(m)) {
      const std::string plane = memory_device_plane(device);
      auto ks = by_plane.find(plane);
      if (plane.empty() || ks == by_plane.end()) continue;
      const MemoryPeak peak = series_peak(m.series[memory_primary_series(m, device)], false);
      ASSERT_TRUE(peak.valid);
      // Independently: the first kernel not ended by the peak is of the run it falls in.
      auto k = std::find_if(ks->second.begin(), ks->second.end(),
                            [&](const Kernel& x) { return x.end >= peak.ts; });
      const std::string args = "{\"device\":\"" + device +
                               "\",\"t\":" + std::to_string(peak.ts - origin) + ",\"limit\":1}";
      const std::string live = e.memory_query_json("memory_live", args);
      if (k == ks->second.end()) {
        EXPECT_EQ(value_at(live, "module"), "<absent>") << f << " " << device;
        continue;
      }
      ++tested;
      EXPECT_EQ(value_at(live, "module.module"), k->module) << f << " " << device << live;
      EXPECT_EQ(value_at(live, "module.plane"), plane);
      // The run: that kernel and the ones of the same program just before it.
      int64_t run_start = k->start;
      for (auto j = k; j != ks->second.begin() && std::prev(j)->module == k->module &&
                       std::prev(j)->program == k->program;
           --j)
        run_start = std::prev(j)->start;
      EXPECT_EQ(value_at(live, "module.during"), run_start <= peak.ts ? "true" : "false") << f;
      EXPECT_EQ(std::stod(value_at(live, "module.startRelNs")),
                static_cast<double>(run_start - origin))
          << f;
      if (!k->program.empty()) {
        EXPECT_EQ(value_at(live, "module.programId"), k->program) << f;
      }
      // The Memory Viewer's module for it: the HloProto of that program, with its assignment.
      const int gm = std::stoi(value_at(live, "module.graphModule"));
      ASSERT_GE(gm, 0) << f << " " << live;
      EXPECT_EQ(g.module(static_cast<uint32_t>(gm))->module_name, k->module);
      if (!k->program.empty()) {
        EXPECT_EQ(std::to_string(g.module(static_cast<uint32_t>(gm))->program_id), k->program);
      }
      EXPECT_EQ(value_at(live, "module.bufferAssignment"), "true");
      // Back: the module's runs; the one with the most memory holds this device's peak.
      const std::string runs =
          e.memory_query_json("memory_module", "{\"module\":\"" + k->module +
                                                   "\",\"programId\":\"" + k->program + "\"}");
      EXPECT_GE(std::stoi(value_at(runs, "runs")), 1) << runs;
      EXPECT_GE(std::stod(value_at(runs, "peak.peakBytes")), peak.bytes) << f << " " << runs;
      if (value_at(runs, "peak.device") == device) {
        EXPECT_EQ(std::stod(value_at(runs, "peak.peakBytes")), peak.bytes);
        EXPECT_EQ(std::stod(value_at(runs, "peak.peakRelNs")),
                  static_cast<double>(peak.ts - origin));
      }
    }
  }
  if (!tested) GTEST_SKIP() << "no xplane with allocator memory and XLA runs in ../shared/data";
}

TEST(MemoryModules, AModuleThatRunsNowhereSaysWhy) {
  std::string bytes;
  if (!read_shared(kWithHlo[3], &bytes)) GTEST_SKIP() << "no " << kWithHlo[3];
  Engine e;
  load_all(&e, bytes);
  const std::string r =
      e.memory_query_json("memory_module", "{\"module\":\"no_such_module\",\"programId\":\"\"}");
  EXPECT_EQ(value_at(r, "runs"), "0");
  EXPECT_NE(value_at(r, "why"), "<absent>");
}

}  // namespace
}  // namespace strata
