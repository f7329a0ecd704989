// The Analysis tab's table model (ui/analysis/analysis_model): read from the engine's own
// writer, sorted (first click on a number: largest first), filtered (ancestors kept), trees
// expanded, cells formatted by unit, CSV of the rows shown.
#include "ui/analysis/analysis_model.h"

#include <gtest/gtest.h>

#include "engine/analysis/analysis_table.h"

namespace strata {
namespace {

AnalysisTableModel model_of(const AnalysisTable& t) {
  AnalysisTableModel m;
  EXPECT_TRUE(read_analysis_table(analysis_table_json(t).c_str(), &m)) << m.error;
  return m;
}

// gemm (2 children: aten::mm, aten::addmm), relu, "copy, with comma" (no time recorded).
AnalysisTable sample() {
  AnalysisTable t;
  t.name = "demo";
  t.title = "Demo";
  t.notes = {"a note"};
  t.columns = {{"kernel", "Kernel", AnalysisUnit::kText, ""},
               {"count", "Count", AnalysisUnit::kCount, ""},
               {"total", "Total", AnalysisUnit::kNs, "summed"},
               {"smem", "Shared memory", AnalysisUnit::kBytes, ""},
               {"pct", "%", AnalysisUnit::kPercent, ""}};
  auto row = [](int32_t parent, const char* name, double count, double total, AnalysisCell smem,
                double pct) {
    AnalysisRow r;
    r.parent = parent;
    r.cells = {AnalysisCell::of(std::string(name)), AnalysisCell::of(count),
               AnalysisCell::of(total), std::move(smem), AnalysisCell::of(pct)};
    r.link.name = name;
    return r;
  };
  t.rows = {row(-1, "gemm", 3, 3'000'000, AnalysisCell::of(49152.0), 60),
            row(0, "gemm", 2, 2'000'000, AnalysisCell::of(49152.0), 40),
            row(0, "gemm", 1, 1'000'000, AnalysisCell::of(49152.0), 20),
            row(-1, "relu", 10, 1'500'000, AnalysisCell::empty("not recorded"), 30),
            row(-1, "copy, with \"comma\"", 1234, 500, AnalysisCell::empty("not recorded"), 10)};
  t.rows[1].cells[0] = AnalysisCell::of(std::string("gemm / aten::mm"));
  t.rows[2].cells[0] = AnalysisCell::of(std::string("gemm / aten::addmm"));
  return t;
}

std::vector<std::string> names(const AnalysisTableModel& m, const std::vector<ShownRow>& rows) {
  std::vector<std::string> out;
  for (const ShownRow& r : rows) out.push_back(m.rows[r.row].cells[0].text);
  return out;
}

TEST(AnalysisModel, ReadsTheEnginesTable) {
  const AnalysisTableModel m = model_of(sample());
  EXPECT_EQ(m.name, "demo");
  ASSERT_EQ(m.columns.size(), 5u);
  EXPECT_EQ(m.columns[2].unit, CellUnit::kNs);
  EXPECT_EQ(m.columns[2].tip, "summed");
  ASSERT_EQ(m.rows.size(), 5u);
  EXPECT_EQ(m.roots, (std::vector<int32_t>{0, 3, 4}));
  EXPECT_EQ(m.rows[0].children, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(m.rows[3].cells[3].kind, TableCell::Kind::kEmpty);
  EXPECT_EQ(m.rows[3].cells[3].text, "not recorded");  // the why
  EXPECT_EQ(m.notes, (std::vector<std::string>{"a note"}));
  EXPECT_EQ(m.rows[0].link.name, "gemm");
  AnalysisTableModel bad;
  EXPECT_FALSE(read_analysis_table(R"({"error":"unknown analysis"})", &bad));
  EXPECT_EQ(bad.error, "unknown analysis");
}

TEST(AnalysisModel, ReadsTheList) {
  std::vector<AnalysisEntry> list;
  std::string err;
  ASSERT_TRUE(
      read_analysis_list(R"({"analyses":[{"name":"a","title":"A","available":true,"why":""},)"
                         R"({"name":"b","title":"B","available":false,"why":"no kernels"}]})",
                         &list, &err));
  ASSERT_EQ(list.size(), 2u);
  EXPECT_TRUE(list[0].available);
  EXPECT_FALSE(list[1].available);
  EXPECT_EQ(list[1].why, "no kernels");
}

TEST(AnalysisModel, SortsSiblingsAndKeepsChildrenUnderTheirParent) {
  const AnalysisTableModel m = model_of(sample());
  TableViewState v;
  // The engine's order, children hidden until expanded.
  EXPECT_EQ(names(m, shown_rows(m, v)),
            (std::vector<std::string>{"gemm", "relu", "copy, with \"comma\""}));
  EXPECT_TRUE(first_sort_descending(m.columns[1]));
  EXPECT_FALSE(first_sort_descending(m.columns[0]));
  v.sort_column = 1;  // count, largest first
  v.descending = true;
  v.expanded.assign(m.rows.size(), 0);
  v.expanded[0] = 1;
  EXPECT_EQ(names(m, shown_rows(m, v)),
            (std::vector<std::string>{"copy, with \"comma\"", "relu", "gemm", "gemm / aten::mm",
                                      "gemm / aten::addmm"}));
  v.descending = false;
  EXPECT_EQ(names(m, shown_rows(m, v)),
            (std::vector<std::string>{"gemm", "gemm / aten::addmm", "gemm / aten::mm", "relu",
                                      "copy, with \"comma\""}));
  // Empty cells sort last both ways.
  v.sort_column = 3;
  v.expanded[0] = 0;
  v.descending = true;
  EXPECT_EQ(names(m, shown_rows(m, v)).front(), "gemm");
  v.descending = false;
  EXPECT_EQ(names(m, shown_rows(m, v)).front(), "gemm");
  const auto depth = shown_rows(m, TableViewState{});
  EXPECT_EQ(depth[0].depth, 0);
}

TEST(AnalysisModel, FiltersOnTheNameKeepingAncestors) {
  const AnalysisTableModel m = model_of(sample());
  TableViewState v;
  v.filter = "ADDMM";  // case-insensitive; only a child matches: its parent shows, expanded
  const auto rows = shown_rows(m, v);
  EXPECT_EQ(names(m, rows), (std::vector<std::string>{"gemm", "gemm / aten::addmm"}));
  EXPECT_EQ(rows[1].depth, 1);
  v.filter = "relu";
  EXPECT_EQ(names(m, shown_rows(m, v)), (std::vector<std::string>{"relu"}));
  v.filter = "gemm";  // the parent matches itself: collapsed until expanded
  EXPECT_EQ(names(m, shown_rows(m, v)), (std::vector<std::string>{"gemm"}));
  v.filter = "nothing";
  EXPECT_TRUE(shown_rows(m, v).empty());
}

TEST(AnalysisModel, FormatsByUnit) {
  auto num = [](double v) { return TableCell{TableCell::Kind::kNumber, v, {}}; };
  EXPECT_EQ(format_cell(num(1'500'000), CellUnit::kNs), "1.5 ms");
  EXPECT_EQ(format_cell(num(850), CellUnit::kNs), "850 ns");
  EXPECT_EQ(format_cell(num(2'340), CellUnit::kNs), "2.34 \xC2\xB5s");
  EXPECT_EQ(format_cell(num(12'345), CellUnit::kCount), "12,345");
  EXPECT_EQ(format_cell(num(49152), CellUnit::kBytes), "48 KiB");
  EXPECT_EQ(format_cell(num(45.61), CellUnit::kPercent), "45.6%");
  EXPECT_EQ(format_cell(num(3.4e12), CellUnit::kFlopsPerSec), "3.4 TFLOP/s");
  EXPECT_EQ(format_cell(num(2e9), CellUnit::kFlops), "2 GFLOP");
  EXPECT_EQ(format_cell(num(1.5e9), CellUnit::kBytesPerSec), "1.5 GB/s");
  EXPECT_EQ(format_cell(num(0.25), CellUnit::kRatio), "0.25");
  EXPECT_EQ(format_cell(TableCell{}, CellUnit::kNs), "\xE2\x80\x94");  // an em dash
  EXPECT_EQ(format_cell(TableCell{TableCell::Kind::kText, 0, "x"}, CellUnit::kText), "x");
  EXPECT_FALSE(shorter_forms(num(12'345), CellUnit::kCount).empty());
}

TEST(AnalysisModel, CsvOfTheRowsShown) {
  const AnalysisTableModel m = model_of(sample());
  TableViewState v;
  v.sort_column = 2;
  v.descending = true;
  const std::string csv = table_csv(m, shown_rows(m, v));
  EXPECT_EQ(csv,
            "Kernel,Count,Total [ns],Shared memory [bytes],% [percent]\n"
            "gemm,3,3000000,49152,60\n"
            "relu,10,1500000,,30\n"
            "\"copy, with \"\"comma\"\"\",1234,500,,10\n");
}

}  // namespace
}  // namespace strata
