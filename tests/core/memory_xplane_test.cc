// XProf xplane memory events against the real files: each allocator's samples, peak of
// bytes_allocated and its time, decoded here independently with the protoc-generated classes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/memory/memory_query.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

struct Want {
  size_t samples = 0, allocs = 0;
  double peak = -1;
  int64_t peak_ns = 0;
};

std::map<std::string, Want> expected(const pb::XSpace& space) {
  struct Sample {
    int64_t ns;
    double allocated;
    std::string allocator;
    bool alloc;
  };
  std::vector<Sample> all;
  for (const pb::XPlane& p : space.planes()) {
    for (const pb::XLine& l : p.lines()) {
      for (const pb::XEvent& e : l.events()) {
        auto m = p.event_metadata().find(e.metadata_id());
        if (m == p.event_metadata().end()) continue;
        const std::string& name = m->second.name();
        if (name != "MemoryAllocation" && name != "MemoryDeallocation") continue;
        Sample s{0, NAN, "", name == "MemoryAllocation"};
        const int64_t ps = l.timestamp_ns() * 1000 + e.offset_ps();
        s.ns = (ps + 500) / 1000;
        for (const pb::XStat& st : e.stats()) {
          auto sm = p.stat_metadata().find(st.metadata_id());
          if (sm == p.stat_metadata().end()) continue;
          const std::string& sn = sm->second.name();
          if (sn == "bytes_allocated")
            s.allocated = st.has_int64_value() ? static_cast<double>(st.int64_value())
                                               : static_cast<double>(st.uint64_value());
          if (sn == "allocator_name")
            s.allocator = st.has_ref_value()
                              ? p.stat_metadata().at(static_cast<int64_t>(st.ref_value())).name()
                              : st.str_value();
        }
        if (!std::isnan(s.allocated)) all.push_back(s);
      }
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Sample& a, const Sample& b) { return a.ns < b.ns; });
  std::map<std::string, Want> out;
  for (const Sample& s : all) {
    Want& w = out[s.allocator];
    ++w.samples;
    w.allocs += s.alloc;
    if (s.allocated > w.peak) w.peak = s.allocated, w.peak_ns = s.ns;
  }
  return out;
}

// Streams one file's bytes through the engine's memory scan in 64 KB pieces, as
// the engine worker does, until the scan says it has what it needs.
void feed_memory_scan(Engine* e, const std::string& bytes) {
  for (size_t off = 0; off < bytes.size(); off += 65536) {
    const size_t n = std::min<size_t>(65536, bytes.size() - off);
    std::memcpy(e->load_buffer(n), bytes.data() + off, n);
    if (e->memory_scan_feed(e->load_buffer(n), n)) break;
  }
}

TEST(XplaneMemory, RealFilesAllocatorPeaksMatchTheFile) {
  const char* files[] = {"xplane/xprof/34.83.195.179_6003.xplane.pb",
                         "xplane/tracelens/jax08_gemm/tw003.xplane.pb",
                         "xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb"};
  int found = 0;
  for (const char* f : files) {
    std::string bytes;
    if (!read_shared(f, &bytes)) continue;
    ++found;
    pb::XSpace space;
    ASSERT_TRUE(space.ParseFromString(bytes));
    const auto want = expected(space);
    ASSERT_FALSE(want.empty()) << f;
    Engine e;
    e.load_begin(f, bytes.size());
    std::memcpy(e.load_buffer(bytes.size()), bytes.data(), bytes.size());
    e.load_commit(bytes.size());
    ASSERT_TRUE(e.load_end());
    ASSERT_GT(e.memory_scan_begin(), 0u);
    feed_memory_scan(&e, bytes);
    e.memory_scan_end();
    const MemoryData& m = e.memory();
    for (const auto& [allocator, w] : want) {
      const uint32_t s = memory_primary_series(m, allocator);
      ASSERT_NE(s, kNone) << f << " " << allocator;
      EXPECT_EQ(m.series[s].size(), w.samples) << f << " " << allocator;
      const MemoryPeak p = series_peak(m.series[s], false);
      ASSERT_TRUE(p.valid);
      EXPECT_DOUBLE_EQ(p.bytes, w.peak) << f << " " << allocator;
      EXPECT_EQ(p.ts, w.peak_ns) << f << " " << allocator;
      size_t allocs = 0;
      for (size_t i = 0; i < m.allocations.size(); ++i)
        allocs += m.allocations.device[i] == allocator;
      EXPECT_EQ(allocs, w.allocs) << f << " " << allocator;
    }
    EXPECT_NE(e.memory_query_json("memory", "{}").find("\"xplane\""), std::string::npos);
  }
  if (!found) GTEST_SKIP() << "no xplanes in ../shared/data";
}

// Several hosts in one load (one xplane each, the second gzip-compressed): every host's
// allocators are read back, each file through its own decompressor.
TEST(XplaneMemory, EveryHostOfAMultiHostLoadIsRead) {
  std::string a, b;
  if (!read_shared("xplane/xprof/34.83.195.179_6003.xplane.pb", &a) ||
      !read_shared("xplane/tracelens/jax08_gemm/tw003.xplane.pb", &b))
    GTEST_SKIP() << "xplanes absent from ../shared/data";
  std::string gz;
  if (!compress_with("gzip -c", b, &gz)) GTEST_SKIP() << "no gzip tool";
  pb::XSpace sa, sb;
  ASSERT_TRUE(sa.ParseFromString(a));
  ASSERT_TRUE(sb.ParseFromString(b));
  const auto want_a = expected(sa), want_b = expected(sb);

  Engine e;
  const std::vector<std::pair<std::string, std::string>> files = {{"a.xplane.pb", a},
                                                                  {"b.xplane.pb.gz", gz}};
  e.load_begin(files[0].first, a.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& bytes = files[i].second;
    if (i > 0) {
      ASSERT_TRUE(e.load_next_file(files[i].first, bytes.size()));
    }
    std::memcpy(e.load_buffer(bytes.size()), bytes.data(), bytes.size());
    e.load_commit(bytes.size());
  }
  ASSERT_TRUE(e.load_end());
  ASSERT_GT(e.memory_scan_begin(), 0u);
  ASSERT_EQ(e.memory_scan_file_count(), 2u);
  for (size_t i = 0; i < files.size(); ++i) {  // as the engine worker (web/worker/) does
    if (i > 0) e.memory_scan_file(static_cast<uint32_t>(i));
    const std::string& bytes = files[i].second;
    feed_memory_scan(&e, bytes);
  }
  e.memory_scan_end();
  const MemoryData& m = e.memory();
  int checked_b = 0;
  for (const auto* want : {&want_a, &want_b}) {
    const auto* other = want == &want_a ? &want_b : &want_a;
    for (const auto& [allocator, w] : *want) {
      if (other->count(allocator)) continue;  // the same allocator name on both hosts
      const uint32_t s = memory_primary_series(m, allocator);
      ASSERT_NE(s, kNone) << allocator;
      EXPECT_EQ(m.series[s].size(), w.samples) << allocator;
      EXPECT_DOUBLE_EQ(series_peak(m.series[s], false).bytes, w.peak) << allocator;
      checked_b += want == &want_b;
    }
  }
  EXPECT_GT(checked_b, 0) << "no allocator of the second host to check";
}

}  // namespace
}  // namespace strata
