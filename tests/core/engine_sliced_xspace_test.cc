// Engine's sliced load of an XSpace (engine/engine_sliced.cc) driven as the engine worker and its
// slice workers drive it (web/worker/sliced.js): the first slice through load_commit, each later
// one parsed by a SliceSession (its context planes first), encoded, absorbed, or fed by the
// engine when the merge would not be exact. The trace must be the one-worker load's.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/formats/xplane/xplane_sliced.h"
#include "core/store/store_digest.h"
#include "engine/engine.h"
#include "engine/slice_session.h"
#include "sliced_test_util.h"
#include "xplane_test_util.h"

namespace strata::testing {
namespace {

struct Outcome {
  bool ok = false;
  std::string error;
  uint64_t digest = 0;
  std::vector<std::string> errors, warnings;
  size_t planes = 0, absorbed = 0, fed = 0;
};

Outcome outcome(Engine& e, bool ok) {
  Outcome o;
  o.ok = ok;
  o.error = e.last_error();
  o.digest = store_digest(*e.store());
  o.errors = e.store()->errors, o.warnings = e.store()->warnings;
  o.planes = e.store()->planes.size();
  return o;
}

Outcome sliced(const std::string& t, size_t slices, size_t chunk = 1 << 12) {
  Engine e;
  e.load_begin_sliced("t.xplane.pb", t.size(), true);
  const std::vector<XSpaceSliceSpec> specs =
      xspace_slice_specs(t, xspace_cut_points(t, slices, false));
  const std::string_view all(t);
  commit_chunks(e, all.substr(0, specs[0].end), chunk);
  size_t absorbed = 0, fed = 0;
  for (size_t i = 1; i < specs.size(); ++i) {
    const std::string_view part = all.substr(specs[i].begin, specs[i].end - specs[i].begin);
    SliceSession s;  // another worker's
    s.begin_xspace(specs[i].begin, specs[i].planes_before);
    for (const auto& [at, len] : specs[i].context) {
      std::memcpy(s.buffer(len), t.data() + at, len);
      s.context(len, at);
    }
    ++(absorb_or_feed(e, s, part, chunk) ? absorbed : fed);
  }
  Outcome o = outcome(e, e.load_end());
  o.absorbed = absorbed, o.fed = fed;
  return o;
}

void expect_same(const Outcome& a, const Outcome& b, const std::string& what) {
  EXPECT_EQ(a.ok, b.ok) << what;
  EXPECT_EQ(a.error, b.error) << what;
  EXPECT_EQ(a.digest, b.digest) << what;
  EXPECT_EQ(a.errors, b.errors) << what;
  EXPECT_EQ(a.warnings, b.warnings) << what;
  EXPECT_EQ(a.planes, b.planes) << what;
}

// Planes whose sections and flows depend on the planes before them.
std::string xspace(int gpus) {
  pb::XSpace space;
  PlaneWriter host(&space, "/host:CPU");
  pb::XLine* l = host.line(1, "main", 1000);
  for (int e = 0; e < 300; ++e)
    host.stat_uint(host.event(l, "launch", e * 1000, 500), "correlation_id",
                   static_cast<uint64_t>(e));
  for (int g = 0; g < gpus; ++g) {
    PlaneWriter gpu(&space, "/device:GPU:" + std::to_string(g), g + 1);
    pb::XLine* s = gpu.line(1, "Stream #1", 1000);
    for (int e = 0; e < 300; ++e)
      gpu.stat_uint(gpu.event(s, "kernel" + std::to_string(e % 3), e * 1000 + 600, 300),
                    "correlation_id", static_cast<uint64_t>(g * 100 + e));
  }
  return serialize(space);
}

TEST(EngineSlicedXSpace, SlicesAbsorbedGiveTheOneWorkerTrace) {
  const std::string t = xspace(3);
  Engine one;
  const Outcome ref = outcome(one, load_trace(&one, "t.xplane.pb", t, 1 << 12));
  ASSERT_TRUE(ref.ok) << ref.error;
  ASSERT_EQ(ref.planes, 4u);
  for (size_t n = 2; n <= 4; ++n) {
    const Outcome got = sliced(t, n);
    expect_same(ref, got, std::to_string(n) + " slices");
    EXPECT_EQ(got.absorbed, n - 1);
    EXPECT_EQ(got.fed, 0u);
  }
}

TEST(EngineSlicedXSpace, ACutOffFileGivesTheOneWorkerMessages) {
  const std::string full = xspace(3);
  const std::string t = full.substr(0, full.size() * 3 / 4);
  Engine one;
  const Outcome ref = outcome(one, load_trace(&one, "t.xplane.pb", t, 1 << 12));
  ASSERT_FALSE(ref.errors.empty());
  expect_same(ref, sliced(t, 3), "cut off");
}

}  // namespace
}  // namespace strata::testing
