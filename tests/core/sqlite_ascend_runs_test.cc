// The Ascend profiler db's Runs views (Operator, Kernel, Distributed) and Memory tab model: each
// table computed from the db equals an independent query of the same file through the plain
// sqlite3 API; a folder with the db and the text export is read from the db alone.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "core/formats/sqlite/ascend_db_runs.h"
#include "core/formats/sqlite/byte_reader.h"
#include "core/formats/sqlite/sqlite_vfs.h"
#include "core/memory/ascend_db_memory.h"
#include "core/runs/run_discovery.h"
#include "core/runs/run_plan.h"
#include "core/runs/run_stats.h"
#include "engine/engine.h"
#include "engine/runs_session.h"
#include "import_test_util.h"

namespace strata {
namespace {

const std::string kAscend = testing::ascend_db_path();

// One number from SQLite's own query of the file (not Strata's reading of it).
double query(ByteReader* reader, const std::string& sql) {
  const std::string name = sqlite_vfs_register(reader);
  sqlite3* db = nullptr;
  double v = std::nan("");
  if (sqlite3_open_v2(("file:" + name + "?immutable=1").c_str(), &db,
                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
      v = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
  sqlite_vfs_forget(name);
  return v;
}

const char* kOpRows =
    " FROM PYTORCH_API p WHERE p.type = (SELECT id FROM ENUM_API_TYPE WHERE name = 'op')";

struct AscendDb : ::testing::Test {
  void SetUp() override {
    file = std::make_unique<FileByteReader>(kAscend);
    if (!file->ok()) GTEST_SKIP() << "no " << kAscend;
    std::string error;
    db = SqliteDb::open(file.get(), &error);
    ASSERT_TRUE(db) << error;
    ASSERT_TRUE(ascend_db_run_files(db.get(), &files, &error)) << error;
  }
  std::unique_ptr<FileByteReader> file;
  std::unique_ptr<SqliteDb> db;
  AscendDbRunFiles files;
};

TEST_F(AscendDb, KernelViewIsEveryComputeTask) {
  std::string error;
  const runs::KernelTable k = runs::ascend_kernel_table(files.kernel_details_csv, "", "", &error);
  EXPECT_EQ(error, "");
  const double tasks =
      query(file.get(), "SELECT count(*) FROM TASK JOIN COMPUTE_TASK_INFO USING (globalTaskId)");
  const double total_us = query(
      file.get(),
      "SELECT sum(endNs - startNs) / 1000.0 FROM TASK JOIN COMPUTE_TASK_INFO USING (globalTaskId)");
  ASSERT_GT(tasks, 0);
  EXPECT_EQ(k.details.size(), static_cast<size_t>(tasks));
  double sum = 0;
  uint64_t count = 0;
  for (const runs::KernelRow& r : k.rows) {
    sum += r.total_us;
    count += r.count;
  }
  EXPECT_EQ(count, static_cast<uint64_t>(tasks));
  EXPECT_NEAR(sum, total_us, 1e-3);
  // Core types and steps as the text export writes them.
  double ai_vector = query(
      file.get(),
      "SELECT count(*) FROM TASK JOIN COMPUTE_TASK_INFO c USING (globalTaskId) JOIN STRING_IDS s "
      "ON s.id = c.taskType WHERE s.value = 'AI_VECTOR_CORE'");
  uint64_t vector_count = 0;
  for (const runs::KernelGroup& g : k.by_core_type)
    if (g.key == "AI_VECTOR_CORE") vector_count = g.count;
  EXPECT_EQ(vector_count, static_cast<uint64_t>(ai_vector));
  EXPECT_TRUE(k.missing.empty());
  EXPECT_EQ(k.details[0].step, "50");
}

TEST_F(AscendDb, OperatorViewIsEveryPyTorchOp) {
  std::string error;
  const runs::OperatorTable t =
      runs::ascend_operator_table(files.operator_details_csv, false, &error);
  EXPECT_EQ(error, "");
  const double calls = query(file.get(), std::string("SELECT count(*)") + kOpRows);
  ASSERT_GT(calls, 0);
  uint64_t n = 0;
  double host_total = 0, host_self = 0, device_self = 0;
  for (const runs::OperatorRow& r : t.rows) {
    n += r.calls;
    host_total += r.host_total_us;
    host_self += r.host_self_us;
    device_self += r.device_self_us;
  }
  EXPECT_EQ(n, static_cast<uint64_t>(calls));
  EXPECT_NEAR(host_total,
              query(file.get(), std::string("SELECT sum(p.endNs - p.startNs) / 1000.0") + kOpRows),
              1e-2);
  EXPECT_LT(host_self, host_total);  // nested ops are taken out of their parents' self time
  // Device self time: the tasks each op reached through CONNECTION_IDS.
  EXPECT_NEAR(device_self,
              query(file.get(),
                    "SELECT sum(t.endNs - t.startNs) / 1000.0 FROM PYTORCH_API p JOIN "
                    "CONNECTION_IDS c ON c.id = p.connectionId JOIN TASK t ON t.connectionId = "
                    "c.connectionId WHERE p.type = (SELECT id FROM ENUM_API_TYPE WHERE name = "
                    "'op')"),
              1e-2);
  EXPECT_GT(device_self, 0);
  EXPECT_TRUE(t.missing.empty());
}

TEST_F(AscendDb, DistributedViewIsTheOverlapAnalysisAndCommunicationOps) {
  std::string error;
  const runs::DistributedTable t = runs::ascend_card_distributed(
      0, files.step_trace_time_csv, files.communication_json, "", &error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(t.rows.size(), 1u);
  const runs::DistributedRow& r = t.rows[0];
  auto clipped = [&](int type) {
    return query(file.get(),
                 "SELECT sum(min(o.endNs, s.endNs) - max(o.startNs, s.startNs)) / 1000.0 FROM "
                 "OVERLAP_ANALYSIS o, STEP_TIME s WHERE o.endNs > s.startNs AND o.startNs < "
                 "s.endNs AND o.type = " +
                     std::to_string(type));
  };
  EXPECT_NEAR(r.compute_us, clipped(0), 1e-2);
  EXPECT_NEAR(r.communication_us, clipped(1), 1e-2);
  EXPECT_NEAR(r.free_us, clipped(3), 1e-2);
  EXPECT_NEAR(r.overlap_us, clipped(1) - clipped(2), 1e-2);
  uint64_t calls = 0;
  double elapse = 0;
  for (const runs::CommOpRow& op : r.comm_ops) {
    calls += op.calls;
    elapse += op.elapse_us;
  }
  EXPECT_EQ(calls,
            static_cast<uint64_t>(query(file.get(), "SELECT count(*) FROM COMMUNICATION_OP")));
  EXPECT_NEAR(elapse,
              query(file.get(), "SELECT sum(endNs - startNs) / 1000.0 FROM COMMUNICATION_OP"),
              1e-2);
  EXPECT_NEAR(r.wait_us,
              query(file.get(),
                    "SELECT sum(t.endNs - t.startNs) / 1000.0 FROM COMMUNICATION_TASK_INFO c JOIN "
                    "TASK t USING (globalTaskId) JOIN STRING_IDS s ON s.id = c.taskType WHERE "
                    "s.value = 'Notify_Wait'"),
              1e-2);
}

TEST_F(AscendDb, MemoryModelHasTheOperatorAllocations) {
  MemoryData m;
  ASSERT_TRUE(ascend_db_memory(db.get(), &m));
  memory_finish(&m);
  EXPECT_EQ(m.allocations.size(),
            static_cast<size_t>(query(file.get(), "SELECT count(*) FROM OP_MEMORY")));
  double bytes = 0;
  size_t unreleased = 0;
  for (size_t i = 0; i < m.allocations.size(); ++i) {
    bytes += m.allocations.bytes[i];
    unreleased += m.allocations.release_ts[i] == kNoRelease;
    EXPECT_EQ(m.allocations.device[i], "NPU:0");
  }
  EXPECT_EQ(bytes, query(file.get(), "SELECT sum(size) FROM OP_MEMORY"));
  EXPECT_EQ(unreleased,
            static_cast<size_t>(
                query(file.get(), "SELECT count(*) FROM OP_MEMORY WHERE releaseTime IS NULL")));
  bool pta = false;
  for (const MemorySeries& s : m.series)
    if (s.device == "NPU:0" && s.component == "PTA")
      pta = s.size() ==
            static_cast<size_t>(query(file.get(),
                                      "SELECT count(*) FROM MEMORY_RECORD r JOIN STRING_IDS s ON "
                                      "s.id = r.component WHERE s.value = 'PTA'"));
  EXPECT_TRUE(pta);

  // The engine's Memory tab after opening the db holds the same allocations.
  Engine engine;
  ASSERT_TRUE(engine.load_sqlite("ascend_pytorch_profiler_0.db", file.get()))
      << engine.last_error();
  EXPECT_EQ(engine.memory().allocations.size(), m.allocations.size());
}

TEST_F(AscendDb, RunsSessionReadsThePutDb) {
  std::ifstream f(kAscend, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), {});
  Engine engine;
  RunsSession runs(engine);
  for (const char* key : {"a/profiler.db", "card0/profiler.db"}) {
    std::copy(bytes.begin(), bytes.end(), runs.buffer(bytes.size()));
    runs.put(key, bytes.size());
  }
  const std::string json = runs.ascend_stats_json(false, "", 1);
  EXPECT_NE(json.find("\"errors\":[]"), std::string::npos) << json.substr(0, 300);
  EXPECT_NE(json.find("trans_TransData_0"), std::string::npos);
  EXPECT_NE(json.find("hcom_allReduce"), std::string::npos);
}

TEST(AscendDbDiscovery, TheDbIsReadInsteadOfTheCsvBesideIt) {
  const std::string out = "run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
  const std::vector<std::string> paths = {
      out + "operator_details.csv", out + "kernel_details.csv",
      out + "trace_view.json",      out + "ascend_pytorch_profiler_0.db",
      out + "analysis.db",          out + "operator_memory.csv"};
  const RunDiscovery d = discover_runs(paths);
  ASSERT_EQ(d.runs.size(), 1u);
  ASSERT_EQ(d.runs[0].profiles.size(), 1u);
  const DiscoveredProfile& p = d.runs[0].profiles[0];
  EXPECT_EQ(p.get(RunFile::kProfilerDb), 3);
  EXPECT_EQ(p.get(RunFile::kOperatorDetails), -1);
  EXPECT_EQ(p.get(RunFile::kTrace), -1);
  EXPECT_EQ(p.note, "read ascend_pytorch_profiler_0.db; the CSV export beside it was not read");
  EXPECT_EQ(runs_trace_inputs(p, true), std::vector<int32_t>{3});
  for (RunView v : {RunView::kOperator, RunView::kKernel, RunView::kTrace, RunView::kMemory,
                    RunView::kDistributed})
    EXPECT_TRUE(run_view_availability(d, d.runs[0], 0, v).enabled) << run_view_name(v);
  int cards = 0;
  const auto files = runs_ascend_part_files(d, RunsSelection{}, RunsPart::kOperators, &cards);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].first, "a/profiler.db");
  const auto dist = runs_ascend_part_files(d, RunsSelection{}, RunsPart::kDistributed, &cards);
  ASSERT_EQ(dist.size(), 1u);
  EXPECT_EQ(dist[0].first, "card0/profiler.db");
  EXPECT_NE(run_discovery_json(d).find("\"note\":\"read ascend_pytorch_profiler_0.db"),
            std::string::npos);
  // A db alone is a profile too (no note about a CSV export).
  const RunDiscovery alone = discover_runs({out + "ascend_pytorch_profiler_0.db"});
  ASSERT_EQ(alone.runs.size(), 1u);
  EXPECT_EQ(alone.runs[0].profiles[0].note, "read ascend_pytorch_profiler_0.db");
}

}  // namespace
}  // namespace strata
