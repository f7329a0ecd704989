// The xplane importer on the real XSpaces in ../shared/data/xplane (skipped when absent):
// every plane's lines and per-line XEvent counts, and every event's start, duration and name,
// equal an independent decode of the whole file with the protoc-generated classes; the rows
// XProf's trace viewer shows are there where the data is; split points do not matter; details
// decode for every event; the upstream-corrupt file fails cleanly, naming a byte offset.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "core/formats/xplane/xplane_tables.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

namespace pb = tensorflow::profiler;
using testing::engine_load;

const char* const kFiles[] = {
    "xplane/xprof/34.83.195.179_6003.xplane.pb",
    "xplane/tracelens/jax08_gemm/tw003.xplane.pb",
    "xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb",
    "xplane/tracelens/jax_conv_minimal_legacy/chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb",
    "xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb",
};

bool read(const std::string& rel, std::string* out) { return testing::read_shared(rel, out); }

// (plane index, line id as the track key) → sorted (start, dur, name) of its events.
using Events = std::map<std::pair<uint32_t, std::string>,
                        std::vector<std::tuple<int64_t, int64_t, std::string>>>;

// The independent decode: generated classes, exact ps arithmetic in 128 bits.
Events expected_events(const pb::XSpace& space) {
  Events out;
  // Nearest ns of a ps offset, ties up: floor((ps + 500) / 1000) in integers.
  auto ns = [](int64_t ps) {
    int64_t a = ps + 500;
    return a >= 0 ? a / 1000 : -((-a + 999) / 1000);
  };
  for (int p = 0; p < space.planes_size(); ++p) {
    const pb::XPlane& plane = space.planes(p);
    std::map<int64_t, std::string> stat_names;
    for (const auto& [id, m] : plane.stat_metadata()) stat_names[id] = m.name();
    for (const pb::XLine& line : plane.lines()) {
      if (line.name() == "_counters_" || line.name().rfind("counters_", 0) == 0) continue;
      const int64_t shown = line.display_id() ? line.display_id() : line.id();
      auto& v = out[{static_cast<uint32_t>(p), std::to_string(shown)}];
      for (const pb::XEvent& e : line.events()) {
        if (e.data_case() == pb::XEvent::kNumOccurrences) continue;
        auto it = plane.event_metadata().find(e.metadata_id());
        std::string name;
        if (it != plane.event_metadata().end())
          name = it->second.display_name().empty() ? it->second.name() : it->second.display_name();
        for (const pb::XStat& st : e.stats()) {
          if (stat_names[st.metadata_id()] != "step_name") continue;
          name =
              st.value_case() == pb::XStat::kRefValue ? stat_names[st.ref_value()] : st.str_value();
        }
        int64_t s = line.timestamp_ns() + ns(e.offset_ps());
        int64_t end = line.timestamp_ns() + ns(e.offset_ps() + e.duration_ps());
        v.emplace_back(s, end - s, name);
      }
      std::sort(v.begin(), v.end());
    }
  }
  return out;
}

Events stored_events(const TraceStore& s) {
  Events out;
  const XSpaceTables& x = *s.xspace;
  for (size_t i = 0; i < s.events.size(); ++i) {
    const uint32_t t = s.events.track[i];
    if (x.derived_track[t]) continue;
    const Track& tr = s.tracks[t];
    out[{x.plane_of_process[tr.process], tr.key}].emplace_back(
        s.events.start[i], s.events.dur[i], std::string(s.strings.get(s.events.name[i])));
  }
  for (auto& [k, v] : out) std::sort(v.begin(), v.end());
  return out;
}

TEST(XPlaneRealFiles, MatchAnIndependentDecode) {
  int tested = 0;
  for (const char* rel : kFiles) {
    std::string file;
    if (!read(rel, &file)) continue;
    SCOPED_TRACE(rel);
    ++tested;
    pb::XSpace space;
    ASSERT_TRUE(space.ParseFromString(file));
    Engine e;
    ASSERT_TRUE(engine_load(&e, file, 1 << 20)) << e.last_error();
    const TraceStore& s = *e.store();
    testing::expect_valid_layout(s);
    EXPECT_TRUE(s.errors.empty()) << s.errors.front();
    // Planes and per-line XEvent counts.
    ASSERT_EQ(s.planes.size(), static_cast<size_t>(space.planes_size()));
    for (int p = 0; p < space.planes_size(); ++p) {
      const pb::XPlane& plane = space.planes(p);
      EXPECT_EQ(s.planes[p].name, plane.name());
      ASSERT_EQ(s.planes[p].lines.size(), static_cast<size_t>(plane.lines_size()));
      for (int l = 0; l < plane.lines_size(); ++l) {
        EXPECT_EQ(s.planes[p].lines[l].name, plane.lines(l).name());
        EXPECT_EQ(s.planes[p].lines[l].events, static_cast<uint64_t>(plane.lines(l).events_size()));
      }
    }
    // Every event: where, when, how long, and its name.
    Events want = expected_events(space), got = stored_events(s);
    for (auto it = want.begin(); it != want.end();)  // lines without events have no track
      it = it->second.empty() ? want.erase(it) : std::next(it);
    EXPECT_EQ(got.size(), want.size());
    for (const auto& [key, events] : want) {
      auto g = got.find(key);
      ASSERT_NE(g, got.end()) << "plane " << key.first << " line " << key.second;
      EXPECT_EQ(g->second, events) << "plane " << key.first << " line " << key.second;
    }
  }
  if (!tested) GTEST_SKIP() << "no xplane samples in " << STRATA_SHARED_DATA;
}

// Counts SOURCES.md lists for the samples (XEvents per plane).
TEST(XPlaneRealFiles, PlaneCountsAsSourcesListsThem) {
  struct Want {
    const char* file;
    const char* plane;
    size_t lines;
    uint64_t events;
  };
  const Want wants[] = {
      {kFiles[0], "/host:CPU", 22, 15354},   {kFiles[0], "/device:GPU:1", 1, 19},
      {kFiles[0], "/device:GPU:4", 7, 3875}, {kFiles[0], "/device:GPU:6", 7, 3880},
      {kFiles[1], "/device:GPU:0", 2, 54},   {kFiles[1], "/host:CPU", 5, 3728},
      {kFiles[2], "/host:CPU", 32, 3415},    {kFiles[3], "/host:CPU", 17, 5946},
      {kFiles[4], "/device:GPU:0", 1, 150},  {kFiles[4], "/host:CPU", 2, 1842},
  };
  int tested = 0;
  for (const Want& w : wants) {
    std::string file;
    if (!read(w.file, &file)) continue;
    ++tested;
    Engine e;
    ASSERT_TRUE(engine_load(&e, file));
    bool found = false;
    for (const SourcePlane& p : e.store()->planes) {
      if (p.name != w.plane) continue;
      found = true;
      uint64_t events = 0;
      for (const auto& l : p.lines) events += l.events;
      EXPECT_EQ(p.lines.size(), w.lines) << w.file << " " << w.plane;
      EXPECT_EQ(events, w.events) << w.file << " " << w.plane;
    }
    EXPECT_TRUE(found) << w.plane;
  }
  if (!tested) GTEST_SKIP();
}

TEST(XPlaneRealFiles, ShowTheRowsXProfShowsWhereTheirDataIs) {
  std::string tf, jax;
  if (!read(kFiles[0], &tf) || !read(kFiles[1], &jax)) GTEST_SKIP();
  Engine a, b;
  ASSERT_TRUE(engine_load(&a, tf));
  ASSERT_TRUE(engine_load(&b, jax));
  using testing::find_track;
  // TensorFlow on GPU: streams with their kind of work, the rows TF wrote, thread pools.
  for (const char* t : {"Stream #134(Compute)", "Stream #135(MemcpyH2D)", "Steps", "TensorFlow Ops",
                        "TensorFlow Name Scope"})
    EXPECT_GE(find_track(*a.store(), "/device:GPU:4", t), 0) << t;
  EXPECT_GE(find_track(*a.store(), "tf_Compute", "tf_Compute/1105654971"), 0);
  EXPECT_GE(find_track(*a.store(), "/host:CPU", "python3"), 0);
  // JAX on GPU: XLA Modules and XLA Ops derived from the kernels' stats, as XProf does.
  EXPECT_GE(find_track(*b.store(), "/device:GPU:0", "XLA Modules"), 0);
  EXPECT_GE(find_track(*b.store(), "/device:GPU:0", "XLA Ops"), 0);
  EXPECT_EQ(find_track(*b.store(), "/device:GPU:1", "XLA Ops"), -1);  // no kernels there
  EXPECT_GE(find_track(*b.store(), "Host Threads", "Host Threads/1083"), 0);
  // Host launches → device kernels by correlation id.
  EXPECT_GT(b.store()->flows.size(), 0u);
  EXPECT_NE(a.summary_json().find("\"planes\":[{\"name\":\"/host:CPU\",\"lines\":["),
            std::string::npos);
}

TEST(XPlaneRealFiles, SplitPointsDoNotMatter) {
  std::string file;
  if (!read(kFiles[1], &file)) GTEST_SKIP();
  Engine whole;
  ASSERT_TRUE(engine_load(&whole, file, 0));
  for (size_t chunk : {1u, 4099u, 65536u}) {
    Engine e;
    ASSERT_TRUE(engine_load(&e, file, chunk));
    testing::expect_same_store(*whole.store(), *e.store());
  }
}

TEST(XPlaneRealFiles, DetailsDecodeForEveryEvent) {
  std::string file;
  if (!read(kFiles[2], &file)) GTEST_SKIP();
  Engine e;
  ASSERT_TRUE(engine_load(&e, file));
  const TraceStore& s = *e.store();
  size_t xla = 0;
  for (uint32_t i = 0; i < s.events.size(); ++i) {
    std::string d = testing::details_of(e, i, file);
    std::vector<JsonLine> lines;
    std::string err;
    ASSERT_TRUE(json_flatten(d, &lines, &err)) << err << "\n" << d;
    ASSERT_EQ(d.find("\"record\":{\"error\""), std::string::npos) << d;
    ASSERT_EQ(d.find("\"record\":null"), std::string::npos) << d;
    xla += d.find("\"xla\":{\"hlo_op\"") != std::string::npos;
  }
  EXPECT_GT(xla, 0u);
}

TEST(XPlaneRealFiles, TruncatedFileKeepsWhatWasRead) {
  std::string file;
  if (!read(kFiles[0], &file)) GTEST_SKIP();
  Engine full, cut;
  ASSERT_TRUE(engine_load(&full, file));
  const std::string half = file.substr(0, file.size() / 2);  // inside the big host plane
  ASSERT_TRUE(engine_load(&cut, half));
  const TraceStore& s = *cut.store();
  testing::expect_valid_layout(s);
  EXPECT_GT(s.events.size(), 1000u);
  EXPECT_LT(s.events.size(), full.store()->events.size());
  ASSERT_FALSE(s.errors.empty());
  EXPECT_NE(s.errors[0].find("the file ends at byte " + std::to_string(half.size())),
            std::string::npos)
      << s.errors[0];
}

TEST(XPlaneRealFiles, UpstreamCorruptFileFailsCleanly) {
  std::string file;
  if (!read("xplane/xprof/tpu_inference_2.xplane.pb", &file)) GTEST_SKIP();
  Engine e;
  std::string good;
  if (read(kFiles[1], &good)) {
    ASSERT_TRUE(engine_load(&e, good));
  }
  const size_t before = e.store()->events.size();
  EXPECT_FALSE(engine_load(&e, file, 4099));
  EXPECT_NE(e.last_error().find("corrupt at byte 0"), std::string::npos) << e.last_error();
  EXPECT_EQ(e.store()->events.size(), before);  // the previous trace stays
}

}  // namespace
}  // namespace strata
