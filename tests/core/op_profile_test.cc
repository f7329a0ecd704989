// op_profile, hlo_stats and roofline on a TPU-shaped XSpace written with the protoc classes:
// XLA Modules / XLA Ops / Steps rows, ops whose event metadata carry hlo_category, flops,
// bytes_accessed, long_name, deduplicated_name and a program id above 2^63, one op nested in
// another, bad and missing stats, and the plane's peak stats.
#include "engine/analysis/op_profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/formats/xplane/xplane_tables.h"
#include "engine/analysis/hlo_stats.h"
#include "engine/analysis/op_metrics.h"
#include "engine/analysis/roofline.h"
#include "engine/query_args.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::PlaneWriter;
namespace pb = testing::pb;

constexpr uint64_t kProgram = (uint64_t{1} << 63) + 5;  // a JS Number would round it
constexpr int64_t kUs = 1000 * 1000;                    // ps

struct OpDef {
  const char* name;
  const char* category;
  double flops;  // < 0: no stat
  double bytes;  // < 0: no stat
  const char* dedup;
  bool bad_flops = false;  // a string where a number belongs
};

const OpDef kOps[] = {
    {"fusion.1", "convolution fusion", 2e9, 1e6, "fusion.1"},
    {"fusion.2", "convolution fusion", 2e9, 1e6, "fusion.1"},
    {"copy.3", "data formatting", 0, 4e6, ""},
    {"while.1", "control flow", -1, -1, ""},
    {"add.5", "non-fusion elementwise", 0, 100, "", true},
};

const OpDef& def(const std::string& name) {
  for (const OpDef& d : kOps)
    if (name == d.name) return d;
  ADD_FAILURE() << name;
  return kOps[0];
}

// (op, start µs, duration µs) on the XLA Ops row; add.5 nests in while.1.
struct OpEvent {
  const char* op;
  int64_t start_us, dur_us;
};
const OpEvent kEvents[] = {
    {"fusion.1", 0, 10}, {"fusion.1", 20, 10}, {"fusion.2", 40, 10},
    {"copy.3", 60, 2},   {"while.1", 70, 20},  {"add.5", 75, 5},
};

std::string tpu_space() {
  pb::XSpace space;
  PlaneWriter w(&space, "/device:TPU:0", 1);
  w.stat(w.plane(), "peak_teraflops_per_second")->set_double_value(100);
  w.stat(w.plane(), "peak_hbm_bw_gigabytes_per_second")->set_double_value(1000);
  for (const OpDef& d : kOps) {
    pb::XEventMetadata* m = w.meta(d.name);
    w.stat_ref(m, "hlo_category", d.category);
    w.stat_str(m, "long_name", std::string("%") + d.name + " = f32[8,128] op(...)");
    w.stat_uint(m, "program_id", kProgram);
    if (d.bad_flops)
      w.stat_str(m, "flops", "many");
    else if (d.flops >= 0)
      w.stat_uint(m, "flops", static_cast<uint64_t>(d.flops));
    if (d.bytes >= 0) w.stat_uint(m, "bytes_accessed", static_cast<uint64_t>(d.bytes));
    if (*d.dedup) w.stat_str(m, "deduplicated_name", d.dedup);
    w.stat_str(m, "tf_op", std::string("jit(step)/") + d.name);
  }
  pb::XLine* modules = w.line(1, "XLA Modules", 1000);
  w.event(modules, "jit_step(" + std::to_string(kProgram) + ")", 0, 95 * kUs);
  pb::XLine* ops = w.line(2, "XLA Ops", 1000);
  for (const OpEvent& e : kEvents) w.event(ops, e.op, e.start_us * kUs, e.dur_us * kUs);
  pb::XLine* steps = w.line(3, "Steps", 1000);
  w.event(steps, "0", 0, 95 * kUs);
  return testing::serialize(space);
}

QueryArgs args_of(const std::string& json) {
  QueryArgs a;
  std::string err;
  EXPECT_TRUE(a.parse(json, &err)) << err;
  return a;
}

size_t column(const AnalysisTable& t, const std::string& key) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == key) return i;
  ADD_FAILURE() << "no column " << key;
  return 0;
}

const AnalysisRow* row_named(const AnalysisTable& t, const std::string& name, size_t col = 0) {
  for (const AnalysisRow& r : t.rows)
    if (r.cells[col].kind == AnalysisCell::Kind::kText && r.cells[col].text == name) return &r;
  return nullptr;
}

double num(const AnalysisRow& r, size_t c) {
  EXPECT_EQ(r.cells[c].kind, AnalysisCell::Kind::kNumber) << r.cells[c].why;
  return r.cells[c].number;
}

class OpProfileTpu : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(testing::engine_load(&engine_, tpu_space())); }
  const TraceStore& store() const { return *engine_.store(); }
  Engine engine_;
};

TEST_F(OpProfileTpu, CategoryTotalsEqualASumOverTheXlaOpsRow) {
  const AnalysisTable t = op_profile_table(engine_, args_of("{}"));
  ASSERT_TRUE(t.errors.empty()) << t.errors[0];
  // The independent sum: every event of the XLA Ops track, by the category the fixture gave.
  const int64_t track = testing::find_track(store(), "/device:TPU:0", "XLA Ops");
  ASSERT_GE(track, 0);
  std::map<std::string, double> expected;
  size_t events = 0;
  for (size_t i = 0; i < store().events.size(); ++i) {
    if (store().events.track[i] != static_cast<uint32_t>(track)) continue;
    expected[def(std::string(store().strings.get(store().events.name[i]))).category] +=
        static_cast<double>(store().events.dur[i]);
    ++events;
  }
  EXPECT_EQ(events, std::size(kEvents));
  const size_t time = column(t, "time"), cat = column(t, "category");
  for (const auto& [category, ns] : expected) {
    const AnalysisRow* r = row_named(t, category);
    ASSERT_NE(r, nullptr) << category;
    EXPECT_EQ(r->cells[cat].text, category);
    EXPECT_DOUBLE_EQ(num(*r, time), ns) << category;
    ASSERT_GE(r->parent, 0);
    EXPECT_EQ(t.rows[r->parent].parent, -1);  // a category is a program's child
  }
}

TEST_F(OpProfileTpu, ProgramIdsStayExactAndLinkTheModule) {
  const AnalysisTable t = op_profile_table(engine_, args_of("{}"));
  const std::string program = std::to_string(kProgram);
  ASSERT_FALSE(t.rows.empty());
  EXPECT_EQ(t.rows[0].cells[0].text, "jit_step(" + program + ")");
  EXPECT_EQ(t.rows[0].link.program_id, program);
  EXPECT_EQ(t.rows[0].link.module, "jit_step");
  const AnalysisTable h = hlo_stats_table(engine_, args_of("{}"));
  ASSERT_EQ(h.rows.size(), std::size(kOps));
  for (const AnalysisRow& r : h.rows) {
    EXPECT_EQ(r.cells[column(h, "program_id")].text, program);
    EXPECT_EQ(r.link.program_id, program);
    EXPECT_EQ(r.link.op, r.link.name);
    EXPECT_FALSE(r.link.tracks.empty());
  }
}

TEST_F(OpProfileTpu, DuplicatesGroupAndSelfTimeSubtractsNestedOps) {
  const AnalysisTable t = op_profile_table(engine_, args_of("{}"));
  const size_t occ = column(t, "occurrences"), time = column(t, "time"),
               self = column(t, "self_time");
  const AnalysisRow* group = row_named(t, "fusion.1 and its duplicate(s)");
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(num(*group, occ), 3);
  EXPECT_EQ(num(*group, time), 30e3);
  const AnalysisRow* f2 = row_named(t, "fusion.2");
  ASSERT_NE(f2, nullptr);
  EXPECT_EQ(&t.rows[f2->parent], group);
  const AnalysisRow* loop = row_named(t, "while.1");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(num(*loop, time), 20e3);
  EXPECT_EQ(num(*loop, self), 15e3);  // add.5 ran inside it for 5 µs
  // % of device time: busy time (the top-level ops) by default.
  const size_t pct = column(t, "self_percent");
  EXPECT_NEAR(num(*loop, pct), 100.0 * 15 / 52, 1e-9);
}

TEST_F(OpProfileTpu, IdleRowIsTotalMinusBusy) {
  const AnalysisTable t = op_profile_table(engine_, args_of(R"({"includeIdle":true})"));
  const AnalysisRow* idle = row_named(t, "IDLE");
  ASSERT_NE(idle, nullptr);
  EXPECT_EQ(idle->parent, -1);
  EXPECT_EQ(num(*idle, column(t, "time")), 43e3);  // 95 µs span − 52 µs of top-level ops
  EXPECT_NEAR(num(*idle, column(t, "self_percent")), 100.0 * 43 / 95, 1e-9);
  EXPECT_EQ(row_named(op_profile_table(engine_, args_of("{}")), "IDLE"), nullptr);
}

TEST_F(OpProfileTpu, IntensityIsFlopsOverBytesWhereBothExist) {
  for (const AnalysisTable& t :
       {op_profile_table(engine_, args_of("{}")), hlo_stats_table(engine_, args_of("{}")),
        roofline_table(engine_, args_of("{}"))}) {
    size_t fl = t.columns.size(), by = t.columns.size(), oi = t.columns.size();
    for (size_t i = 0; i < t.columns.size(); ++i) {
      if (t.columns[i].unit == AnalysisUnit::kFlops) fl = i;
      if (t.columns[i].unit == AnalysisUnit::kBytes) by = i;
      if (t.columns[i].unit == AnalysisUnit::kRatio) oi = i;
    }
    ASSERT_LT(oi, t.columns.size());
    size_t checked = 0;
    for (const AnalysisRow& r : t.rows) {
      if (fl < t.columns.size() && by < t.columns.size() &&
          r.cells[fl].kind == AnalysisCell::Kind::kNumber &&
          r.cells[by].kind == AnalysisCell::Kind::kNumber && r.cells[by].number > 0) {
        EXPECT_DOUBLE_EQ(num(r, oi), r.cells[fl].number / r.cells[by].number);
        ++checked;
      } else if (r.cells[oi].kind != AnalysisCell::Kind::kNumber) {
        EXPECT_FALSE(r.cells[oi].why.empty());
      }
    }
    if (fl < t.columns.size()) {
      EXPECT_GT(checked, 0u);
    }
  }
  // hlo_stats has no FLOPs column: its OI against the fixture's figures.
  const AnalysisTable h = hlo_stats_table(engine_, args_of("{}"));
  const AnalysisRow* f1 = row_named(h, "fusion.1", column(h, "hlo_op_name"));
  ASSERT_NE(f1, nullptr);
  EXPECT_DOUBLE_EQ(num(*f1, column(h, "operational_intensity")), 2e9 / 1e6);
}

TEST_F(OpProfileTpu, BadOrMissingStatsGiveEmptyCellsWithAReason) {
  const AnalysisTable t = op_profile_table(engine_, args_of("{}"));
  const size_t flops = column(t, "flops"), bytes = column(t, "bytes");
  const AnalysisRow* add = row_named(t, "add.5");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->cells[flops].kind, AnalysisCell::Kind::kEmpty);
  EXPECT_NE(add->cells[flops].why.find("not a number"), std::string::npos) << add->cells[flops].why;
  EXPECT_EQ(num(*add, bytes), 100);
  const AnalysisRow* loop = row_named(t, "while.1");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->cells[flops].why, "the file has no flops stat for this op");
  EXPECT_EQ(loop->cells[bytes].why, "the file has no bytes_accessed stat for this op");
  // A category above an op without FLOPs has none either, and says why.
  const AnalysisRow* cf = row_named(t, "control flow");
  ASSERT_NE(cf, nullptr);
  EXPECT_EQ(cf->cells[flops].kind, AnalysisCell::Kind::kEmpty);
  EXPECT_FALSE(cf->cells[flops].why.empty());
}

TEST_F(OpProfileTpu, HloStatsCarriesTheFilesTextAndRanksBySelfTime) {
  const AnalysisTable h = hlo_stats_table(engine_, args_of("{}"));
  const size_t name = column(h, "hlo_op_name"), expr = column(h, "hlo_op_expression"),
               tf = column(h, "tf_op_name"), rank = column(h, "rank"),
               self = column(h, "total_self_time"),
               cum = column(h, "cumulative_total_self_time_percent");
  ASSERT_FALSE(h.rows.empty());
  EXPECT_EQ(h.rows[0].cells[name].text, "fusion.1");  // 20 µs of self time
  EXPECT_EQ(num(h.rows[0], rank), 1);
  for (size_t i = 1; i < h.rows.size(); ++i)
    EXPECT_GE(num(h.rows[i - 1], self), num(h.rows[i], self));
  EXPECT_EQ(h.rows[0].cells[expr].text, "%fusion.1 = f32[8,128] op(...)");
  EXPECT_EQ(h.rows[0].cells[tf].text, "jit(step)/fusion.1");
  // Self time over the whole device time (95 µs), summing to the busy share.
  EXPECT_NEAR(num(h.rows.back(), cum), 100.0 * 52 / 95, 1e-9);
}

TEST_F(OpProfileTpu, RooflinePeaksComeFromThePlaneOrTheUser) {
  const AnalysisTable r = roofline_table(engine_, args_of("{}"));
  EXPECT_NE(r.extra_json.find("\"flopsPerSec\":100000000000000"), std::string::npos)
      << r.extra_json;
  EXPECT_NE(r.extra_json.find("\"bytesPerSec\":1000000000000"), std::string::npos) << r.extra_json;
  EXPECT_NE(r.extra_json.find("\"ridge\":100"), std::string::npos) << r.extra_json;
  const size_t roof = column(r, "roof"), bound = column(r, "bound_by");
  const AnalysisRow* f1 = row_named(r, "fusion.1");
  ASSERT_NE(f1, nullptr);
  EXPECT_DOUBLE_EQ(num(*f1, roof), 1e14);  // OI 2000 is right of the ridge (100)
  EXPECT_EQ(f1->cells[bound].text, "Compute");
  const AnalysisRow* copy = row_named(r, "copy.3");
  ASSERT_NE(copy, nullptr);
  EXPECT_DOUBLE_EQ(num(*copy, roof), 0);  // OI 0: no FLOP/s at all under the roof
  EXPECT_EQ(copy->cells[bound].text, "HBM");
  const AnalysisTable typed = roofline_table(engine_, args_of(R"({"peakTflops":1,"peakGBps":10})"));
  EXPECT_NE(typed.extra_json.find("\"ridge\":100"), std::string::npos) << typed.extra_json;
  EXPECT_NE(typed.extra_json.find("typed by the user"), std::string::npos) << typed.extra_json;
}

TEST_F(OpProfileTpu, CategoriesSayWhereTheyComeFrom) {
  // Every op of this file has an hlo_category stat; no HloProto, no fusion's children.
  for (const AnalysisTable& t :
       {op_profile_table(engine_, args_of("{}")), hlo_stats_table(engine_, args_of("{}"))}) {
    const size_t from = column(t, "category_from");
    for (const AnalysisRow& r : t.rows)
      if (!r.link.name.empty()) {
        EXPECT_EQ(r.cells[from].text, "hlo_category stat");
      }
  }
  const AnalysisTable t = op_profile_table(engine_, args_of("{}"));
  for (const AnalysisRow& r : t.rows)
    EXPECT_NE(r.cells[column(t, "time")].kind, AnalysisCell::Kind::kEmpty);
}

TEST_F(OpProfileTpu, LaterAnswersReuseTheOpMetrics) {
  // The load's end built the all-cores metrics already: the first answer only writes the table.
  ASSERT_TRUE(store().xspace->analysis_cache);
  const std::string first = analysis_table_json(op_profile_table(engine_, args_of("{}")));
  const std::string idle =
      analysis_table_json(op_profile_table(engine_, args_of(R"({"includeIdle":true})")));
  const std::string again = analysis_table_json(op_profile_table(engine_, args_of("{}")));
  EXPECT_EQ(first, again);  // the cached metrics answer as the first build did
  EXPECT_NE(first, idle);
  const std::string core0 =
      analysis_table_json(op_profile_table(engine_, args_of(R"({"core":0})")));
  EXPECT_NE(core0.find("Core /device:TPU:0"), std::string::npos);
}

TEST_F(OpProfileTpu, UnknownCoreIsAnError) {
  const AnalysisTable t = op_profile_table(engine_, args_of(R"({"core":"/device:TPU:7"})"));
  ASSERT_EQ(t.errors.size(), 1u);
  EXPECT_TRUE(t.rows.empty());
  const AnalysisTable one = op_profile_table(engine_, args_of(R"({"core":0})"));
  EXPECT_TRUE(one.errors.empty());
  EXPECT_FALSE(one.rows.empty());
}

// A GPU plane without peak stats: clock × SMs × the per-SM table, for NVIDIA only.
std::string gpu_space(const std::string& vendor) {
  pb::XSpace space;
  PlaneWriter w(&space, "/device:GPU:0", 2);
  w.stat_uint(w.plane(), "clock_rate", 1980000);  // kHz
  w.stat_uint(w.plane(), "core_count", 132);
  w.stat_uint(w.plane(), "compute_cap_major", 9);
  w.stat_uint(w.plane(), "compute_cap_minor", 0);
  w.stat_uint(w.plane(), "memory_bandwidth", 3350000000000);
  if (!vendor.empty()) w.stat_str(w.plane(), "device_vendor", vendor);
  pb::XLine* ops = w.line(1, "XLA Ops", 1000);
  w.event(ops, "fusion.1", 0, 5 * kUs);
  return testing::serialize(space);
}

TEST(OpProfileGpuPeaks, ClockTimesCoresTimesThePerSmTable) {
  Engine nvidia;
  ASSERT_TRUE(testing::engine_load(&nvidia, gpu_space("Nvidia")));
  const AnalysisTable r = roofline_table(nvidia, args_of("{}"));
  // 132 SMs x 1.98 GHz x 4096 FLOPs/cycle (sm_90 tensor cores), 3.35 TB/s.
  EXPECT_NE(r.extra_json.find("\"flopsPerSec\":1070530560000000"), std::string::npos)
      << r.extra_json;
  EXPECT_NE(r.extra_json.find("\"bytesPerSec\":3350000000000"), std::string::npos) << r.extra_json;
  Engine amd;
  ASSERT_TRUE(testing::engine_load(&amd, gpu_space("AMD")));
  const AnalysisTable a = roofline_table(amd, args_of("{}"));
  EXPECT_NE(a.extra_json.find("\"flopsPerSec\":null"), std::string::npos) << a.extra_json;
  EXPECT_NE(a.extra_json.find("no per-core FLOPs table for AMD"), std::string::npos)
      << a.extra_json;
  EXPECT_NE(a.extra_json.find("\"ridge\":null"), std::string::npos) << a.extra_json;
}

TEST(OpProfileNames, ModuleNamesAndCategories) {
  std::string_view module, program;
  ASSERT_TRUE(split_module_name("jit_step(18446744073709551615)", &module, &program));
  EXPECT_EQ(module, "jit_step");
  EXPECT_EQ(program, "18446744073709551615");
  EXPECT_FALSE(split_module_name("jit_step", &module, &program));
  EXPECT_FALSE(split_module_name("f(x)", &module, &program));
  EXPECT_EQ(category_from_name("fusion.3"), "fusion");
  EXPECT_EQ(category_from_name("copy-start.1.2"), "copy-start");
  EXPECT_EQ(category_from_name("loop_add_fusion"), "loop_add_fusion");
}

}  // namespace
}  // namespace strata
