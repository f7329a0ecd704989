// op_profile and hlo_stats on the real GPU xplanes of ../shared/data (skipped when absent):
// their totals against an independent sum over the XLA Ops rows, and the FLOPs cells, which
// these files cannot fill, empty with the reason.
#include <gtest/gtest.h>

#include <map>

#include "core/formats/xplane/xplane_tables.h"
#include "engine/analysis/hlo_stats.h"
#include "engine/analysis/op_metrics.h"
#include "engine/analysis/op_profile.h"
#include "engine/analysis/roofline.h"
#include "engine/query_args.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

size_t column(const AnalysisTable& t, const std::string& key) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == key) return i;
  ADD_FAILURE() << "no column " << key;
  return 0;
}

QueryArgs no_args() {
  QueryArgs a;
  std::string err;
  a.parse("{}", &err);
  return a;
}

// Every event of every device plane's XLA Ops row, summed by category-by-name and by name.
struct XlaOpsSums {
  std::map<std::string, double> by_category, by_name;
  double total = 0;
  uint64_t events = 0;
};

XlaOpsSums sum_xla_ops(const TraceStore& s) {
  XlaOpsSums out;
  const XSpaceTables& x = *s.xspace;
  for (size_t i = 0; i < s.events.size(); ++i) {
    const Track& tr = s.tracks[s.events.track[i]];
    if (s.strings.get(tr.name) != "XLA Ops") continue;
    const uint32_t plane = x.plane_of_process[tr.process];
    if (plane == kNone || x.planes[plane].name.rfind("/device:", 0) != 0) continue;
    const std::string name(s.strings.get(s.events.name[i]));
    const auto dur = static_cast<double>(s.events.dur[i]);
    out.by_category[std::string(category_from_name(name))] += dur;
    out.by_name[name] += dur;
    out.total += dur;
    ++out.events;
  }
  return out;
}

const char* const kFiles[] = {
    testing::kWithHlo[0],
    testing::kWithHlo[1],
    testing::kWithHlo[2],
    testing::kWithHlo[3],
    "xplane/xprof/34.83.195.179_6003.xplane.pb",
};

TEST(OpProfileRealFiles, TotalsEqualTheXlaOpsRowsAndFlopsSayWhyTheyAreEmpty) {
  size_t tried = 0;
  for (const char* rel : kFiles) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    SCOPED_TRACE(rel);
    Engine engine;
    ASSERT_TRUE(testing::engine_load(&engine, bytes));
    const TraceStore& s = *engine.store();
    const XlaOpsSums want = sum_xla_ops(s);
    std::string why;
    if (!op_profile_available(engine, &why)) {
      EXPECT_EQ(want.events, 0u) << why;
      continue;
    }
    ++tried;
    ASSERT_GT(want.events, 0u);
    const AnalysisTable t = op_profile_table(engine, no_args());
    ASSERT_TRUE(t.errors.empty()) << t.errors[0];
    // Categories (children of the program rows), summed over programs, against the rows.
    const size_t time = column(t, "time"), occ = column(t, "occurrences"),
                 flops = column(t, "flops");
    std::map<std::string, double> got;
    double programs = 0, occurrences = 0;
    for (const AnalysisRow& r : t.rows) {
      if (r.parent == -1) {
        programs += r.cells[time].number;
        occurrences += r.cells[occ].number;
      } else if (t.rows[r.parent].parent == -1) {
        got[r.cells[0].text] += r.cells[time].number;
      }
      // These GPU files carry no flops stat: every FLOPs cell is empty and says so.
      EXPECT_EQ(r.cells[flops].kind, AnalysisCell::Kind::kEmpty);
      EXPECT_NE(r.cells[flops].why.find("the file has no flops stat"), std::string::npos)
          << r.cells[flops].why;
    }
    EXPECT_EQ(got, want.by_category);
    EXPECT_DOUBLE_EQ(programs, want.total);
    EXPECT_DOUBLE_EQ(occurrences, static_cast<double>(want.events));

    const AnalysisTable h = hlo_stats_table(engine, no_args());
    const size_t htime = column(h, "total_time"), name = column(h, "hlo_op_name");
    std::map<std::string, double> by_name;
    for (const AnalysisRow& r : h.rows) {
      by_name[r.cells[name].text] += r.cells[htime].number;
      EXPECT_EQ(r.link.name, r.cells[name].text);
      EXPECT_FALSE(r.link.tracks.empty());
    }
    EXPECT_EQ(by_name, want.by_name);

    // No peaks in these files: the roofline says so instead of drawing a made-up roof.
    const AnalysisTable roof = roofline_table(engine, no_args());
    EXPECT_NE(roof.extra_json.find("\"ridge\":null"), std::string::npos) << roof.extra_json;
  }
  if (tried == 0) GTEST_SKIP() << "no real xplane with an XLA Ops row in ../shared/data";
}

}  // namespace
}  // namespace strata
