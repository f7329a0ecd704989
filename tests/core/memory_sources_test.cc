// Memory sources against the real files in ../shared/data: Ascend memory_record.csv and
// operator_memory.csv, and Kineto [memory] instants read back through the engine. Every
// expected number is computed here independently, from the file's text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>

#include "core/formats/ascend_csv/csv_reader.h"
#include "core/memory/ascend_memory.h"
#include "core/memory/memory_query.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"

namespace strata {
namespace {
using testing::gunzip;
using testing::read_shared;

const char* kAscendDirs[] = {
    "ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/",
    "ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/",
    "ascend/msinsight/text_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/",
};

std::vector<std::string> split_plain(const std::string& line) {  // these files have no quotes
  std::vector<std::string> out;
  std::string text = line;
  if (!text.empty() && text.back() == '\r') text.pop_back();
  std::stringstream ss(text);
  std::string f;
  while (std::getline(ss, f, ',')) out.push_back(f);
  if (!text.empty() && text.back() == ',') out.emplace_back();
  return out;
}

TEST(CsvReader, QuotesTabsCrlfAndExactMicroseconds) {
  CsvTable t;
  std::string err;
  ASSERT_TRUE(
      csv_parse("\xEF\xBB\xBFName,Size(KB)\r\n\"a, \"\"b\"\"\",1.5\t\r\n\r\nc,\n", &t, &err))
      << err;
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.column("size(kb)"), 1);
  EXPECT_EQ(t.cell(0, 0), "a, \"b\"");
  EXPECT_EQ(t.cell(0, 1), "1.5");
  EXPECT_EQ(t.cell(1, 1), "");
  EXPECT_EQ(t.cell(1, 7), "");
  int64_t ns = 0;
  ASSERT_TRUE(csv_parse_us_to_ns("1736408883573957.920\t", &ns));
  EXPECT_EQ(ns, 1736408883573957920);
  ASSERT_TRUE(csv_parse_us_to_ns("12.3456", &ns));
  EXPECT_EQ(ns, 12345);
  EXPECT_FALSE(csv_parse_us_to_ns("", &ns));
  EXPECT_FALSE(csv_parse_us_to_ns("1e5", &ns));
  CsvTable bad;
  EXPECT_FALSE(csv_parse("a,b\n\"open", &bad, &err));
  EXPECT_NE(err.find("never closes"), std::string::npos);
}

TEST(AscendMemory, MemoryRecordPeaksMatchTheFile) {
  int files = 0;
  for (const char* dir : kAscendDirs) {
    std::string text;
    if (!read_shared(std::string(dir) + "memory_record.csv", &text)) continue;
    ++files;
    MemoryData m;
    std::string err;
    ASSERT_TRUE(parse_ascend_memory_csv(text, &m, &err)) << err;
    memory_finish(&m);
    // Independently: per component, the rows, the max reserved and the first time it is hit.
    struct Expect {
      size_t rows = 0;
      double peak = -1;
      std::string peak_ts;
      double peak_alloc = -1;
    };
    std::map<std::pair<std::string, std::string>, Expect> want;  // (device, component)
    std::stringstream ss(text);
    std::string line;
    std::getline(ss, line);
    while (std::getline(ss, line)) {
      std::vector<std::string> f = split_plain(line);
      if (f.size() < 7) continue;
      Expect& e = want[{f[6], f[0]}];
      ++e.rows;
      double r = std::stod(f[3]);
      if (r > e.peak) e.peak = r, e.peak_ts = f[1];
      if (!f[2].empty()) e.peak_alloc = std::max(e.peak_alloc, std::stod(f[2]));
    }
    ASSERT_EQ(m.series.size(), want.size()) << dir;
    for (const MemorySeries& s : m.series) {
      ASSERT_TRUE(want.count({s.device, s.component})) << s.device << " " << s.component;
      const Expect& e = want[{s.device, s.component}];
      EXPECT_EQ(s.size(), e.rows) << s.component;
      MemoryPeak p = series_peak(s, true);
      ASSERT_TRUE(p.valid);
      EXPECT_DOUBLE_EQ(p.bytes, e.peak * 1024 * 1024) << s.component;
      int64_t ts = 0;
      ASSERT_TRUE(csv_parse_us_to_ns(e.peak_ts, &ts));
      EXPECT_EQ(p.ts, ts) << s.component;
      MemoryPeak a = series_peak(s, false);
      EXPECT_EQ(a.valid, e.peak_alloc >= 0) << s.component;
      if (a.valid) {
        EXPECT_DOUBLE_EQ(a.bytes, e.peak_alloc * 1024 * 1024) << s.component;
      }
    }
  }
  if (!files) GTEST_SKIP() << "no Ascend memory_record.csv in ../shared/data";
}

TEST(AscendMemory, OperatorMemoryRowsSumsAndUnreleased) {
  int files = 0;
  for (const char* dir : kAscendDirs) {
    std::string text;
    if (!read_shared(std::string(dir) + "operator_memory.csv", &text)) continue;
    ++files;
    MemoryData m;
    std::string err;
    ASSERT_TRUE(parse_ascend_memory_csv(text, &m, &err)) << err;
    size_t rows = 0, unreleased = 0;
    double kb = 0, max_kb = 0;
    std::stringstream ss(text);
    std::string line;
    std::getline(ss, line);
    while (std::getline(ss, line)) {
      std::vector<std::string> f = split_plain(line);
      if (f.size() < 4) continue;
      ++rows;
      kb += std::stod(f[1]);
      max_kb = std::max(max_kb, std::stod(f[1]));
      unreleased += f[3].find_first_not_of(" \t\r") == std::string::npos;
    }
    ASSERT_EQ(m.allocations.size(), rows) << dir;
    double sum = 0, mx = 0;
    size_t open = 0;
    for (size_t i = 0; i < m.allocations.size(); ++i) {
      sum += m.allocations.bytes[i];
      mx = std::max(mx, m.allocations.bytes[i]);
      open += m.allocations.release_ts[i] == kNoRelease;
      if (m.allocations.release_ts[i] != kNoRelease) {
        EXPECT_GE(m.allocations.release_ts[i], m.allocations.alloc_ts[i]);
      }
    }
    EXPECT_DOUBLE_EQ(sum, kb * 1024);
    EXPECT_DOUBLE_EQ(mx, max_kb * 1024);
    EXPECT_EQ(open, unreleased);
    EXPECT_GT(unreleased, 0u);  // these profiles end with buffers still held
  }
  if (!files) GTEST_SKIP() << "no Ascend operator_memory.csv in ../shared/data";
}

TEST(AscendMemory, RejectsOtherCsvs) {
  MemoryData m;
  std::string err;
  EXPECT_FALSE(parse_ascend_memory_csv("Step ID,Computing,Communication\n1,2,3\n", &m, &err));
  EXPECT_NE(err.find("not an Ascend memory CSV"), std::string::npos);
  EXPECT_EQ(ascend_csv_kind("Name,Size(KB),Allocation Time(us),Release Time(us),Device Type\n"),
            AscendCsvKind::kOperatorMemory);
  EXPECT_EQ(ascend_csv_kind("{\"traceEvents\":[]}"), AscendCsvKind::kOther);
}

void load_with_memory(Engine* e, const std::string& name, const std::string& bytes) {
  ASSERT_TRUE(testing::load_trace(e, name, bytes)) << e->last_error();
  if (e->memory_scan_begin() > 0) {
    for (size_t off = 0; off < bytes.size(); off += 12345) {  // odd chunks: records split
      const size_t n = std::min<size_t>(12345, bytes.size() - off);
      std::memcpy(e->load_buffer(n), bytes.data() + off, n);
      if (e->memory_scan_feed(e->load_buffer(n), n)) break;
    }
    e->memory_scan_end();
  }
}

// Independent reading of the [memory] instants of a Kineto file's text: per device, the count,
// the first maximum of Total Allocated and its ts (µs text, converted like the CSV times).
struct KinetoExpect {
  size_t samples = 0;
  double peak = -1;
  int64_t peak_ns = 0;
};
std::map<std::string, KinetoExpect> expected_kineto(const std::string& text) {
  struct Sample {
    int64_t ns;
    std::string dev, total, bytes;
  };
  std::vector<Sample> all;
  for (size_t p = text.find("\"[memory]\""); p != std::string::npos;
       p = text.find("\"[memory]\"", p + 1)) {
    const size_t obj_end = text.find('}', text.find("\"args\"", p));
    const std::string_view rec =
        std::string_view(text).substr(p, obj_end - p + 1);  // this event only
    auto field = [&](const char* key) {
      size_t k = rec.find(std::string("\"") + key + "\"");
      if (k == std::string_view::npos) return std::string();
      k = rec.find(':', k) + 1;
      size_t e = rec.find_first_of(",}\n", k);
      std::string v(rec.substr(k, e - k));
      v.erase(0, v.find_first_not_of(' '));
      v.erase(v.find_last_not_of(' ') + 1);
      return v;
    };
    const std::string type = field("Device Type"), id = field("Device Id");
    Sample s{0,
             type == "0"   ? "CPU"
             : type == "1" ? "GPU " + id
             : type == "6" ? "HIP " + id
                           : "other",
             field("Total Allocated"), field("Bytes")};
    csv_parse_us_to_ns(field("ts"), &s.ns);
    all.push_back(s);
  }
  // In time order; files without totals (2021) count the running sum of Bytes per device.
  std::stable_sort(all.begin(), all.end(),
                   [](const Sample& a, const Sample& b) { return a.ns < b.ns; });
  std::map<std::string, KinetoExpect> out;
  std::map<std::string, double> running;
  for (const Sample& s : all) {
    KinetoExpect& e = out[s.dev];
    ++e.samples;
    const double a = !s.total.empty() ? std::stod(s.total) : (running[s.dev] += std::stod(s.bytes));
    if (a > e.peak) e.peak = a, e.peak_ns = s.ns;
  }
  return out;
}

TEST(KinetoMemory, RealTracesPeaksMatchTheFile) {
  const char* files[] = {"pytorch_kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                         "pytorch_kineto/tracelens/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                         "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_4/"
                         "worker0.1623213129365.pt.trace.json.gz"};
  int found = 0;
  for (const char* f : files) {
    std::string gz, text;
    if (!read_shared(f, &gz)) continue;
    ++found;
    ASSERT_TRUE(gunzip(gz, &text)) << f;
    const auto want = expected_kineto(text);
    ASSERT_FALSE(want.empty()) << f;
    Engine e;
    load_with_memory(&e, f, gz);  // compressed: the scan decompresses again
    const MemoryData& m = e.memory();
    for (const auto& [dev, w] : want) {
      uint32_t s = memory_primary_series(m, dev);
      ASSERT_NE(s, kNone) << f << " " << dev;
      EXPECT_EQ(m.series[s].size(), w.samples) << f << " " << dev;
      MemoryPeak p = series_peak(m.series[s], false);
      ASSERT_TRUE(p.valid);
      EXPECT_DOUBLE_EQ(p.bytes, w.peak) << f << " " << dev;
      EXPECT_NEAR(static_cast<double>(p.ts), static_cast<double>(w.peak_ns), 1.0)
          << f << " " << dev;
    }
    // Every allocation pairs an alloc with a later free of its address, or is flagged open
    // (the 2021 file has no addresses: no allocation rows).
    if (text.find("\"Addr\"") != std::string::npos) {
      EXPECT_GT(m.allocations.size(), 0u);
    }
    for (size_t i = 0; i < m.allocations.size(); ++i) {
      EXPECT_GT(m.allocations.bytes[i], 0);
      if (m.allocations.release_ts[i] != kNoRelease) {
        EXPECT_GE(m.allocations.release_ts[i], m.allocations.alloc_ts[i]);
      }
    }
    // The plain file gives the same data (the scan reads spans directly).
    Engine plain;
    load_with_memory(&plain, "plain.json", text);
    ASSERT_EQ(plain.memory().series.size(), m.series.size());
    for (size_t i = 0; i < m.series.size(); ++i)
      EXPECT_EQ(plain.memory().series[i].allocated, m.series[i].allocated);
    // The summary query reports the same peak.
    const std::string j = e.memory_query_json("memory", "{}");
    EXPECT_NE(j.find("\"pending\":false"), std::string::npos);
    EXPECT_NE(j.find("\"kineto\""), std::string::npos) << j.substr(0, 300);
  }
  if (!found) GTEST_SKIP() << "no Kineto traces with [memory] in ../shared/data";
}

TEST(EngineMemory, AscendCsvOpensAloneThenMergesOnTopOfATrace) {
  std::string rec, ops;
  if (!read_shared(std::string(kAscendDirs[1]) + "memory_record.csv", &rec) ||
      !read_shared(std::string(kAscendDirs[1]) + "operator_memory.csv", &ops))
    GTEST_SKIP() << "no Ascend CSVs in ../shared/data";
  Engine e;
  load_with_memory(&e, "memory_record.csv", rec);
  EXPECT_EQ(e.generation(), 1u);
  EXPECT_NE(e.summary_json().find("ascend-csv"), std::string::npos);
  const size_t series = e.memory().series.size();
  EXPECT_GT(series, 0u);
  load_with_memory(&e, "operator_memory.csv", ops);  // adds allocations, keeps the series
  EXPECT_EQ(e.memory().series.size(), series);
  EXPECT_GT(e.memory().allocations.size(), 0u);
  const std::string live = e.memory_query_json("memory_live", "{\"device\":\"NPU:0\",\"t\":1e18}");
  EXPECT_NE(live.find("\"groups\":[{"), std::string::npos) << live.substr(0, 200);
  // A Kineto-like trace, then a CSV on top: the trace stays, its memory gains the CSV's.
  const std::string trace =
      R"({"traceEvents":[{"ph":"X","name":"step","pid":1,"tid":1,"ts":1,"dur":5}]})";
  load_with_memory(&e, "t.json", trace);
  const uint32_t gen = e.generation();
  load_with_memory(&e, "operator_memory.csv", ops);
  EXPECT_TRUE(e.last_load_merged());
  EXPECT_EQ(e.generation(), gen);
  EXPECT_EQ(e.store()->events.size(), 1u);
  EXPECT_GT(e.memory().allocations.size(), 0u);
  // A CSV that is not a memory file fails cleanly and keeps the trace.
  e.load_begin("step_trace_time.csv", 10);
  const std::string other = "Component,Timestamp(us)\nx,\"open\n";
  std::memcpy(e.load_buffer(other.size()), other.data(), other.size());
  e.load_commit(other.size());
  EXPECT_FALSE(e.load_end());
  EXPECT_EQ(e.store()->events.size(), 1u);
}

TEST(EngineMemory, RangeQueryGivesExactPeaksPerColumn) {
  // 30k [memory] samples with one spike: at 50 columns over the whole trace the spike's
  // column still reports it.
  std::string t = "{\"traceEvents\":[";
  for (int i = 0; i < 30000; ++i) {
    const int alloc = i == 23210 ? 999999 : 1000 + (i % 97);
    t +=
        (i ? ",\n" : "") +
        std::string("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":") +
        std::to_string(i) + ",\"args\":{\"Total Allocated\":" + std::to_string(alloc) +
        ",\"Total Reserved\":2000000,\"Bytes\":1,\"Addr\":" + std::to_string(i) +
        ",\"Device Type\":1,\"Device Id\":0}}";
  }
  t += "]}";
  Engine e;
  load_with_memory(&e, "mem.json", t);
  const std::string s = e.memory_query_json("memory", "{}");
  EXPECT_NE(s.find("\"peakBytes\":999999"), std::string::npos) << s.substr(0, 300);
  EXPECT_NE(s.find("\"peakNs\":23210000"), std::string::npos) << s.substr(0, 300);
  EXPECT_NE(s.find("\"samples\":30000"), std::string::npos);
  const std::string r = e.memory_query_json(
      "memory_range", "{\"device\":\"GPU 0\",\"t0\":0,\"t1\":30000000,\"px\":50}");
  EXPECT_NE(r.find("999999"), std::string::npos);
  EXPECT_EQ(r.find("999999"), r.rfind("999999"));  // in one column only
}

}  // namespace
}  // namespace strata
