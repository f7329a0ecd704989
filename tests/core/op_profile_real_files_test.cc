// op_profile and hlo_stats on the real GPU xplanes of ../shared/data (skipped when absent):
// their totals against an independent sum over the XLA Ops rows, and the FLOPs cells, which
// these files cannot fill, empty with the reason.
#include <gtest/gtest.h>

#include <map>

#include "core/formats/hlo/hlo_module.h"
#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/xplane/xplane_tables.h"
#include "engine/analysis/hlo_stats.h"
#include "engine/analysis/op_metrics.h"
#include "engine/analysis/op_profile.h"
#include "engine/analysis/roofline.h"
#include "engine/query_args.h"
#include "xla_ops_test_util.h"
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

// Every event of every device plane's XLA Ops row, summed by category and by name.
struct XlaOpsSums {
  std::map<std::string, double> by_category, by_name;
  double total = 0;
  uint64_t events = 0;
  uint64_t from_hlo = 0;  // events whose category their module's HloProto gives
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
    // These files have no hlo_category stat: XLA's category from the HloProto, else the name.
    const int64_t program = testing::program_of_event(s, i);
    const HloOpText* hlo = program >= 0 ? x.hlo_ops.find(program, name) : nullptr;
    if (hlo && !hlo->category.empty()) {
      out.by_category[hlo->category] += dur;
      ++out.from_hlo;
    } else {
      out.by_category[std::string(category_from_name(name))] += dur;
    }
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
    // Every file with HloProtos names most of its ops' categories from them.
    if (!s.xspace->hlo_protos.empty()) {
      EXPECT_GT(want.from_hlo, 0u);
    }
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

// A fusion's row opens to what it calls: the instructions of its called computation (not its
// parameters or tuples) as the module's HloProto, parsed here, lists them; without time of their
// own (the files time the fusion only) and with the reason.
TEST(OpProfileRealFiles, FusionsOpenToTheInstructionsTheyCall) {
  size_t fusions = 0;
  for (const char* rel : testing::kWithHlo) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    SCOPED_TRACE(rel);
    Engine engine;
    ASSERT_TRUE(testing::engine_load(&engine, bytes));
    const XSpaceTables& x = *engine.store()->xspace;
    std::map<std::string, hlo::HloModule> modules;  // program id text → module
    for (const HloProtoSpan& h : x.hlo_protos) {
      hlo::HloModule m;
      std::string err;
      ASSERT_TRUE(hlo::parse_hlo_proto(testing::u8(bytes) + h.src_offset, h.src_len, &m, &err))
          << err;
      modules[std::to_string(static_cast<uint64_t>(h.program_id))] = std::move(m);
    }
    const AnalysisTable t = op_profile_table(engine, no_args());
    const size_t time = column(t, "time"), from = column(t, "category_from");
    std::map<int32_t, std::vector<std::string>> children;  // fusion row → its fused rows' names
    for (size_t i = 0; i < t.rows.size(); ++i) {
      const AnalysisRow& r = t.rows[i];
      if (r.cells[time].kind != AnalysisCell::Kind::kEmpty) continue;
      EXPECT_NE(r.cells[time].why.find("inside a fusion"), std::string::npos) << r.cells[time].why;
      EXPECT_TRUE(r.link.name.empty());  // no events of its own to select
      EXPECT_EQ(r.cells[from].text, "HloProto");
      ASSERT_GE(r.parent, 0);
      children[r.parent].push_back(r.cells[0].text);
    }
    for (const auto& [parent, names] : children) {
      const AnalysisRow& f = t.rows[static_cast<size_t>(parent)];
      if (f.cells[time].kind == AnalysisCell::Kind::kEmpty) continue;  // a nested fusion
      ++fusions;
      auto m = modules.find(f.link.program_id);
      ASSERT_NE(m, modules.end()) << f.link.program_id;
      const hlo::HloModule& mod = m->second;
      const uint32_t i = mod.find(f.link.op);
      ASSERT_NE(i, kNone) << f.link.op;
      ASSERT_EQ(mod.str(mod.opcode[i]), "fusion");
      std::vector<std::string> want;
      for (uint32_t c : mod.called_of(i))
        for (uint32_t k = mod.comp_first[c]; k < mod.comp_first[c] + mod.comp_count[c]; ++k)
          if (mod.str(mod.opcode[k]) != "parameter" && mod.str(mod.opcode[k]) != "tuple")
            want.emplace_back(mod.str(mod.name[k]));
      EXPECT_EQ(names, want) << f.link.op;
    }
  }
  if (fusions == 0) GTEST_SKIP() << "no real xplane with a timed fusion in ../shared/data";
}

}  // namespace
}  // namespace strata
