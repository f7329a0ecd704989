// Byte units in counter names (core/store/counter_units.h): "(MB)", "[GiB]" and a trailing
// " KB" scale the stored samples to bytes (KB/MB/GB binary, as PyTorch's profiler tools mean
// them) and mark the series in bytes; names without a clear unit keep their values as written.
#include "core/store/counter_units.h"

#include <gtest/gtest.h>

#include "import_test_util.h"

namespace strata {
namespace {

using testing::import_json;
using testing::name_of;

constexpr double kKiB = 1024.0, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

TEST(CounterUnits, ClearFormsGiveTheScale) {
  struct Case {
    const char* name;
    double scale;
  };
  const Case cases[] = {
      {"Allocated (MB)", kMiB},
      {"Reserved (MiB)", kMiB},
      {"heap [KB]", kKiB},
      {"heap [ KiB ]", kKiB},
      {"HBM (GB)", kGiB},
      {"HBM [GiB]", kGiB},
      {"Total (B)", 1},
      {"used MB", kMiB},
      {"host memory GiB", kGiB},
      {"size (kB)", kKiB},
      {"Allocated (bytes)", 1},
      {"(MB) then more (GB)", kGiB},
      {"in use (MB) [rank 0]", kMiB},
  };
  for (const Case& c : cases) {
    const CounterUnit u = counter_unit_of_name(c.name);
    EXPECT_TRUE(u.bytes) << c.name;
    EXPECT_EQ(u.scale, c.scale) << c.name;
  }
}

TEST(CounterUnits, NamesWithoutAClearUnitStayUnscaled) {
  for (const char* name :
       {"value", "Total Allocated", "Stream B", "usedMB", "mem_mb", "bandwidth (MB/s)", "Mb",
        "rate (Mb)", "MB", "(GPU 0)", "GB used", "[x]", "", "Allocated (MB", "queue (TB)"}) {
    const CounterUnit u = counter_unit_of_name(name);
    EXPECT_FALSE(u.bytes) << name;
    EXPECT_EQ(u.scale, 1.0) << name;
  }
}

TEST(CounterUnits, ChromeCountersAreStoredInBytes) {
  auto r = import_json(R"json([
{"ph":"C","name":"GPU Memory","pid":1,"ts":10,"args":{"Allocated (MB)":1120,"Reserved (MB)":"2048","value":7
}
},
{"ph":"C","name":"GPU Memory","pid":1,"ts":20,"args":{"Allocated (MB)":1.5}},
{"ph":"C","name":"HBM [GiB]","pid":1,"ts":10,"args":{"used":2}},
{"ph":"C","name":"Queue depth","pid":1,"ts":10,"args":{"value":1120}}])json");
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  testing::expect_valid_layout(s);
  auto series = [&](std::string_view track, std::string_view name) -> const CounterSeries* {
    for (const CounterSeries& cs : s.series)
      if (s.tracks[cs.track].key == track && name_of(s, cs.name) == name) return &cs;
    return nullptr;
  };
  const CounterSeries* alloc = series("GPU Memory", "Allocated (MB)");
  ASSERT_NE(alloc, nullptr);
  EXPECT_TRUE(alloc->in_bytes);
  ASSERT_EQ(alloc->sample_count, 2u);
  EXPECT_EQ(s.samples.value[alloc->first_sample], 1120 * kMiB);
  EXPECT_EQ(s.samples.value[alloc->first_sample + 1], 1.5 * kMiB);
  const CounterSeries* reserved = series("GPU Memory", "Reserved (MB)");
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(s.samples.value[reserved->first_sample], 2048 * kMiB);
  // A series without a unit on a track without one: as written.
  const CounterSeries* plain = series("GPU Memory", "value");
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(plain->in_bytes);
  EXPECT_EQ(s.samples.value[plain->first_sample], 7.0);
  // The unit in the counter's own name covers its series.
  const CounterSeries* hbm = series("HBM [GiB]", "used");
  ASSERT_NE(hbm, nullptr);
  EXPECT_TRUE(hbm->in_bytes);
  EXPECT_EQ(s.samples.value[hbm->first_sample], 2 * kGiB);
  const CounterSeries* queue = series("Queue depth", "value");
  ASSERT_NE(queue, nullptr);
  EXPECT_FALSE(queue->in_bytes);
  EXPECT_EQ(queue->scale, 1.0);
  EXPECT_EQ(s.samples.value[queue->first_sample], 1120.0);
}

}  // namespace
}  // namespace strata
