// Damaged XSpaces: a file cut at any byte, a corrupt event, garbage inside a plane or between
// planes, random byte flips. The importer never crashes, keeps the planes (and events) it could
// read, and names the byte offset of the damage.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/formats/xplane/xplane_importer.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::engine_load;
using testing::find_on_track;
using testing::PlaneWriter;
using testing::serialize;
namespace pb = tensorflow::profiler;

// Two planes: the GPU with 3 kernels, the host with 2 threads.
pb::XSpace two_planes() {
  pb::XSpace space;
  PlaneWriter gpu(&space, "/device:GPU:0");
  pb::XLine* s = gpu.line(7, "Stream #7(Compute)", 100);
  for (int k = 0; k < 3; ++k) {
    pb::XEvent* e = gpu.event(s, "kernel" + std::to_string(k), k * 10000, 5000);
    gpu.stat_ref(e, "kernel_details", "grid:1");
  }
  PlaneWriter host(&space, "/host:CPU");
  host.event(host.line(1, "main", 0), "step", 0, 100000);
  host.event(host.line(2, "worker", 0), "work", 5000, 1000);
  return space;
}

std::string errors_of(const TraceStore& s) {
  std::string all;
  for (const std::string& e : s.errors) all += e + "\n";
  return all;
}

TEST(XPlaneRobustness, CutAtEveryByte) {
  const std::string file = serialize(two_planes());
  pb::XSpace first_only;
  *first_only.add_planes() = two_planes().planes(0);
  const size_t first_end = serialize(first_only).size();
  for (size_t cut = 0; cut < file.size(); ++cut) {
    SCOPED_TRACE(cut);
    testing::ImportResult r;
    auto imp = make_xplane_importer(r.store.get());
    imp->feed(reinterpret_cast<const uint8_t*>(file.data()), cut);
    imp->finish();
    testing::expect_valid_layout(*r.store);
    if (cut == 0) {
      EXPECT_TRUE(imp->failed());
      continue;
    }
    // Not all there: either nothing loads (a clear failure) or an error says where it ends.
    if (cut == first_end) {  // a cut between two planes looks like a complete XSpace
      EXPECT_TRUE(r.store->errors.empty());
    } else if (imp->failed()) {
      EXPECT_NE(imp->failure().find("byte"), std::string::npos) << imp->failure();
    } else {
      ASSERT_FALSE(r.store->errors.empty());
      EXPECT_NE(r.store->errors[0].find("ends at byte " + std::to_string(cut)), std::string::npos)
          << r.store->errors[0];
    }
    if (cut >= first_end) {  // the GPU plane was complete: all its kernels are there
      EXPECT_GE(find_on_track(*r.store, "", "kernel2"), 0);
    }
  }
}

TEST(XPlaneRobustness, CorruptEventIsSkippedAndNamed) {
  const std::string clean = serialize(two_planes());
  Engine e;
  ASSERT_TRUE(engine_load(&e, clean));
  int64_t k1 = find_on_track(*e.store(), "", "kernel1");
  uint64_t off = 0;
  uint32_t len = 0;
  ASSERT_TRUE(e.event_source(static_cast<uint32_t>(k1), &off, &len));
  std::string bad = clean;
  bad[off] = '\x07';  // field 0, wire type 7: no encoder writes that
  ASSERT_TRUE(engine_load(&e, bad));
  const TraceStore& s = *e.store();
  EXPECT_EQ(find_on_track(s, "", "kernel1"), -1);
  EXPECT_GE(find_on_track(s, "", "kernel0"), 0);
  EXPECT_GE(find_on_track(s, "", "kernel2"), 0);
  EXPECT_GE(find_on_track(s, "", "work"), 0);  // the next plane is untouched
  EXPECT_NE(errors_of(s).find("1 malformed XEvent was skipped (first at byte " +
                              std::to_string(off) + ": "),
            std::string::npos)
      << errors_of(s);
}

TEST(XPlaneRobustness, DamageInsideAPlaneKeepsTheOtherPlanes) {
  pb::XSpace space = two_planes();
  std::string gpu = space.planes(0).SerializeAsString();
  const size_t damage_at = gpu.size();
  gpu += std::string(11, '\xFF');  // an 11-byte varint: malformed
  std::string file;
  file += '\x0A';
  // Length prefix of the damaged plane (a varint).
  for (uint64_t n = gpu.size();; n >>= 7) {
    file += static_cast<char>(n >= 0x80 ? (n & 0x7F) | 0x80 : n);
    if (n < 0x80) break;
  }
  const size_t plane_at = file.size();
  file += gpu;
  pb::XSpace rest;
  *rest.add_planes() = space.planes(1);
  file += serialize(rest);
  Engine e;
  ASSERT_TRUE(engine_load(&e, file, 5));
  const TraceStore& s = *e.store();
  EXPECT_GE(find_on_track(s, "", "kernel2"), 0);  // before the damage
  EXPECT_GE(find_on_track(s, "", "work"), 0);     // the plane after it
  EXPECT_NE(errors_of(s).find("plane 1 (/device:GPU:0) is corrupt at byte " +
                              std::to_string(plane_at + damage_at)),
            std::string::npos)
      << errors_of(s);
}

TEST(XPlaneRobustness, GarbageBetweenPlanesStopsThereAndKeepsWhatCameBefore) {
  pb::XSpace space = two_planes();
  pb::XSpace first;
  *first.add_planes() = space.planes(0);
  std::string file = serialize(first);
  const size_t at = file.size();
  file += "\x0F\x0F\x0F";  // field 1, wire type 7
  Engine e;
  ASSERT_TRUE(engine_load(&e, file, 2));
  EXPECT_GE(find_on_track(*e.store(), "", "kernel0"), 0);
  EXPECT_NE(errors_of(*e.store())
                .find("the XSpace is corrupt at byte " + std::to_string(at) +
                      " (wire type 7 of field 1): 1 plane before it is kept"),
            std::string::npos)
      << errors_of(*e.store());
}

TEST(XPlaneRobustness, NotAnXSpaceFailsNamingTheByte) {
  Engine e;
  EXPECT_FALSE(engine_load(&e, std::string("\x0A") + std::string(11, '\xFF')));
  EXPECT_NE(e.last_error().find("corrupt at byte 0 (a varint longer than 10 bytes)"),
            std::string::npos)
      << e.last_error();
  EXPECT_FALSE(engine_load(&e, std::string("\x0A\x05\x12\x03", 4)));  // a plane cut short
  EXPECT_NE(e.last_error().find("ends at byte 4 inside plane 1"), std::string::npos)
      << e.last_error();
  testing::ImportResult r;
  auto imp = make_xplane_importer(r.store.get());
  imp->finish();
  EXPECT_TRUE(imp->failed());
  EXPECT_EQ(imp->failure(), "the file is empty");
}

TEST(XPlaneRobustness, RandomByteFlipsNeverBreakTheStore) {
  const std::string clean = serialize(two_planes());
  std::mt19937 rng(5);
  for (int round = 0; round < 400; ++round) {
    std::string file = clean;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k) file[rng() % file.size()] = static_cast<char>(rng());
    testing::ImportResult r;
    auto imp = make_xplane_importer(r.store.get());
    const size_t chunk = 1 + rng() % 64;
    const auto* p = reinterpret_cast<const uint8_t*>(file.data());
    for (size_t i = 0; i < file.size(); i += chunk)
      imp->feed(p + i, std::min(chunk, file.size() - i));
    imp->finish();
    testing::expect_valid_layout(*r.store);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace strata
