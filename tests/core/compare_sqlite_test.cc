// A SQLite profile as the compared B (CompareSession::load_sqlite): the Nsight Systems export of
// ../shared/data against itself gives an empty diff of every name; against the Ascend database
// every kernel of one is only on its side; a database that is not a profile leaves the previous B.
#include <gtest/gtest.h>

#include <string>

#include "core/formats/sqlite/byte_reader.h"
#include "engine/compare/compare_session.h"
#include "engine/engine.h"
#include "import_test_util.h"

namespace strata {
namespace {

const std::string kNsys = testing::shared_path(std::string(testing::kNsysExport));
const std::string kAscend = testing::ascend_db_path();
const std::string kAnalysis = testing::ascend_db_path("analysis.db");

uint64_t total_count(const std::vector<OpDiffRow>& rows, bool side_b) {
  uint64_t n = 0;
  for (const OpDiffRow& r : rows) n += side_b ? r.b.count : r.a.count;
  return n;
}

TEST(CompareSqlite, NsysAgainstItselfIsEmpty) {
  FileByteReader a_file(kNsys), b_file(kNsys);
  if (!a_file.ok()) GTEST_SKIP() << "no " << kNsys;
  Engine a;
  ASSERT_TRUE(a.load_sqlite("report1.sqlite", &a_file)) << a.last_error();
  CompareSession compare;
  ASSERT_TRUE(compare.load_sqlite("report1 again.sqlite", &b_file)) << compare.last_error();
  EXPECT_TRUE(compare.has_b());
  EXPECT_EQ(compare.b_name(), "report1 again.sqlite");
  EXPECT_EQ(compare.b().store()->events.size(), a.store()->events.size());
  for (OpDiffKey key : {OpDiffKey::kKernel, OpDiffKey::kCategory}) {
    const OpDiff d = compare.diff(a, key);
    EXPECT_TRUE(d.empty()) << op_diff_key_name(key);
    EXPECT_EQ(d.unchanged, op_figures(*a.store(), key).size()) << op_diff_key_name(key);
  }
  EXPECT_GT(compare.diff(a, OpDiffKey::kKernel).unchanged, 0u) << "the export has kernels";
}

TEST(CompareSqlite, AcrossProfilersEveryKernelIsOnItsSide) {
  FileByteReader a_file(kNsys), b_file(kAscend), bad(kAnalysis);
  if (!a_file.ok() || !b_file.ok()) GTEST_SKIP() << "no " << kNsys << " or " << kAscend;
  Engine a;
  ASSERT_TRUE(a.load_sqlite("report1.sqlite", &a_file)) << a.last_error();
  CompareSession compare;
  ASSERT_TRUE(compare.load_sqlite("ascend.db", &b_file)) << compare.last_error();
  const OpDiff d = compare.diff(a, OpDiffKey::kKernel);
  // No kernel name is shared by a CUDA run and an Ascend one.
  EXPECT_TRUE(d.changed.empty());
  uint64_t a_kernels = 0, b_kernels = 0;
  for (const auto& [name, side] : op_figures(*a.store(), OpDiffKey::kKernel))
    a_kernels += side.count;
  for (const auto& [name, side] : op_figures(*compare.b().store(), OpDiffKey::kKernel))
    b_kernels += side.count;
  EXPECT_GT(a_kernels, 0u) << "the Nsight export's CUDA kernels";
  // sqlite3 on the db: 552 TASK rows, 24 of them MEMCPY_ASYNC (copies are not kernels).
  EXPECT_EQ(b_kernels, 552u - 24u) << "the Ascend db's device tasks";
  EXPECT_EQ(total_count(d.removed, false), a_kernels);
  EXPECT_EQ(total_count(d.added, true), b_kernels);
  // A database that is not a profile: refused, the Ascend B stays.
  if (bad.ok()) {
    EXPECT_FALSE(compare.load_sqlite("analysis.db", &bad));
    EXPECT_FALSE(compare.last_error().empty());
    EXPECT_TRUE(compare.has_b());
    EXPECT_EQ(compare.b_name(), "ascend.db");
    EXPECT_EQ(total_count(compare.diff(a, OpDiffKey::kKernel).added, true), b_kernels);
  }
}

}  // namespace
}  // namespace strata
