// The advisor's Ascend rules (AI CPU tasks, slow link, small packets, byte alignment) on
// torch_npu trace_view.json records written here, one set that triggers each rule and one that
// does not, and a trace without the inputs (not checked, naming them); then on the real exports
// of ../shared/data (skipped when absent), whose figures equal an independent count of the same
// files: kernel_details.csv's AI CPU rows, the HCCL tasks' sizes read straight from the JSON,
// and the profiler database's COMMUNICATION_TASK_INFO through SQLite's own query.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "core/formats/sqlite/byte_reader.h"
#include "core/formats/sqlite/sqlite_vfs.h"
#include "engine/advisor/advisor.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"

namespace strata {
namespace {

using Files = std::vector<std::pair<std::string, std::string>>;

// Each file through the Engine as the engine worker does (load_next_file between them).
bool load_files(Engine* e, const Files& files) {
  e->load_begin(files[0].first, files[0].second.size());
  for (size_t f = 0; f < files.size(); ++f) {
    const std::string& bytes = files[f].second;
    if (f > 0 && !e->load_next_file(files[f].first, bytes.size())) return false;
    std::memcpy(e->load_buffer(bytes.size()), bytes.data(), bytes.size());
    e->load_commit(bytes.size());
  }
  return e->load_end();
}

AdvisorReport report_of(const Engine& e) {
  return advise(advisor_default_rules(), advisor_figures(e), e.store()->files[0].format);
}
const AdvisorFinding* finding(const AdvisorReport& r, const std::string& id) {
  for (const AdvisorFinding& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}
const AdvisorUnchecked* unchecked(const AdvisorReport& r, const std::string& id) {
  for (const AdvisorUnchecked& u : r.not_checked)
    if (u.id == id) return &u;
  return nullptr;
}
bool passed(const AdvisorReport& r, const std::string& id) {
  return std::find(r.passed.begin(), r.passed.end(), id) != r.passed.end();
}
double figure(const Engine& e, const std::string& name) {
  const AdvisorFigureSet f = advisor_figures(e);
  const AdvisorFigure* x = f.find(name);
  return x ? x->value : std::nan("");
}

// One rank's trace_view.json: an AI CPU task of `aicpu_us`, an AI core task, and an HCCL
// Memcpy of `bytes` over SDMA taking `copy_us`, beside a notify that moves nothing.
std::string rank_trace(double aicpu_us, int64_t bytes, double copy_us) {
  std::ostringstream o;
  // The j delimiter: the args' keys hold )" ("size(Byte)").
  o << R"j([{"ph":"M","pid":7,"name":"process_name","args":{"name":"Ascend Hardware"}},)j"
    << R"j({"ph":"M","pid":9,"name":"process_name","args":{"name":"HCCL"}},)j"
    << R"j({"ph":"X","pid":7,"tid":2,"ts":"100.5","dur":)j" << aicpu_us
    << R"j(,"name":"IndexPut","args":{"Model Id":1,"Task Type":"AI_CPU","Task Id":3}},)j"
    << R"j({"ph":"X","pid":7,"tid":2,"ts":"200","dur":50,"name":"MatMul",)j"
    << R"j("args":{"Task Type":"AI_CORE"}},)j"
    << R"j({"ph":"X","pid":9,"tid":1,"ts":"300","dur":)j" << copy_us
    << R"j(,"name":"Memcpy","args":{"task type":"Memcpy","src rank":0,"dst rank":1,)j"
    << R"j("transport type":"SDMA","size(Byte)":)j" << bytes
    << R"j(,"link type":"HCCS","bandwidth(GB/s)":1.5}},)j"
    << R"j({"ph":"X","pid":9,"tid":1,"ts":"400","dur":1,"name":"Notify_Wait",)j"
    << R"j("args":{"task type":"Notify_Wait","transport type":"LOCAL","size(Byte)":0}}])j";
  return o.str();
}

TEST(AdvisorAscend, SlowAicpuSmallUnalignedPacketsAndASlowRankTrigger) {
  Engine e;
  // Rank 1 moves its 1000 bytes in twice rank 0's time: half the bandwidth.
  ASSERT_TRUE(load_files(&e, {{"rank0/trace_view.json", rank_trace(30, 1000, 1)},
                              {"rank1/trace_view.json", rank_trace(30, 1000, 2)}}))
      << e.last_error();
  const AdvisorReport r = report_of(e);
  const AdvisorFinding* aicpu = finding(r, "aicpu_tasks");
  ASSERT_TRUE(aicpu);
  EXPECT_NE(aicpu->text.find("2 AI CPU tasks"), std::string::npos) << aicpu->text;
  EXPECT_DOUBLE_EQ(aicpu->stake_ns, 60'000);
  ASSERT_FALSE(aicpu->evidence.empty());
  EXPECT_EQ(aicpu->evidence[0].link.name, "IndexPut");
  // (1 - 0.5) / 0.75 GB/s.
  const AdvisorFinding* link = finding(r, "slow_link");
  ASSERT_TRUE(link);
  EXPECT_NEAR(figure(e, "ascend.comm_link_spread_pct"), 0.5 / 0.75 * 100, 1e-6);
  EXPECT_EQ(link->evidence.size(), 2u);
  const AdvisorFinding* small = finding(r, "small_packets");
  ASSERT_TRUE(small);
  EXPECT_DOUBLE_EQ(figure(e, "ascend.comm_small_packet_pct"), 100);
  const AdvisorFinding* align = finding(r, "unaligned_packets");
  ASSERT_TRUE(align);
  EXPECT_DOUBLE_EQ(figure(e, "ascend.comm_unaligned_count"), 2);
  ASSERT_FALSE(align->evidence.empty());
  EXPECT_EQ(align->evidence[0].link.name, "Memcpy");
  EXPECT_NE(align->evidence[0].label.find("1000 B over SDMA (HCCS)"), std::string::npos);
}

TEST(AdvisorAscend, FastAicpuBigAlignedPacketsAndEvenRanksPass) {
  Engine e;
  const int64_t big = 32 << 20;  // 32 MiB: over 16 MB, a multiple of 512
  ASSERT_TRUE(load_files(&e, {{"rank0/trace_view.json", rank_trace(10, big, 2000)},
                              {"rank1/trace_view.json", rank_trace(10, big, 2040)}}))
      << e.last_error();
  const AdvisorReport r = report_of(e);
  for (const char* id : {"aicpu_tasks", "slow_link", "small_packets", "unaligned_packets"})
    EXPECT_TRUE(passed(r, id)) << id;
  EXPECT_DOUBLE_EQ(figure(e, "ascend.aicpu_count"), 2);
  EXPECT_NEAR(figure(e, "ascend.comm_link_spread_pct"),
              (1 / 2000.0 - 1 / 2040.0) / ((1 / 2000.0 + 1 / 2040.0) / 2) * 100, 1e-6);
}

TEST(AdvisorAscend, OneRankOrNoTaskArgsIsNotChecked) {
  Engine one;
  ASSERT_TRUE(load_files(&one, {{"trace_view.json", rank_trace(30, 1000, 1)}}));
  const AdvisorReport r = report_of(one);
  EXPECT_TRUE(finding(r, "aicpu_tasks"));
  EXPECT_TRUE(finding(r, "unaligned_packets"));
  const AdvisorUnchecked* link = unchecked(r, "slow_link");
  ASSERT_TRUE(link);
  EXPECT_NE(link->why.find("several ranks"), std::string::npos) << link->why;

  Engine bare;
  ASSERT_TRUE(load_files(&bare, {{"t.json", R"([
    {"ph":"M","pid":7,"name":"process_name","args":{"name":"Ascend Hardware"}},
    {"ph":"X","pid":7,"tid":1,"ts":0,"dur":10,"name":"MatMul"}])"}}));
  const AdvisorReport b = report_of(bare);
  ASSERT_TRUE(unchecked(b, "aicpu_tasks"));
  EXPECT_NE(unchecked(b, "aicpu_tasks")->why.find("Task Type"), std::string::npos);
  for (const char* id : {"slow_link", "small_packets", "unaligned_packets"}) {
    ASSERT_TRUE(unchecked(b, id)) << id;
    EXPECT_NE(unchecked(b, id)->why.find("size(Byte)"), std::string::npos) << id;
  }
}

// --- real exports ---

// The select query's count for one evidence link (a name, on some tracks).
uint64_t selected(Engine& e, const AnalysisLink& l) {
  std::string args = "{\"name\":";
  json_append_string(&args, l.name);
  args += ",\"tracks\":[";
  for (size_t i = 0; i < l.tracks.size(); ++i) args += (i ? "," : "") + std::to_string(l.tracks[i]);
  args += "]}";
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(e.query_json("select", args), &lines, &err)) return 0;
  for (const JsonLine& x : lines)
    if (x.depth == 0 && x.key == "count") return static_cast<uint64_t>(json_number(x));
  return 0;
}

const char* kText = "ascend/msinsight/text_level1/rank%d_ascend_pt/ASCEND_PROFILER_OUTPUT/%s";
std::string text_path(int rank, const char* file) {
  char buf[256];
  std::snprintf(buf, sizeof buf, kText, rank, file);
  return buf;
}

// A CSV line's fields, quotes honoured ("" inside quotes is one quote).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

// kernel_details.csv's AI CPU rows (its "Accelerator Core" or older "Task Type" column), those
// over 20 µs, and its AI core rows (AI_CORE and AI_VECTOR_CORE: trace_view.json calls both
// AI_CORE).
void csv_aicpu(const std::string& csv, int* all, int* slow, int* aicore) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> head = csv_fields(line);
  int type = -1, dur = -1;
  for (size_t i = 0; i < head.size(); ++i) {
    if (head[i] == "Accelerator Core" || head[i] == "Task Type") type = static_cast<int>(i);
    if (head[i] == "Duration(us)") dur = static_cast<int>(i);
  }
  ASSERT_GE(type, 0);
  ASSERT_GE(dur, 0);
  *all = *slow = *aicore = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = csv_fields(line);
    if (f.size() <= static_cast<size_t>(std::max(type, dur))) continue;
    *aicore += f[type] == "AI_CORE" || f[type] == "AI_VECTOR_CORE";
    if (f[type] != "AI_CPU") continue;
    ++*all;
    *slow += std::stod(f[dur]) > 20;
  }
}

struct Moves {
  double bytes = 0, small = 0;
  int unaligned = 0;
};
// The HCCL tasks' SDMA / RDMA sizes, read from the JSON records themselves.
Moves json_moves(const std::string& trace) {
  std::vector<JsonLine> lines;
  std::string err;
  EXPECT_TRUE(json_flatten(trace, &lines, &err)) << err;
  Moves m;
  std::string event, transport;
  double size = -1;
  auto flush = [&] {
    if (size > 0 && (transport == "SDMA" || transport == "RDMA")) {
      m.bytes += size;
      if (size < (transport == "RDMA" ? 1e6 : 16e6)) m.small += size;
      m.unaligned += std::fmod(size, 512) != 0;
    }
    transport.clear();
    size = -1;
  };
  // The trace is an array of events or {"traceEvents": [...]}: an event's args are the lines
  // under its "args"; the key before "args" tells one event from the next.
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    const size_t d = keys.size();
    if (d < 3 || keys[d - 2] != "args") return;
    if (keys[d - 3] != event) {
      flush();
      event = keys[d - 3];
    }
    if (l.key == "transport type") transport = l.value;
    if (l.key == "size(Byte)") size = json_number(l);
  });
  flush();
  return m;
}

TEST(AdvisorAscendRealFiles, TextExportFiguresEqualTheFilesOwnCounts) {
  const std::string t0 = text_path(0, "trace_view.json"), t1 = text_path(1, "trace_view.json");
  std::string r0, r1, csv;
  if (!testing::read_shared(t0, &r0) || !testing::read_shared(t1, &r1) ||
      !testing::read_shared(text_path(0, "kernel_details.csv"), &csv))
    GTEST_SKIP() << t0;
  int all = 0, slow = 0, aicore = 0;
  csv_aicpu(csv, &all, &slow, &aicore);

  Engine e;
  ASSERT_TRUE(load_files(&e, {{t0, r0}, {t1, r1}})) << e.last_error();
  Engine one;
  ASSERT_TRUE(load_files(&one, {{t0, r0}})) << one.last_error();
  EXPECT_EQ(figure(one, "ascend.aicpu_count"), all);
  EXPECT_EQ(figure(one, "ascend.aicpu_slow_count"), slow);
  // The device tasks' types were read: as many AI core tasks as the CSV has.
  ASSERT_GT(aicore, 0);
  int typed_aicore = 0;
  for (const AscendTaskArgs& a : one.store()->ascend_tasks.rows)
    typed_aicore += a.task_type == "AI_CORE";
  EXPECT_EQ(typed_aicore, aicore);

  const Moves m0 = json_moves(r0), m1 = json_moves(r1);
  ASSERT_GT(m0.bytes, 0);
  EXPECT_DOUBLE_EQ(figure(one, "ascend.comm_bytes"), m0.bytes);
  EXPECT_NEAR(figure(one, "ascend.comm_small_packet_pct"), m0.small / m0.bytes * 100, 1e-9);
  EXPECT_EQ(figure(one, "ascend.comm_unaligned_count"), m0.unaligned);
  EXPECT_DOUBLE_EQ(figure(e, "ascend.comm_bytes"), m0.bytes + m1.bytes);
  EXPECT_EQ(figure(e, "ascend.comm_unaligned_count"), m0.unaligned + m1.unaligned);
  // Two ranks: the spread is computed (one rank alone: not checked).
  EXPECT_FALSE(std::isnan(figure(e, "ascend.comm_link_spread_pct")));
  EXPECT_TRUE(std::isnan(figure(one, "ascend.comm_link_spread_pct")));

  // All four are checked, and every finding's evidence opens events through the select query
  // the Report view's row clicks send.
  const AdvisorReport r = report_of(e);
  for (const char* id : {"aicpu_tasks", "slow_link", "small_packets", "unaligned_packets"})
    EXPECT_FALSE(unchecked(r, id)) << id;
  ASSERT_TRUE(finding(r, "unaligned_packets"));
  for (const AdvisorFinding& x : r.findings)
    for (const AdvisorEvidence& ev : x.evidence)
      if (!ev.link.name.empty()) {
        EXPECT_GT(selected(e, ev.link), 0u) << x.id << ": " << ev.label;
      }
}

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

TEST(AdvisorAscendRealFiles, DatabaseFiguresEqualItsTables) {
  const std::string path = testing::ascend_db_path();
  auto file = std::make_unique<FileByteReader>(path);
  if (!file->ok()) GTEST_SKIP() << path;
  Engine e;
  ASSERT_TRUE(e.load_sqlite("ascend_pytorch_profiler_0.db", file.get())) << e.last_error();
  const std::string moves =
      " FROM COMMUNICATION_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId WHERE "
      "c.size > 0 AND c.transportType IN (SELECT id FROM ENUM_HCCL_TRANSPORT_TYPE WHERE name "
      "IN ('SDMA', 'RDMA'))";
  const double bytes = query(file.get(), "SELECT sum(c.size)" + moves);
  ASSERT_GT(bytes, 0);
  EXPECT_DOUBLE_EQ(figure(e, "ascend.comm_bytes"), bytes);
  EXPECT_EQ(figure(e, "ascend.comm_unaligned_count"),
            query(file.get(), "SELECT count(*)" + moves + " AND c.size % 512 != 0"));
  const double small =
      query(file.get(),
            "SELECT sum(c.size)" + moves +
                " AND c.size < CASE c.transportType WHEN (SELECT id FROM "
                "ENUM_HCCL_TRANSPORT_TYPE WHERE name = 'RDMA') THEN 1000000 ELSE 16000000 END");
  EXPECT_NEAR(figure(e, "ascend.comm_small_packet_pct"), small / bytes * 100, 1e-9);
  const std::string aicpu =
      " FROM TASK t JOIN STRING_IDS s ON s.id = t.taskType WHERE (s.value LIKE '%AI_CPU%' OR "
      "s.value LIKE '%AICPU%')";
  EXPECT_EQ(figure(e, "ascend.aicpu_count"), query(file.get(), "SELECT count(*)" + aicpu));
  EXPECT_EQ(figure(e, "ascend.aicpu_slow_count"),
            query(file.get(), "SELECT count(*)" + aicpu + " AND t.endNs - t.startNs > 20000"));
}

}  // namespace
}  // namespace strata
