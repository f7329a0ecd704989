// Several Kineto traces in one load (a run's ranks, issue 20 item 4) and the `ranks` analysis
// (item 5), on HTA's two real ranks (sampled_rank-0/1: distributedInfo rank 0 and 1, the same
// pids for their GPUs): one time axis, a section group per rank, each file's pids, flows and
// records kept apart; per-rank figures and the matched collectives equal an independent
// interval computation written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "analysis_table_test_util.h"
#include "core/analysis/ranks.h"
#include "core/formats/json/json_flat.h"
#include "engine/engine.h"
#include "import_test_util.h"

namespace strata {
namespace {

constexpr const char* kRank0 = "pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz";
constexpr const char* kRank1 = "pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz";

using Files = std::vector<std::pair<std::string, std::string>>;

// Feeds each file through the Engine as the engine worker does (load_next_file between them).
bool load_files(Engine* e, const Files& files, size_t chunk = 1 << 16) {
  e->load_begin(files[0].first, files[0].second.size());
  for (size_t f = 0; f < files.size(); ++f) {
    const std::string& bytes = files[f].second;
    if (f > 0 && !e->load_next_file(files[f].first, bytes.size())) continue;
    for (size_t off = 0; off < bytes.size(); off += chunk) {
      const size_t n = std::min(chunk, bytes.size() - off);
      std::memcpy(e->load_buffer(n), bytes.data() + off, n);
      e->load_commit(n);
    }
  }
  return e->load_end();
}

bool read_ranks(std::string* r0, std::string* r1) {
  std::string a, b;
  if (!testing::read_shared(kRank0, &a) || !testing::read_shared(kRank1, &b)) return false;
  return testing::gunzip(a, r0) && testing::gunzip(b, r1);
}

std::string name(const TraceStore& s, StrId id) { return std::string(s.strings.get(id)); }

TEST(KinetoMultiRank, RanksShareOneTimeAxisInSectionGroupsNamedByRank) {
  std::string r0, r1;
  if (!read_ranks(&r0, &r1)) GTEST_SKIP() << "../shared is absent";
  Engine e, one0, one1;
  ASSERT_TRUE(load_files(&e, {{"sampled_rank-0.json", r0}, {"sampled_rank-1.json", r1}}))
      << e.last_error();
  ASSERT_TRUE(load_files(&one0, {{"sampled_rank-0.json", r0}}));
  ASSERT_TRUE(load_files(&one1, {{"sampled_rank-1.json", r1}}));
  const TraceStore& s = *e.store();
  const TraceStore& a = *one0.store();
  const TraceStore& b = *one1.store();
  testing::expect_valid_layout(s);
  EXPECT_TRUE(s.errors.empty()) << s.errors.front();
  ASSERT_EQ(s.files.size(), 2u);
  EXPECT_EQ(s.files[0].rank, 0);
  EXPECT_EQ(s.files[1].rank, 1);
  EXPECT_EQ(s.files[1].stream_base, r0.size());
  EXPECT_EQ(s.files[1].bytes, r1.size());
  EXPECT_EQ(a.files[0].rank, 0);  // one file knows its rank too
  // Every event of both, on one clock: the span covers both ranks' spans.
  EXPECT_EQ(s.events.size(), a.events.size() + b.events.size());
  EXPECT_EQ(s.start_ns, std::min(a.start_ns, b.start_ns));
  EXPECT_EQ(s.end_ns, std::max(a.end_ns, b.end_ns));
  // pid 0..7 are in both files: two processes each, one per rank, named by its group.
  size_t procs = 0;
  std::map<uint32_t, size_t> per_file;
  for (uint32_t p = 0; p < s.processes.size(); ++p) {
    const Process& pr = s.processes[p];
    if (pr.global) continue;
    ++procs;
    ++per_file[pr.file];
    EXPECT_EQ(rank_of_process(s, p), pr.file);
    const std::string prefix = pr.file == 0 ? "rank 0 " : "rank 1 ";
    EXPECT_EQ(name(s, pr.name).rfind(prefix, 0), 0u) << name(s, pr.name);
  }
  size_t procs_a = 0, procs_b = 0;
  for (const Process& p : a.processes) procs_a += !p.global;
  for (const Process& p : b.processes) procs_b += !p.global;
  EXPECT_EQ(procs, procs_a + procs_b);
  EXPECT_EQ(per_file[0], procs_a);
  EXPECT_EQ(per_file[1], procs_b);
  // Rank 0's sections come first, then rank 1's.
  bool in_rank1 = false;
  for (const Process& p : s.processes) {
    if (p.global) continue;
    if (p.file == 1) in_rank1 = true;
    EXPECT_FALSE(in_rank1 && p.file == 0) << "a rank 0 section after rank 1's";
  }
  EXPECT_EQ(rank_name(s, 0), "rank 0");
  EXPECT_EQ(rank_name(s, 1), "rank 1");
  // Flows stay within their file (the same correlation ids would otherwise join ranks).
  EXPECT_EQ(s.flows.size(), a.flows.size() + b.flows.size());
  for (size_t f = 0; f < s.flows.size(); ++f) {
    const uint32_t from = s.tracks[s.events.track[s.flows.from[f]]].process;
    const uint32_t to = s.tracks[s.events.track[s.flows.to[f]]].process;
    EXPECT_EQ(s.processes[from].file, s.processes[to].file) << "flow " << f;
  }
  EXPECT_EQ(s.kernel_launches.rows.size(),
            a.kernel_launches.rows.size() + b.kernel_launches.rows.size());
  // A rank 1 event's record is in rank 1's bytes, at the offset the engine maps it to.
  bool checked = false;
  for (uint32_t ev = 0; ev < s.events.size() && !checked; ++ev) {
    if (s.processes[s.tracks[s.events.track[ev]].process].file != 1 || !s.events.src_len[ev])
      continue;
    uint64_t off = s.events.src_offset[ev];
    ASSERT_EQ(e.source_file(&off), 1u);
    ASSERT_LT(off + s.events.src_len[ev], r1.size() + 1);
    const std::string record = r1.substr(off, s.events.src_len[ev]);
    EXPECT_EQ(record.front(), '{');
    EXPECT_NE(record.find(name(s, s.events.name[ev]).substr(0, 20)), std::string::npos) << record;
    checked = true;
  }
  EXPECT_TRUE(checked);
}

// ---- the ranks analysis against an independent computation ---------------------------------

struct Iv {
  int64_t b, e;
};

std::vector<Iv> merged(std::vector<Iv> v) {
  std::sort(v.begin(), v.end(), [](const Iv& x, const Iv& y) { return x.b < y.b; });
  std::vector<Iv> o;
  for (const Iv& i : v) {
    if (i.e <= i.b) continue;
    if (!o.empty() && i.b <= o.back().e)
      o.back().e = std::max(o.back().e, i.e);
    else
      o.push_back(i);
  }
  return o;
}

int64_t length(const std::vector<Iv>& v) {
  int64_t n = 0;
  for (const Iv& i : v) n += i.e - i.b;
  return n;
}

// |a − b| for merged a and b, by sweeping b's gaps.
int64_t minus_length(const std::vector<Iv>& a, const std::vector<Iv>& b) {
  int64_t n = 0;
  for (const Iv& x : a) {
    int64_t covered = 0;
    for (const Iv& y : b) covered += std::max<int64_t>(0, std::min(x.e, y.e) - std::max(x.b, y.b));
    n += x.e - x.b - covered;
  }
  return n;
}

struct Expected {
  int64_t span = 0, compute = 0, exposed_comm = 0, idle = 0;
  std::vector<std::pair<int64_t, int64_t>> nccl;  // (start, dur) by start
};

// From the raw store: kernels / memcpys / memsets by category, nccl by name.
Expected expected_for(const TraceStore& s, uint32_t file) {
  std::vector<Iv> compute, comm, all;
  Expected x;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (uint32_t ev = 0; ev < s.events.size(); ++ev) {
    if (s.processes[s.tracks[s.events.track[ev]].process].file != file) continue;
    const std::string cat = name(s, s.events.cat[ev]);
    if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;
    const Iv i{s.events.start[ev], s.events.start[ev] + s.events.dur[ev]};
    lo = std::min(lo, i.b);
    hi = std::max(hi, i.e);
    all.push_back(i);
    const bool nccl = name(s, s.events.name[ev]).find("nccl") != std::string::npos;
    if (cat != "gpu_memcpy" && nccl) {
      comm.push_back(i);
      x.nccl.emplace_back(i.b, i.e - i.b);
    } else if (cat != "gpu_memcpy") {
      compute.push_back(i);
    }
  }
  std::sort(x.nccl.begin(), x.nccl.end());
  x.span = hi - lo;
  x.compute = length(merged(compute));
  x.exposed_comm = minus_length(merged(comm), merged(compute));
  x.idle = x.span - length(merged(all));
  return x;
}

using Row = testing::TableRow;
std::string cell(const testing::TableRow& r, const std::vector<std::string>& cols,
                 const char* key) {
  return testing::table_cell(r, cols, key);
}

std::vector<Row> rows_of(const std::string& json, std::vector<std::string>* columns) {
  return testing::table_rows(json, columns);
}
double num(const Row& r, const std::vector<std::string>& cols, const char* key) {
  return testing::table_number(r, cols, key);
}

TEST(KinetoMultiRank, RanksAnalysisEqualsAnIndependentComputation) {
  std::string r0, r1;
  if (!read_ranks(&r0, &r1)) GTEST_SKIP() << "../shared is absent";
  Engine e;
  ASSERT_TRUE(load_files(&e, {{"sampled_rank-0.json", r0}, {"sampled_rank-1.json", r1}}));
  const TraceStore& s = *e.store();
  const std::string list = e.query_json("analysis", "{}");
  EXPECT_NE(list.find(R"("name":"ranks","title":"Ranks","available":true)"), std::string::npos)
      << list;
  const std::string json = e.query_json("analysis", R"({"name":"ranks"})");
  std::vector<std::string> cols;
  const std::vector<Row> rows = rows_of(json, &cols);
  ASSERT_GE(rows.size(), 3u) << json;
  const Expected x[2] = {expected_for(s, 0), expected_for(s, 1)};
  for (int r = 0; r < 2; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(cell(rows[r], cols, "name"), "rank " + std::to_string(r));
    EXPECT_EQ(rows[r].parent, -1);
    EXPECT_EQ(num(rows[r], cols, "span"), static_cast<double>(x[r].span));
    EXPECT_EQ(num(rows[r], cols, "compute"), static_cast<double>(x[r].compute));
    EXPECT_EQ(num(rows[r], cols, "exposed_comm"), static_cast<double>(x[r].exposed_comm));
    EXPECT_EQ(num(rows[r], cols, "idle"), static_cast<double>(x[r].idle));
    EXPECT_EQ(num(rows[r], cols, "span"),
              num(rows[r], cols, "compute") + num(rows[r], cols, "exposed_comm") +
                  num(rows[r], cols, "exposed_memcpy") + num(rows[r], cols, "idle"));
  }
  // Two ranks: the modified z-score is ±0.6745 (no straggler by z); by spread, the rank that
  // computes longer when they differ by more than 5 %.
  const double spread = std::abs(static_cast<double>(x[0].compute - x[1].compute)) /
                        ((x[0].compute + x[1].compute) / 2.0);
  const int slower = x[1].compute > x[0].compute ? 1 : 0;
  for (int r = 0; r < 2; ++r) {
    EXPECT_NEAR(std::abs(num(rows[r], cols, "zscore")), 0.6745, 1e-9);
    EXPECT_EQ(cell(rows[r], cols, "straggler"), spread > 0.05 && r == slower ? "spread" : "");
  }
  // Collectives: the k-th nccl kernel of rank 0 with the k-th of rank 1 (no Seq in these files).
  ASSERT_EQ(x[0].nccl.size(), x[1].nccl.size());
  const Row& group = rows[2];
  EXPECT_EQ(cell(group, cols, "name"), "Collectives (" + std::to_string(x[0].nccl.size()) + ")");
  std::vector<std::pair<int64_t, int64_t>> want;  // (latency, skew), by the earlier start
  std::vector<int64_t> first;
  for (size_t k = 0; k < x[0].nccl.size(); ++k) {
    const auto& p = x[0].nccl[k];
    const auto& q = x[1].nccl[k];
    want.emplace_back(std::min(p.second, q.second), std::abs(p.first - q.first));
    first.push_back(std::min(p.first, q.first));
  }
  std::vector<size_t> order(want.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t i, size_t j) { return first[i] < first[j]; });
  ASSERT_EQ(rows.size(), 3 + want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const Row& row = rows[3 + i];
    EXPECT_EQ(row.parent, 2);
    EXPECT_EQ(num(row, cols, "ranks_present"), 2);
    EXPECT_EQ(num(row, cols, "latency"), static_cast<double>(want[order[i]].first)) << i;
    EXPECT_EQ(num(row, cols, "skew"), static_cast<double>(want[order[i]].second)) << i;
    // No message size in these files: bandwidth is empty, with the reason.
    EXPECT_EQ(cell(row, cols, "busbw"), "");
  }
  EXPECT_NE(json.find("gives no message size"), std::string::npos);
}

TEST(KinetoMultiRank, OneRankGetsASentence) {
  std::string r0, r1;
  if (!read_ranks(&r0, &r1)) GTEST_SKIP() << "../shared is absent";
  Engine e;
  ASSERT_TRUE(load_files(&e, {{"sampled_rank-0.json", r0}}));
  const std::string json = e.query_json("analysis", R"({"name":"ranks"})");
  EXPECT_NE(json.find("one rank (rank 0) in this trace"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("rows":[])"), std::string::npos) << json;
}

// Bandwidth from the args PyTorch writes with communication metadata, NCCL-tests' formulas.
TEST(KinetoMultiRank, CollectivesMatchBySeqWithBusBandwidth) {
  auto rank = [](int r, int64_t t0) {
    std::string j = R"({"distributedInfo":{"backend":"nccl","rank":)" + std::to_string(r) +
                    R"(,"world_size":2},"traceEvents":[)";
    // seq 7 then seq 8; rank 1 starts seq 8 late. all_reduce of 1M floats over 2 ranks.
    for (int k = 0; k < 2; ++k) {
      const int64_t ts = t0 + k * 1000 + (r == 1 && k == 1 ? 50 : 0);
      const int64_t dur = 100 + r * 10;
      if (k) j += ',';
      j += R"({"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32","pid":0,"tid":7,)"
           R"("ts":)" +
           std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
           R"(,"args":{"Collective name":"allreduce","In msg nelems":1048576,)"
           R"("Out msg nelems":1048576,"Group size":2,"dtype":"Float","Process Group Name":"0",)"
           R"("Seq":)" +
           std::to_string(7 + k) + "}}";
      j += R"(,{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":8,"ts":)" +
           std::to_string(ts - 200) + R"(,"dur":150})";
    }
    return j + "]}";
  };
  Engine e;
  ASSERT_TRUE(load_files(&e, {{"a.json", rank(0, 10000)}, {"b.json", rank(1, 10000)}}, 7))
      << e.last_error();
  const std::string json = e.query_json("analysis", R"({"name":"ranks"})");
  std::vector<std::string> cols;
  const std::vector<Row> rows = rows_of(json, &cols);
  ASSERT_EQ(rows.size(), 5u) << json;
  EXPECT_NE(json.find("by process group, name and sequence number"), std::string::npos);
  const Row& second = rows[4];
  EXPECT_EQ(cell(second, cols, "name"), "allreduce (group 0) seq 8");
  EXPECT_EQ(cell(second, cols, "late_rank"), "rank 1");
  EXPECT_EQ(num(second, cols, "latency"), 100e3);  // µs in the file, ns here
  EXPECT_EQ(num(second, cols, "skew"), 50e3);
  const double bytes = 1048576.0 * 4;
  EXPECT_EQ(num(second, cols, "bytes"), bytes);
  EXPECT_DOUBLE_EQ(num(second, cols, "algbw"), bytes / 100e-6);
  EXPECT_DOUBLE_EQ(num(second, cols, "busbw"), bytes / 100e-6 * 2 * (2 - 1) / 2);
  EXPECT_EQ(num(rows[1], cols, "late_count"), 1);  // rank 1 was last at seq 8
}

}  // namespace
}  // namespace strata
