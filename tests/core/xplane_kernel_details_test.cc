// A GPU kernel's kernel_details stat (XProf's "regs:32 static_shared:0 dynamic_shared:1024
// grid:564,1,1 block:256,1,1 occ_pct:50"), read at import into the launch table, and what
// Kernel Stats shows of it on the real GPU xplanes: the values each launch recorded, and the
// unset values some profilers write (registers in the billions, 0 % occupancy) left empty with
// the reason rather than shown as numbers.
#include "core/formats/xplane/xplane_kernel_details.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/analysis/kernel_stats.h"
#include "engine/engine.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

TEST(KernelDetails, ParsesXprofsFields) {
  KernelLaunch k;
  ASSERT_TRUE(parse_kernel_details(
      "regs:32 static_shared:512 dynamic_shared:1024 grid:564,2,1 block:256,1,1 occ_pct:62.5", &k));
  EXPECT_EQ(k.has, KernelLaunch::kGrid | KernelLaunch::kBlock | KernelLaunch::kRegisters |
                       KernelLaunch::kSharedMemory | KernelLaunch::kOccupancy);
  EXPECT_EQ(k.registers, 32u);
  EXPECT_EQ(k.shared_memory, 1536u);  // static + dynamic
  EXPECT_EQ(k.grid[0], 564u);
  EXPECT_EQ(k.grid[1], 2u);
  EXPECT_EQ(k.block[0], 256u);
  EXPECT_FLOAT_EQ(k.occupancy_pct, 62.5f);
  KernelLaunch old;
  ASSERT_TRUE(parse_kernel_details("regs:64 shm:0 grid:1,1,1 block:32,1,1", &old));
  EXPECT_TRUE(old.has & KernelLaunch::kSharedMemory);
  EXPECT_FALSE(old.has & KernelLaunch::kOccupancy);  // not in the text: unknown
  EXPECT_FALSE(parse_kernel_details("", &old));
  EXPECT_FALSE(parse_kernel_details("nothing here", &old));
}

TEST(KernelDetails, UnsetValuesAreMarkedNotKept) {
  // As a TensorFlow GPU xplane and a ROCm one write them (../shared/data/xplane).
  KernelLaunch tf;
  ASSERT_TRUE(parse_kernel_details(
      "regs:687194767361 shm:4294967297 grid:2256,139757090178736,971983408 block:0,0,0", &tf));
  EXPECT_EQ(tf.has, kUnsetRegisters | kUnsetShape);  // no field kept
  KernelLaunch rocm;
  ASSERT_TRUE(parse_kernel_details(
      "regs:2191500840 static_shared:32462 dynamic_shared:0 grid:69840,1,1 block:256,1,1 occ_pct:0",
      &rocm));
  EXPECT_EQ(rocm.has, KernelLaunch::kGrid | KernelLaunch::kBlock | KernelLaunch::kSharedMemory |
                          kUnsetRegisters | kUnsetOccupancy);
  EXPECT_EQ(rocm.shared_memory, 32462u);
  KernelLaunch big;
  ASSERT_TRUE(parse_kernel_details("block:1024,2,1", &big));  // 2048 threads in a block
  EXPECT_EQ(big.has, kUnsetShape);
}

size_t column(const AnalysisTable& t, const std::string& key) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == key) return i;
  ADD_FAILURE() << "no column " << key;
  return 0;
}

// The ROCm JAX file: its kernels' grids and blocks shown, their registers (unset in the file)
// empty with the reason.
TEST(KernelDetails, KernelStatsOfARealRocmXplane) {
  std::string bytes;
  if (!testing::read_shared(testing::kWithHlo[2], &bytes)) GTEST_SKIP() << "no ../shared";
  Engine engine;
  ASSERT_TRUE(testing::engine_load(&engine, bytes));
  const TraceStore& s = *engine.store();
  ASSERT_FALSE(s.kernel_launches.rows.empty());
  const AnalysisTable t = kernel_stats_table(s);
  const size_t block = column(t, "block"), regs = column(t, "registers");
  size_t blocks = 0, unset = 0;
  for (const AnalysisRow& r : t.rows) {
    if (r.parent >= 0) continue;
    if (r.cells[block].kind == AnalysisCell::Kind::kText) ++blocks;
    if (r.cells[regs].kind == AnalysisCell::Kind::kEmpty &&
        r.cells[regs].why.find("no launch can have") != std::string::npos)
      ++unset;
  }
  EXPECT_GT(blocks, 0u);
  EXPECT_GT(unset, 0u);
}

}  // namespace
}  // namespace strata
