// Several xplanes in one load (issue 5: one per host of a multi-host run): one time axis, a
// section group per host named after its file, details re-read from the right file, a damaged
// file that names itself, and JSON traces (a run's ranks) opening together as well.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::find_on_track;
using testing::PlaneWriter;
using testing::serialize;
namespace pb = tensorflow::profiler;

// One host's XSpace: a GPU stream and a host thread, with times offset by `t0` ns.
std::string host_space(int64_t t0, const std::string& kernel) {
  pb::XSpace space;
  {
    PlaneWriter gpu(&space, "/device:GPU:0");
    pb::XLine* s = gpu.line(7, "Stream #7(Compute)", t0);
    for (int k = 0; k < 3; ++k) {
      pb::XEvent* e = gpu.event(s, kernel, k * 2000000, 1000000);
      gpu.stat_ref(e, "hlo_op", "fusion." + std::to_string(k));
    }
  }
  {
    PlaneWriter host(&space, "/host:CPU");
    host.event(host.line(1, "python", t0), "train_step", 0, 9000000);
  }
  return serialize(space);
}

// Feeds each file through the Engine as the engine worker (web/worker/) does (load_next_file
// between them).
bool load_files(Engine* e, const std::vector<std::pair<std::string, std::string>>& files,
                size_t chunk = 97) {
  e->load_begin(files[0].first, files[0].second.size());
  for (size_t f = 0; f < files.size(); ++f) {
    const std::string& bytes = files[f].second;
    if (f > 0 && !e->load_next_file(files[f].first, bytes.size())) continue;
    for (size_t off = 0; off < bytes.size(); off += chunk) {
      size_t n = std::min(chunk, bytes.size() - off);
      std::memcpy(e->load_buffer(n), bytes.data() + off, n);
      e->load_commit(n);
    }
  }
  return e->load_end();
}

std::vector<std::string> section_names(const TraceStore& s) {
  std::vector<std::string> v;
  for (const Process& p : s.processes) v.emplace_back(s.strings.get(p.name));
  return v;
}

TEST(XPlaneMultiHost, HostsShareOneTimeAxisInSectionGroupsNamedByFile) {
  const std::string a = host_space(1000000, "kernel_a"), b = host_space(1500000, "kernel_b");
  Engine e;
  ASSERT_TRUE(load_files(&e, {{"worker-0.xplane.pb", a}, {"worker-1.xplane.pb", b}}))
      << e.last_error();
  const TraceStore& s = *e.store();
  testing::expect_valid_layout(s);
  ASSERT_EQ(s.files.size(), 2u);
  EXPECT_EQ(s.files[0].bytes, a.size());
  EXPECT_EQ(s.files[1].bytes, b.size());
  EXPECT_EQ(s.files[1].format, "xplane");
  // Each host's sections, in XProf's order within the host, hosts in the order given.
  EXPECT_EQ(section_names(s),
            (std::vector<std::string>{"worker-0 /device:GPU:0", "worker-0 /host:CPU",
                                      "worker-1 /device:GPU:0", "worker-1 /host:CPU"}));
  // Both hosts' events, each at its own absolute time.
  Engine one_a, one_b;
  ASSERT_TRUE(testing::engine_load(&one_a, a));
  ASSERT_TRUE(testing::engine_load(&one_b, b));
  EXPECT_EQ(s.events.size(), one_a.store()->events.size() + one_b.store()->events.size());
  int64_t ka = find_on_track(s, "Stream #7(Compute)", "kernel_a");
  int64_t kb = find_on_track(s, "Stream #7(Compute)", "kernel_b");
  ASSERT_GE(ka, 0);
  ASSERT_GE(kb, 0);
  EXPECT_EQ(s.events.start[kb] - s.events.start[ka], 500000);
  // summary().planes lists every host's planes.
  EXPECT_EQ(s.planes.size(), 4u);
}

TEST(XPlaneMultiHost, DetailsOfTheSecondHostComeFromItsOwnFile) {
  const std::string a = host_space(0, "kernel_a"), b = host_space(0, "kernel_b");
  Engine e, one_b;
  ASSERT_TRUE(load_files(&e, {{"h0.xplane.pb", a}, {"h1.xplane.pb", b}}));
  ASSERT_TRUE(testing::engine_load(&one_b, b, 97, "h1.xplane.pb"));
  const int64_t ev = find_on_track(*e.store(), "Stream #7(Compute)", "kernel_b");
  const int64_t ev1 = find_on_track(*one_b.store(), "Stream #7(Compute)", "kernel_b");
  ASSERT_GE(ev, 0);
  uint64_t off = 0;
  uint32_t len = 0;
  ASSERT_TRUE(e.event_source(static_cast<uint32_t>(ev), &off, &len));
  // The locator points past file 0; source_file() maps it into file 1, as the worker reads it.
  EXPECT_GE(off, a.size());
  EXPECT_EQ(e.source_file(&off), 1u);
  ASSERT_LE(off + len, b.size());
  std::string d = e.details_json(static_cast<uint32_t>(ev), std::string_view(b).substr(off, len));
  EXPECT_NE(d.find("\"hlo_op\":\"fusion.0\""), std::string::npos) << d;
  // The same details as the second file opened alone (apart from the event's index and host).
  std::string d1 = testing::details_of(one_b, static_cast<uint32_t>(ev1), b);
  EXPECT_NE(d1.find("\"hlo_op\":\"fusion.0\""), std::string::npos) << d1;
}

TEST(XPlaneMultiHost, ACutSecondFileNamesItselfAndKeepsTheFirst) {
  const std::string a = host_space(0, "kernel_a"), b = host_space(0, "kernel_b");
  Engine e;
  ASSERT_TRUE(load_files(&e, {{"h0.xplane.pb", a}, {"h1.xplane.pb", b.substr(0, b.size() / 2)}}));
  const TraceStore& s = *e.store();
  EXPECT_GE(find_on_track(s, "Stream #7(Compute)", "kernel_a"), 0);
  ASSERT_FALSE(s.errors.empty());
  bool named = false;
  for (const std::string& m : s.errors) named = named || m.rfind("h1.xplane.pb: ", 0) == 0;
  EXPECT_TRUE(named) << s.errors[0];
}

TEST(XPlaneMultiHost, CompressedAndPlainHostsMix) {
  const std::string a = host_space(0, "kernel_a"), b = host_space(0, "kernel_b");
  std::string gz;
  if (!testing::compress_with("gzip -c", b, &gz)) GTEST_SKIP() << "no gzip tool";
  Engine e;
  ASSERT_TRUE(load_files(&e, {{"h0.xplane.pb", a}, {"h1.xplane.pb.gz", gz}}));
  const TraceStore& s = *e.store();
  EXPECT_EQ(s.files[0].compression, "none");
  EXPECT_EQ(s.files[1].compression, "gzip");
  EXPECT_EQ(section_names(s)[2], "h1 /device:GPU:0");
  // A record of the compressed host: extracted from that file's own stream.
  const int64_t ev = find_on_track(s, "Stream #7(Compute)", "kernel_b");
  ASSERT_GE(ev, 0);
  EXPECT_FALSE(e.file_compressed(0));
  uint64_t off = 0;
  uint32_t len = 0;
  ASSERT_TRUE(e.event_source(static_cast<uint32_t>(ev), &off, &len));
  ASSERT_EQ(e.source_file(&off), 1u);
  EXPECT_TRUE(e.file_compressed(1));
  e.extract_begin(static_cast<uint32_t>(ev));
  ASSERT_TRUE(e.extract_feed(reinterpret_cast<const uint8_t*>(gz.data()), gz.size()));
  std::string d =
      e.details_json(static_cast<uint32_t>(ev), e.cached_record(static_cast<uint32_t>(ev)));
  EXPECT_NE(d.find("\"hlo_op\":\"fusion.0\""), std::string::npos) << d;
}

// JSON traces now open together too (a run's Kineto ranks, kineto_multi_rank_test.cc): each
// file's pid 1 is its own process.
TEST(XPlaneMultiHost, JsonTracesOpenTogetherEachWithItsOwnPids) {
  const std::string json =
      R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}]})";
  Engine e;
  ASSERT_TRUE(load_files(&e, {{"a.json", json}, {"b.json", json}}));
  const TraceStore& s = *e.store();
  EXPECT_EQ(s.files.size(), 2u);
  EXPECT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.processes.size(), 2u);
  EXPECT_TRUE(s.errors.empty()) << s.errors.front();
}

}  // namespace
}  // namespace strata
