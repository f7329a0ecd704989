// XProf's Steps row on GPU planes, derived from the group_id stats of the plane's events
// (DeriveStepEventsFromGroups): consecutive events of one group, on any line, merge into one
// step named by the group id; a plane that has its own Steps line keeps it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::engine_load;
using testing::find_track;
using testing::PlaneWriter;
using testing::serialize;
namespace pb = tensorflow::profiler;

struct Step {
  std::string name;
  TimeNs start, dur;
  bool operator==(const Step& o) const {
    return name == o.name && start == o.start && dur == o.dur;
  }
};

std::vector<Step> steps_of(const TraceStore& s, const std::string& process) {
  std::vector<Step> v;
  int64_t t = find_track(s, process, "Steps");
  if (t < 0) return v;
  for (size_t i = 0; i < s.events.size(); ++i)
    if (s.events.track[i] == static_cast<uint32_t>(t))
      v.push_back(
          {std::string(s.strings.get(s.events.name[i])), s.events.start[i], s.events.dur[i]});
  return v;
}

TEST(XPlaneSteps, GpuStepsComeFromGroupIdsOfEveryLine) {
  pb::XSpace space;
  PlaneWriter gpu(&space, "/device:GPU:0");
  pb::XLine* s7 = gpu.line(7, "Stream #7(Compute)", 0);
  pb::XLine* s8 = gpu.line(8, "Stream #8(MemcpyH2D)", 0);
  // Group 1: kernels at 0-1 us and 2-3 us, a copy at 3.5-4 us on another stream.
  gpu.stat_int(gpu.event(s7, "k", 0, 1000000), "group_id", 1);
  gpu.stat_int(gpu.event(s7, "k", 2000000, 1000000), "group_id", 1);
  gpu.stat_int(gpu.event(s8, "MemcpyH2D", 3500000, 500000), "group_id", 1);
  // Group 2: 5-7 us; an event without a group in between does not split it.
  gpu.stat_int(gpu.event(s7, "k", 5000000, 1000000), "group_id", 2);
  gpu.event(s7, "k", 6000000, 100000);
  gpu.stat_int(gpu.event(s7, "k", 6500000, 500000), "group_id", 2);
  Engine e;
  ASSERT_TRUE(engine_load(&e, serialize(space))) << e.last_error();
  const TraceStore& s = *e.store();
  testing::expect_valid_layout(s);
  EXPECT_EQ(steps_of(s, "/device:GPU:0"), (std::vector<Step>{{"1", 0, 4000}, {"2", 5000, 2000}}));
  // A derived row: after the streams.
  const Process& p = s.processes[0];
  EXPECT_EQ(s.strings.get(s.tracks[p.tracks.back()].name), "Steps");
}

TEST(XPlaneSteps, AStepsLineInTheFileIsKeptAndNothingIsDerived) {
  pb::XSpace space;
  PlaneWriter gpu(&space, "/device:GPU:0");
  pb::XLine* steps = gpu.line(1, "Steps", 0);
  gpu.event(steps, "step 0", 0, 9000000);
  pb::XLine* s7 = gpu.line(7, "Stream #7(Compute)", 0);
  gpu.stat_int(gpu.event(s7, "k", 0, 1000000), "group_id", 1);
  Engine e;
  ASSERT_TRUE(engine_load(&e, serialize(space))) << e.last_error();
  EXPECT_EQ(steps_of(*e.store(), "/device:GPU:0"), (std::vector<Step>{{"step 0", 0, 9000}}));
}

TEST(XPlaneSteps, NoGroupIdsNoStepsRow) {
  pb::XSpace space;
  PlaneWriter gpu(&space, "/device:GPU:0");
  gpu.event(gpu.line(7, "Stream #7(Compute)", 0), "k", 0, 1000000);
  Engine e;
  ASSERT_TRUE(engine_load(&e, serialize(space))) << e.last_error();
  EXPECT_LT(find_track(*e.store(), "/device:GPU:0", "Steps"), 0);
}

}  // namespace
}  // namespace strata
