// The device memory the Memory tab sets a device's peak against: Kineto's deviceProperties
// (totalGlobalMem per GPU id), read back from the file's head in the engine's memory pass. The
// real trace's numbers are read here independently from its text. An Ascend db names each
// device's chip but no HBM size: the summary says so instead of a share.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "core/formats/json/json_flat.h"
#include "core/formats/sqlite/byte_reader.h"
#include "core/formats/sqlite/sqlite_vfs.h"
#include "engine/engine.h"
#include "engine/memory_devices.h"
#include "engine_test_util.h"
#include "import_test_util.h"

namespace strata {
namespace {
using testing::gunzip;
using testing::read_shared;

void load_with_memory(Engine* e, const std::string& name, const std::string& bytes) {
  ASSERT_TRUE(testing::load_trace(e, name, bytes)) << e->last_error();
  if (e->memory_scan_begin() > 0) {
    for (size_t off = 0; off < bytes.size(); off += 65536) {
      const size_t n = std::min<size_t>(65536, bytes.size() - off);
      std::memcpy(e->load_buffer(n), bytes.data() + off, n);
      if (e->memory_scan_feed(e->load_buffer(n), n)) break;
    }
    e->memory_scan_end();
  }
}

TEST(KinetoDeviceMemory, ReadsEveryGpuOfTheHeadAndNothingFromACutList) {
  const std::string head =
      "{\"schemaVersion\": 1, \"deviceProperties\" : [\n"
      "  {\"id\": 0, \"name\": \"A [x]\", \"totalGlobalMem\": 1000, \"numSms\": 8},\n"
      "  {\"id\": 3, \"totalGlobalMem\": 4096e3},\n"
      "  {\"name\": \"no id\", \"totalGlobalMem\": 5},\n"
      "  {\"id\": 4}\n"
      "], \"traceEvents\": [";
  const std::vector<MemoryCapacity> got = kineto_device_memory(head);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].device, "GPU 0");
  EXPECT_EQ(got[0].bytes, 1000);
  EXPECT_EQ(got[1].device, "GPU 3");
  EXPECT_EQ(got[1].bytes, 4096e3);
  EXPECT_NE(got[0].source.find("totalGlobalMem"), std::string::npos);
  // The head read back ends inside the list: no guess from part of it.
  EXPECT_TRUE(kineto_device_memory(head.substr(0, head.find("{\"id\": 4}"))).empty());
  EXPECT_TRUE(kineto_device_memory("{\"traceEvents\": []}").empty());
}

// Per GPU id, totalGlobalMem, found in the text by plain search.
std::map<int, double> expected_capacity(const std::string& text) {
  std::map<int, double> out;
  const size_t list = text.find("\"deviceProperties\"");
  const size_t end = text.find(']', list);
  for (size_t at = text.find("\"id\":", list); at < end; at = text.find("\"id\":", at + 1)) {
    const int id = std::stoi(text.substr(at + 5, 20));
    const size_t mem = text.find("\"totalGlobalMem\":", at);
    if (mem < end) out[id] = std::stod(text.substr(mem + 17, 30));
  }
  return out;
}

TEST(KinetoDeviceMemory, MemorySummarySetsTheRealTracesPeakAgainstTotalGlobalMem) {
  const char* rel =
      "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/"
      "worker0.1623143566756.pt.trace.json.gz";
  std::string gz, text;
  if (!read_shared(rel, &gz)) GTEST_SKIP() << "../shared/data absent";
  ASSERT_TRUE(gunzip(gz, &text));
  const std::map<int, double> want = expected_capacity(text);
  ASSERT_FALSE(want.empty());
  Engine e;
  load_with_memory(&e, rel, gz);
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(e.memory_query_json("memory", "{}"), &lines, &err)) << err;
  // Per device of the summary: name, peak, capacity, share.
  struct Dev {
    std::string name;
    double peak = -1, capacity = -1, share = -1;
  };
  std::vector<Dev> devs;
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] != "devices") return;
    if (l.depth == 1) devs.emplace_back();
    if (l.depth != 2 || devs.empty()) return;
    if (k[2] == "name") devs.back().name = l.value;
    if (k[2] == "peakBytes") devs.back().peak = json_number(l);
    if (k[2] == "capacityBytes") devs.back().capacity = json_number(l);
    if (k[2] == "peakShare") devs.back().share = json_number(l);
  });
  size_t gpus = 0;
  for (const Dev& d : devs) {
    if (!d.name.starts_with("GPU ")) continue;
    ++gpus;
    const auto w = want.find(std::stoi(d.name.substr(4)));
    ASSERT_NE(w, want.end()) << d.name;
    EXPECT_EQ(d.capacity, w->second) << d.name;
    EXPECT_GT(d.peak, 0);
    EXPECT_DOUBLE_EQ(d.share, d.peak / w->second) << d.name;
  }
  EXPECT_GT(gpus, 0u);
}

// The chip names of NPU_INFO by device id, from SQLite's own query of the file.
std::map<int64_t, std::string> npu_chips(ByteReader* reader) {
  std::map<int64_t, std::string> out;
  const std::string name = sqlite_vfs_register(reader);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(("file:" + name + "?immutable=1").c_str(), &db,
                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT id, name FROM NPU_INFO", -1, &s, nullptr) == SQLITE_OK)
      while (sqlite3_step(s) == SQLITE_ROW)
        out[sqlite3_column_int64(s, 0)] = reinterpret_cast<const char*>(sqlite3_column_text(s, 1));
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
  sqlite_vfs_forget(name);
  return out;
}

TEST(AscendDeviceMemory, TheDbNamesTheChipAndTheSummarySaysTheMemoryIsNotStated) {
  const std::string path = testing::ascend_db_path();
  FileByteReader file(path);
  if (!file.ok()) GTEST_SKIP() << "no " << path;
  const std::map<int64_t, std::string> chips = npu_chips(&file);
  ASSERT_FALSE(chips.empty());
  Engine e;
  ASSERT_TRUE(e.load_sqlite("ascend_pytorch_profiler_0.db", &file)) << e.last_error();
  std::vector<JsonLine> lines;
  std::string err;
  ASSERT_TRUE(json_flatten(e.memory_query_json("memory", "{}"), &lines, &err)) << err;
  std::map<std::string, std::string> why;
  std::map<std::string, bool> has_bytes;
  std::string device;
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (k[0] != "devices" || l.depth != 2) return;
    if (k[2] == "name") device = l.value;
    if (k[2] == "capacityWhy") why[device] = l.value;
    if (k[2] == "capacityBytes") has_bytes[device] = true;
  });
  for (const auto& [id, chip] : chips) {
    const std::string name = "NPU:" + std::to_string(id);
    ASSERT_TRUE(why.count(name)) << name;
    EXPECT_NE(why[name].find(chip), std::string::npos) << why[name];
    EXPECT_NE(why[name].find("not its HBM size"), std::string::npos) << why[name];
    EXPECT_FALSE(has_bytes[name]) << "no capacity is made up for " << name;
  }
}

}  // namespace
}  // namespace strata
