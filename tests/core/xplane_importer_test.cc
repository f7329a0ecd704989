// The xplane importer on XSpaces the tests write with the protoc-generated classes: how planes,
// lines and events map onto sections, tracks and slices (XProf's trace viewer layout), derived
// rows, counters, flows, ps → ns rounding, chunk-split invariance, and the details pane's
// decoding of every stat type.
#include "core/formats/xplane/xplane_importer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/formats/format_sniffer.h"
#include "core/formats/xplane/xplane_layout.h"
#include "core/formats/xplane/xplane_tables.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::engine_load;
using testing::find_on_track;
using testing::find_track;
using testing::PlaneWriter;
using testing::serialize;
namespace pb = tensorflow::profiler;

uint64_t xflow(uint64_t id, int direction, int category) {
  return (uint64_t(category) << 58) | (id << 2) | uint64_t(direction);
}

// A small XSpace with a TPU, a GPU and a host plane, covering each mapping rule.
std::string sample_space() {
  pb::XSpace space;
  {
    PlaneWriter tpu(&space, "/device:TPU:0");
    pb::XLine* steps = tpu.line(1, "Steps", 1000);
    pb::XEvent* step = tpu.event(steps, "1", 0, 9000000);
    tpu.stat_str(step, "step_name", "step 1");
    pb::XLine* ops = tpu.line(3, "XLA Ops", 1000);
    tpu.event(ops, "fusion.1", 0, 5000000);
    pb::XEvent* f2 = tpu.event(ops, "fusion.2", 6000000, 1000000);
    tpu.stat_uint(f2, "flow", xflow(77, /*in=*/1, /*gpu_launch=*/9));
    pb::XEventMetadata* m1 = tpu.meta("fusion.1");
    tpu.stat_str(m1, "tf_op", "model/dense/MatMul:MatMul");
    tpu.stat_str(m1, "source", "model.py:10");
    tpu.stat_int(m1, "flops", 1000);
    pb::XEventMetadata* m2 = tpu.meta("fusion.2");
    tpu.stat_str(m2, "tf_op", "model/dense/BiasAdd:BiasAdd");
    tpu.stat_str(m2, "source", "model.py:10");
    pb::XLine* traceme = tpu.line(4, "XLA TraceMe", 1000);
    tpu.meta("TraceMe long name", "short");
    tpu.event(traceme, "TraceMe long name", 100000, 200000);
    pb::XEvent* agg = traceme->add_events();  // an aggregate: no start time
    agg->set_metadata_id(tpu.meta("agg")->id());
    agg->set_num_occurrences(3);
  }
  {
    PlaneWriter gpu(&space, "/device:GPU:0");
    pb::XLine* s7 = gpu.line(7, "Stream #7(Compute)", 2000);
    const char* ops[] = {"fusion.a", "fusion.a", "fusion.b"};
    const int64_t at[] = {0, 2000000, 5000000}, dur[] = {1000000, 1000000, 500000};
    for (int k = 0; k < 3; ++k) {
      pb::XEvent* e = gpu.event(s7, std::string("kernel_") + char('x' + k), at[k], dur[k]);
      gpu.stat_ref(e, "kernel_details", "grid:1,1,1 block:32,1,1");
      gpu.stat_ref(e, "hlo_module", "jit_f");
      gpu.stat_int(e, "program_id", 5);
      gpu.stat_ref(e, "hlo_op", ops[k]);
      gpu.stat_uint(e, "correlation_id", 11 + k);
    }
    pb::XLine* s8 = gpu.line(8, "Stream #8(MemcpyH2D)", 2000);
    pb::XEvent* cp = gpu.event(s8, "MemcpyH2D", 0, 400000);
    gpu.stat_str(cp, "memcpy_details", "size:4");
    pb::XLine* counters = gpu.line(99, "_counters_", 2000);
    gpu.stat_int(gpu.event(counters, "memory", 0, 0), "bytes_in_use", 100);
    gpu.stat_int(gpu.event(counters, "memory", 1000000, 0), "bytes_in_use", 200);
    gpu.event(gpu.line(98, "counters_junk", 2000), "junk", 0, 1000);
  }
  {
    PlaneWriter host(&space, "/host:CPU");
    pb::XLine* py = host.line(1, "python", 0);
    pb::XEvent* e = host.event(py, "train_step", 0, 20000000);
    host.stat_uint(e, "flow", xflow(77, /*out=*/2, 9));
    for (int k = 0; k < 2; ++k) {
      pb::XLine* t =
          host.line(100 + k, "tf_pool_" + std::to_string(k + 1) + "/" + std::to_string(100 + k), 0);
      pb::XEvent* l = host.event(t, "cuLaunchKernel", 1500000 + k * 2000000, 100000);
      host.stat_uint(l, "correlation_id", 11 + k);
    }
    host.event(host.line(7, "solo/7", 0), "x", 0, 1000);
  }
  space.add_hostnames("host-0");
  return serialize(space);
}

TEST(XPlane, MapsPlanesLinesAndEventsAsXProfShowsThem) {
  const std::string file = sample_space();
  Engine e;
  ASSERT_TRUE(engine_load(&e, file, 64)) << e.last_error();
  const TraceStore& s = *e.store();
  testing::expect_valid_layout(s);
  EXPECT_EQ(s.files[0].format, "xplane");

  // Sections in XProf's order: TPU, GPU, host, then the host's thread pools.
  std::vector<std::string> processes;
  for (const Process& p : s.processes) processes.emplace_back(s.strings.get(p.name));
  EXPECT_EQ(processes,
            (std::vector<std::string>{"/device:TPU:0", "/device:GPU:0", "/host:CPU", "tf_pool"}));
  // Tracks: by line id, XProf's derived rows (0xdeadbeef + k) after the streams.
  auto tracks_of = [&](size_t p) {
    std::vector<std::string> v;
    for (uint32_t t : s.processes[p].tracks) v.emplace_back(s.strings.get(s.tracks[t].name));
    return v;
  };
  EXPECT_EQ(tracks_of(0),
            (std::vector<std::string>{"Steps", "XLA Ops", "XLA TraceMe", "Framework Name Scope",
                                      "Framework Ops", "Source code"}));
  EXPECT_EQ(tracks_of(1),
            (std::vector<std::string>{"memory", "Stream #7(Compute)", "Stream #8(MemcpyH2D)",
                                      "XLA Modules", "XLA Ops"}));
  EXPECT_EQ(tracks_of(2), (std::vector<std::string>{"python", "solo/7"}));
  EXPECT_EQ(tracks_of(3), (std::vector<std::string>{"tf_pool_1/100", "tf_pool_2/101"}));

  // Times: line.timestamp_ns + offset_ps / 1000.
  int64_t f1 = find_on_track(s, "XLA Ops", "fusion.1");
  ASSERT_GE(f1, 0);
  EXPECT_EQ(s.events.start[f1], 1000);
  EXPECT_EQ(s.events.dur[f1], 5000);
  // step_name renames a step; display_name is what an event shows.
  EXPECT_GE(find_on_track(s, "Steps", "step 1"), 0);
  EXPECT_GE(find_on_track(s, "XLA TraceMe", "short"), 0);

  // Derived TPU rows: name scopes and ops from tf_op (shown by op type), source from source.
  auto spans = [&](const std::string& process, const std::string& track) {
    std::vector<std::tuple<std::string, int64_t, int64_t>> v;
    int64_t t = find_track(s, process, track);
    if (t < 0) return v;
    const Track& tr = s.tracks[t];
    for (uint32_t i = tr.first_event; i < tr.first_event + tr.event_count; ++i)
      v.emplace_back(std::string(s.strings.get(s.events.name[i])), s.events.start[i],
                     s.events.start[i] + s.events.dur[i]);
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return std::get<1>(a) != std::get<1>(b) ? std::get<1>(a) < std::get<1>(b) : a < b;
    });
    return v;
  };
  using Spans = std::vector<std::tuple<std::string, int64_t, int64_t>>;
  EXPECT_EQ(spans("/device:TPU:0", "Framework Ops"),
            (Spans{{"MatMul", 1000, 6000}, {"BiasAdd", 7000, 8000}}));
  EXPECT_EQ(spans("/device:TPU:0", "Framework Name Scope"),
            (Spans{{"dense", 1000, 8000}, {"model", 1000, 8000}}));
  EXPECT_EQ(spans("/device:TPU:0", "Source code"), (Spans{{"model.py:10", 1000, 8000}}));
  // Derived GPU rows from the kernels' stats: consecutive same-named ops merge.
  EXPECT_EQ(spans("/device:GPU:0", "XLA Modules"), (Spans{{"jit_f(5)", 2000, 7500}}));
  EXPECT_EQ(spans("/device:GPU:0", "XLA Ops"),
            (Spans{{"fusion.a", 2000, 5000}, {"fusion.b", 7000, 7500}}));

  // _counters_ → a counter track with a series per stat; counters_* lines are skipped.
  int64_t mem = find_track(s, "/device:GPU:0", "memory");
  ASSERT_GE(mem, 0);
  ASSERT_EQ(s.tracks[mem].kind, TrackKind::kCounter);
  ASSERT_EQ(s.tracks[mem].series_count, 1u);
  const CounterSeries& cs = s.series[s.tracks[mem].first_series];
  EXPECT_EQ(s.strings.get(cs.name), "bytes_in_use");
  ASSERT_EQ(cs.sample_count, 2u);
  EXPECT_EQ(s.samples.value[cs.first_sample + 1], 200);
  EXPECT_EQ(find_on_track(s, "", "junk"), -1);

  // Flows: launch → kernel by correlation id, and the XFlow pair (out on the host, in on TPU).
  auto has_edge = [&](int64_t from, int64_t to) {
    for (size_t k = 0; k < s.flows.size(); ++k)
      if (s.flows.from[k] == from && s.flows.to[k] == to) return true;
    return false;
  };
  int64_t launch = find_on_track(s, "tf_pool_1/100", "cuLaunchKernel");
  int64_t kernel = find_on_track(s, "Stream #7(Compute)", "kernel_x");
  ASSERT_GE(launch, 0);
  ASSERT_GE(kernel, 0);
  EXPECT_TRUE(has_edge(launch, kernel));
  EXPECT_TRUE(
      has_edge(find_on_track(s, "python", "train_step"), find_on_track(s, "XLA Ops", "fusion.2")));

  // The file's planes and lines, XEvents read per line, in the summary.
  ASSERT_EQ(s.planes.size(), 3u);
  EXPECT_EQ(s.planes[1].name, "/device:GPU:0");
  ASSERT_EQ(s.planes[0].lines.size(), 3u);
  EXPECT_EQ(s.planes[0].lines[2].name, "XLA TraceMe");
  EXPECT_EQ(s.planes[0].lines[2].events, 2u);  // the aggregate was read, not drawn
  std::string summary = e.summary_json();
  EXPECT_NE(summary.find("\"planes\":[{\"name\":\"/device:TPU:0\",\"lines\":[{\"name\":\"Steps\","
                         "\"events\":1}"),
            std::string::npos)
      << summary;
  bool aggregate_warning = false;
  for (const std::string& w : s.warnings)
    aggregate_warning |= w.find("aggregated") != std::string::npos;
  EXPECT_TRUE(aggregate_warning);
  ASSERT_TRUE(s.xspace);
  EXPECT_EQ(s.xspace->hostnames, std::vector<std::string>{"host-0"});
}

TEST(XPlane, ThreadPoolNamesAsXProfGroupsThem) {
  EXPECT_EQ(thread_pool_name("tf_gpu_private_4/189954656"), "tf_gpu_private");
  EXPECT_EQ(thread_pool_name("tf_Compute/1105654971"), "tf_Compute");
  EXPECT_EQ(thread_pool_name("pool-3/12:-x"), "pool");
  EXPECT_EQ(thread_pool_name("Host Threads/1083"), "Host Threads");
  EXPECT_EQ(thread_pool_name("py_xla_execute/-1472503042444199177"), "py_xla_execute");
  EXPECT_EQ(thread_pool_name("python"), "");
  EXPECT_EQ(thread_pool_name("a/b/c"), "");
  EXPECT_EQ(plane_kind("/device:TPU:0 SparseCore 1"), PlaneKind::kTpu);
  EXPECT_FALSE(is_tensor_core("/device:TPU:0 SparseCore 1"));
  EXPECT_TRUE(is_tensor_core("/device:TPU:12"));
}

TEST(XPlane, RoundsPicosecondsToTheNearestNanosecondKeepingNesting) {
  pb::XSpace space;
  PlaneWriter w(&space, "/host:CPU");
  pb::XLine* l = w.line(1, "t", 10);
  w.event(l, "a", 1499, 1);   // [1.499, 1.5] ns after the line's 10 ns → [11, 12]
  w.event(l, "b", 500, 0);    // 0.5 ns rounds up
  w.event(l, "c", 499, 0);    // 0.499 ns rounds down
  w.event(l, "d", -1500, 0);  // -1.5 ns → -1 (ties up)
  pb::XLine* nest = w.line(2, "nest", 10);
  w.event(nest, "parent", 0, 2400);    // [10, 12]
  w.event(nest, "child", 1200, 1200);  // [11, 12]: still inside its parent
  Engine e;
  ASSERT_TRUE(engine_load(&e, serialize(space)));
  const TraceStore& s = *e.store();
  testing::expect_valid_layout(s);
  auto at = [&](const char* n) {
    int64_t i = find_on_track(s, "", n);
    return std::make_pair(s.events.start[i], s.events.dur[i]);
  };
  EXPECT_EQ(at("a"), std::make_pair(int64_t{11}, int64_t{1}));
  EXPECT_EQ(at("b"), std::make_pair(int64_t{11}, int64_t{0}));
  EXPECT_EQ(at("c"), std::make_pair(int64_t{10}, int64_t{0}));
  EXPECT_EQ(at("d"), std::make_pair(int64_t{9}, int64_t{0}));
  EXPECT_EQ(at("parent"), std::make_pair(int64_t{10}, int64_t{2}));
  EXPECT_EQ(at("child"), std::make_pair(int64_t{11}, int64_t{1}));
  EXPECT_EQ(s.events.depth[find_on_track(s, "", "child")], 1u);
}

TEST(XPlane, ChunkSplitsDoNotChangeTheStore) {
  const std::string file = sample_space();
  auto import = [&](size_t chunk) {
    testing::ImportResult r;
    auto imp = make_xplane_importer(r.store.get());
    const auto* p = reinterpret_cast<const uint8_t*>(file.data());
    for (size_t i = 0; i < file.size(); i += chunk)
      imp->feed(p + i, std::min(chunk, file.size() - i));
    imp->finish();
    r.failed = imp->failed();
    r.records = imp->records();
    return r;
  };
  testing::ImportResult whole = import(file.size());
  ASSERT_FALSE(whole.failed);
  EXPECT_GT(whole.records, 10u);
  for (size_t chunk : {1u, 2u, 3u, 5u, 7u, 16u, 63u, 200u}) {
    SCOPED_TRACE(chunk);
    testing::ImportResult r = import(chunk);
    EXPECT_EQ(r.records, whole.records);
    testing::expect_same_store(*whole.store, *r.store);
    EXPECT_EQ(r.store->flows.from, whole.store->flows.from);
    EXPECT_EQ(r.store->flows.to, whole.store->flows.to);
  }
}

TEST(XPlane, DetailsDecodeEveryStatType) {
  pb::XSpace space;
  {
    // The HloProto of program 5, on the metadata plane: the graph viewer's seam.
    // XProf keys these metadata by program id.
    PlaneWriter meta(&space, "/host:metadata");
    pb::XEventMetadata& m = (*meta.plane()->mutable_event_metadata())[5];
    m.set_id(5);
    m.set_name("jit_f(5)");
    meta.stat(&m, "Hlo Proto")->set_bytes_value(std::string(300, '\x01'));
  }
  PlaneWriter w(&space, "/device:TPU:0");
  pb::XLine* l = w.line(3, "XLA Ops", 0);
  pb::XEvent* e = w.event(l, "fusion.7", 1000, 2000);
  pb::XEventMetadata* m = w.meta("fusion.7", "fusion");
  w.stat_str(m, "hlo_category", "convolution");
  w.stat_int(m, "flops", 123456);
  w.stat_int(m, "program_id", 5);
  w.stat_ref(m, "hlo_module", "jit_f");
  w.stat_str(m, "hlo_op", "fusion.7");
  w.stat_str(m, "shape_with_layout", "f32[8,128]{1,0}");
  w.stat_str(m, "source", "model.py:42");
  w.stat(e, "d")->set_double_value(1.5);
  w.stat_uint(e, "u", 18446744073709551615ull);
  w.stat_int(e, "i", -42);
  w.stat_str(e, "s", "a \"quoted\" text");
  w.stat(e, "b")->set_bytes_value("xyz");
  w.stat_ref(e, "r", "referenced name");
  w.stat_uint(e, "flow", xflow(9, 2, 9));
  w.stat_int(e, "flops", 7);  // the event's value replaces the metadata's
  const std::string file = serialize(space);

  Engine eng;
  ASSERT_TRUE(engine_load(&eng, file, 13)) << eng.last_error();
  const TraceStore& s = *eng.store();
  int64_t ev = find_on_track(s, "XLA Ops", "fusion");
  ASSERT_GE(ev, 0);
  std::string d = testing::details_of(eng, static_cast<uint32_t>(ev), file);
  for (const char* want : {
           R"("record":{"name":"fusion.7","displayName":"fusion","plane":"/device:TPU:0")",
           R"("line":"XLA Ops","offsetPs":1000,"durationPs":2000)",
           R"("args":{"long_name":"fusion.7","hlo_category":"convolution","flops":7,)",
           R"("program_id":5,"hlo_module":"jit_f","hlo_op":"fusion.7")",
           R"("shape_with_layout":"f32[8,128]{1,0}","source":"model.py:42")",
           R"("d":1.5)",
           R"("u":"18446744073709551615")",
           R"("i":-42)",
           R"("s":"a \"quoted\" text")",
           R"("b":"<3 bytes>")",
           R"("r":"referenced name")",
           R"("flow":{"id":9,"direction":"out","category":"gpu_launch"})",
           R"("xla":{"hlo_op":"fusion.7","hlo_module":"jit_f","program_id":5,)",
           R"("hlo_category":"convolution","flops":7,"shape_with_layout":"f32[8,128]{1,0}",)",
           R"("graph":{"programId":5,"op":"fusion.7","available":true})",
       })
    EXPECT_NE(d.find(want), std::string::npos) << want << "\nin: " << d;
  // The HloProto's byte span points at its bytes in the file.
  ASSERT_EQ(s.xspace->hlo_protos.size(), 1u);
  const HloProtoSpan& h = s.xspace->hlo_protos[0];
  EXPECT_EQ(h.program_id, 5);
  EXPECT_EQ(file.substr(h.src_offset, h.src_len), std::string(300, '\x01'));
  // A record that no longer decodes (the file changed) gives an error object, not bad JSON.
  std::string bad = eng.details_json(static_cast<uint32_t>(ev), "\x07\x07");
  EXPECT_NE(bad.find("\"record\":{\"error\":\"malformed XEvent"), std::string::npos) << bad;
}

TEST(XPlane, SniffsTheFormatFromTheContent) {
  Engine e;
  ASSERT_TRUE(engine_load(&e,
                          "\n {\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,"
                          "\"tid\":1,\"ts\":1,\"dur\":1}]}",
                          3, "t.json"));
  EXPECT_EQ(e.store()->files[0].format, "chrome-json");
  EXPECT_EQ(e.summary_json().find("\"planes\""), std::string::npos);
  const std::string file = sample_space();
  ASSERT_TRUE(engine_load(&e, file, 1, "t.pb"));
  EXPECT_EQ(e.store()->files[0].format, "xplane");
  EXPECT_NE(e.summary_json().find("\"format\":\"xplane\""), std::string::npos);
}

TEST(XPlane, CompressedXPlaneLoadsAndShowsDetails) {
  const std::string file = sample_space();
  std::string gz;
  if (!testing::compress_with("gzip -c", file, &gz)) GTEST_SKIP() << "no gzip tool";
  Engine plain, packed;
  ASSERT_TRUE(engine_load(&plain, file));
  ASSERT_TRUE(engine_load(&packed, gz, 7, "t.xplane.pb.gz"));
  EXPECT_EQ(packed.store()->files[0].compression, "gzip");
  EXPECT_EQ(packed.store()->files[0].format, "xplane");
  testing::expect_same_store(*plain.store(), *packed.store());
  // Details of a compressed file: the worker's extraction pass, then the cached record.
  int64_t ev = find_on_track(*packed.store(), "Stream #7(Compute)", "kernel_y");
  ASSERT_GE(ev, 0);
  packed.extract_begin(static_cast<uint32_t>(ev));
  ASSERT_TRUE(packed.extract_feed(reinterpret_cast<const uint8_t*>(gz.data()), gz.size()));
  std::string d = packed.details_json(static_cast<uint32_t>(ev),
                                      packed.cached_record(static_cast<uint32_t>(ev)));
  EXPECT_NE(d.find("\"hlo_op\":\"fusion.a\""), std::string::npos) << d;
  EXPECT_EQ(d, testing::details_of(plain, static_cast<uint32_t>(ev), file));
}

}  // namespace
}  // namespace strata
