// SQLite profiles: the reader VFS, the Nsight Systems and Ascend importers on the real files in
// ../shared/data (counts equal a query of the same file through the plain sqlite3 API), and
// hostile databases (cut short, a corrupt page, another kind) ending in a clear message with the
// previous trace kept. Skips the real-file cases when ../shared/data is absent.
#include "core/formats/sqlite/sqlite_import.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "core/formats/sqlite/byte_reader.h"
#include "core/formats/sqlite/sqlite_vfs.h"
#include "engine/engine.h"
#include "import_test_util.h"

namespace strata {
namespace {

const std::string kNsys = testing::shared_path(std::string(testing::kNsysExport));
const std::string kAscend = testing::ascend_db_path();
const std::string kAnalysis = testing::ascend_db_path("analysis.db");

std::vector<uint8_t> read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// An independent count: the plain sqlite3 API on the same bytes (the build's only VFS is the
// reader one, so the bytes are registered with it, but the query is SQLite's own).
int64_t query_count(ByteReader* reader, const std::string& sql) {
  const std::string name = sqlite_vfs_register(reader);
  sqlite3* db = nullptr;
  int64_t n = -1;
  if (sqlite3_open_v2(("file:" + name + "?immutable=1").c_str(), &db,
                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
      n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
  sqlite_vfs_forget(name);
  return n;
}

uint64_t events_with_cat(const TraceStore& s, std::string_view cat) {
  uint64_t n = 0;
  for (size_t e = 0; e < s.events.size(); ++e)
    if (s.strings.get(s.events.cat[e]) == cat) ++n;
  return n;
}

uint64_t events_in_process(const TraceStore& s, std::string_view process) {
  uint64_t n = 0;
  for (const Process& p : s.processes) {
    if (!p.name || s.strings.get(p.name) != process) continue;
    for (uint32_t t : p.tracks)
      if (s.tracks[t].kind == TrackKind::kThread) n += s.tracks[t].event_count;
  }
  return n;
}

TEST(SqliteReader, CachedReaderServesBlocks) {
  constexpr size_t kBlock = CachedByteReader::kBlockBytes;
  std::vector<uint8_t> bytes(kBlock + 168928);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  MemoryByteReader mem(bytes.data(), bytes.size());
  CachedByteReader cached(&mem);
  uint8_t out[5000];
  ASSERT_TRUE(cached.read(kBlock - 72, out, sizeof(out)));  // across a block boundary
  EXPECT_EQ(0, std::memcmp(out, bytes.data() + kBlock - 72, sizeof(out)));
  ASSERT_TRUE(cached.read(kBlock + 428, out, 100));
  EXPECT_EQ(cached.source_reads(), 2u);
  EXPECT_FALSE(cached.read(bytes.size() - 10, out, 100));  // past the end
}

TEST(SqliteImport, NsysCountsEqualTheDatabase) {
  FileByteReader file(kNsys);
  if (!file.ok()) GTEST_SKIP() << "no " << kNsys;
  EXPECT_EQ(sqlite_kind(&file), SqliteKind::kNsys);
  Engine engine;
  ASSERT_TRUE(engine.load_sqlite("report1.sqlite", &file)) << engine.last_error();
  const TraceStore& s = *engine.store();
  const int64_t kernels = query_count(&file, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  const int64_t runtime = query_count(&file, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
  const int64_t memcpy = query_count(&file, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY");
  const int64_t memset = query_count(&file, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET");
  const int64_t nvtx =
      query_count(&file, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)");
  const int64_t launched = query_count(
      &file,
      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId IN (SELECT "
      "correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT correlationId FROM "
      "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT correlationId FROM "
      "CUPTI_ACTIVITY_KIND_MEMSET)");
  ASSERT_EQ(kernels, 18);
  EXPECT_EQ(events_with_cat(s, "kernel"), static_cast<uint64_t>(kernels));
  EXPECT_EQ(events_with_cat(s, "cuda_runtime"), static_cast<uint64_t>(runtime));
  EXPECT_EQ(events_with_cat(s, "gpu_memcpy"), static_cast<uint64_t>(memcpy));
  EXPECT_EQ(events_with_cat(s, "gpu_memset"), static_cast<uint64_t>(memset));
  EXPECT_EQ(events_with_cat(s, "nvtx"), static_cast<uint64_t>(nvtx));
  EXPECT_EQ(s.kernel_launches.rows.size(), static_cast<size_t>(kernels));
  // Every runtime call that launched GPU work has its flow to it.
  EXPECT_EQ(s.flows.size(), static_cast<size_t>(launched));
  bool gpu_named = false;
  for (const Process& p : s.processes)
    gpu_named = gpu_named || (p.name && s.strings.get(p.name) == "GPU 0 NVIDIA H200");
  EXPECT_TRUE(gpu_named);
  // The analyses' GPU work: every kernel, copy and memset, on their device's streams.
  const GpuWorkSet w = find_gpu_work(s);
  ASSERT_EQ(w.devices.size(), 1u);
  uint64_t gpu_events = 0;
  for (const GpuStream& st : w.devices[0].streams) gpu_events += st.events.size();
  EXPECT_EQ(gpu_events, static_cast<uint64_t>(kernels + memcpy + memset));
}

TEST(SqliteImport, AscendCountsEqualTheDatabase) {
  FileByteReader file(kAscend);
  if (!file.ok()) GTEST_SKIP() << "no " << kAscend;
  EXPECT_EQ(sqlite_kind(&file), SqliteKind::kAscend);
  Engine engine;
  ASSERT_TRUE(engine.load_sqlite("ascend_pytorch_profiler_0.db", &file)) << engine.last_error();
  const TraceStore& s = *engine.store();
  EXPECT_EQ(events_in_process(s, "Ascend Hardware"),
            static_cast<uint64_t>(query_count(&file, "SELECT count(*) FROM TASK")));
  EXPECT_EQ(events_in_process(s, "Python"),
            static_cast<uint64_t>(query_count(&file, "SELECT count(*) FROM PYTORCH_API")));
  EXPECT_EQ(events_in_process(s, "CANN"),
            static_cast<uint64_t>(query_count(&file, "SELECT count(*) FROM CANN_API")));
  EXPECT_EQ(events_in_process(s, "HCCL"),
            static_cast<uint64_t>(query_count(&file, "SELECT count(*) FROM COMMUNICATION_OP")));
  // Tasks are named from STRING_IDS through COMPUTE_TASK_INFO.
  const std::string first_kernel_sql =
      "SELECT count(*) FROM TASK t JOIN COMPUTE_TASK_INFO c USING (globalTaskId)";
  EXPECT_GT(query_count(&file, first_kernel_sql), 0);
  EXPECT_GT(s.flows.size(), 0u);
  // The devices' work is what the analyses see as NPU work.
  const GpuWorkSet w = find_gpu_work(s);
  EXPECT_EQ(w.devices.size(), 1u);
}

TEST(SqliteImport, AnalysisDbSaysWhatToOpen) {
  FileByteReader file(kAnalysis);
  if (!file.ok()) GTEST_SKIP() << "no " << kAnalysis;
  Engine engine;
  EXPECT_FALSE(engine.load_sqlite("analysis.db", &file));
  EXPECT_NE(engine.last_error().find("ascend_pytorch_profiler_<rank>.db"), std::string::npos)
      << engine.last_error();
}

// A damaged copy of the nsys export ends in a message, and the trace loaded before stays.
void expect_fails_keeping_trace(std::vector<uint8_t> bytes, const char* what) {
  FileByteReader good(kNsys);
  Engine engine;
  ASSERT_TRUE(engine.load_sqlite("good.sqlite", &good));
  const size_t before = engine.store()->events.size();
  const uint32_t generation = engine.generation();
  MemoryByteReader bad(bytes.data(), bytes.size());
  EXPECT_FALSE(engine.load_sqlite("bad.sqlite", &bad)) << what;
  EXPECT_NE(engine.last_error().find("bad.sqlite: "), std::string::npos) << engine.last_error();
  EXPECT_EQ(engine.store()->events.size(), before) << what;
  EXPECT_EQ(engine.generation(), generation) << what;
}

TEST(SqliteImport, HostileDatabasesFailClearly) {
  const std::vector<uint8_t> bytes = read_all(kNsys);
  if (bytes.empty()) GTEST_SKIP() << "no " << kNsys;
  expect_fails_keeping_trace(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 50), "header cut");
  expect_fails_keeping_trace(std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 3),
                             "cut to a third");
  std::vector<uint8_t> corrupt = bytes;
  // Every page but the first overwritten: the schema's tables point at garbage.
  for (size_t i = 4096; i < corrupt.size(); ++i) corrupt[i] = static_cast<uint8_t>(i * 31 + 5);
  expect_fails_keeping_trace(corrupt, "corrupt pages");
  std::vector<uint8_t> not_db(bytes.begin(), bytes.begin() + 8192);
  not_db[0] = 'X';
  expect_fails_keeping_trace(not_db, "no header");
}

TEST(SqliteImport, CorruptPageAnywhereNeverCrashes) {
  const std::vector<uint8_t> bytes = read_all(kAscend);
  if (bytes.empty()) GTEST_SKIP() << "no " << kAscend;
  // One page at a time garbled: the load either succeeds or says the database is damaged.
  for (size_t page = 1; page * 4096 < bytes.size(); page += 17) {
    std::vector<uint8_t> b = bytes;
    for (size_t i = page * 4096; i < std::min(b.size(), page * 4096 + 4096); ++i)
      b[i] = static_cast<uint8_t>(i * 13 + 1);
    MemoryByteReader r(b.data(), b.size());
    Engine engine;
    if (!engine.load_sqlite("x.db", &r)) {
      EXPECT_FALSE(engine.last_error().empty()) << "page " << page;
    }
  }
}

}  // namespace
}  // namespace strata
