// The Analysis tab's table model, apart from drawing (tested natively in strata_ui_model): the
// engine's analysis list and tables read from their JSON (engine/analysis/analysis_table.h),
// the rows shown for a sort, a filter and the expanded tree rows, cells formatted by their
// column's unit, and the CSV of what is shown.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// The units a column's numbers come in (analysis_unit_name()'s names).
enum class CellUnit : uint8_t {
  kText,
  kCount,
  kNs,
  kPercent,
  kFlops,
  kBytes,
  kFlopsPerSec,
  kBytesPerSec,
  kRatio
};
CellUnit cell_unit_from_name(const std::string& name);  // unknown → kText
bool unit_is_number(CellUnit u);

struct AnalysisEntry {  // one analysis of the list
  std::string name, title, why;
  bool available = false;
};

struct TableColumn {
  std::string key, label, tip;
  CellUnit unit = CellUnit::kText;
};

struct TableCell {
  enum class Kind : uint8_t { kEmpty, kNumber, kText } kind = Kind::kEmpty;
  double number = 0;
  std::string text;  // text cells; for empty ones the reason (why), if any
};

struct TableLink {
  std::string name, program_id, module, op;
  std::vector<uint32_t> tracks;
  int64_t step_event = -1;  // a step part's events: the step's store event and the part key
  std::string part;
  std::string framework_op;  // an xplane framework op row: select its own events by this name
};

struct TableCellLink {  // a cell with its own events (an overview part cell)
  uint32_t column = 0;
  TableLink link;
};

struct TableRow {
  int32_t parent = -1;
  std::vector<TableCell> cells;
  TableLink link;
  std::vector<TableCellLink> cell_links;
  std::vector<int32_t> children;  // filled by the reader
};

struct AnalysisTableModel {
  std::string name, title, error;  // error: the query failed (unknown analysis, bad reply)
  std::vector<std::string> notes, errors;
  std::vector<TableColumn> columns;
  std::vector<TableRow> rows;
  std::vector<int32_t> roots;
};

// {"analyses": [...]} → the list; false on a reply that is not one.
bool read_analysis_list(const char* json, std::vector<AnalysisEntry>* out, std::string* error);
// An analysis reply's loadWholeBytes: the size of a bundle opened lazily, whose analyses need it
// loaded whole (0 in any other reply).
uint64_t read_load_whole_bytes(const char* json);
// An analysis table's JSON → the model (children and roots linked); false with model->error
// set when the reply is an error or malformed.
bool read_analysis_table(const char* json, AnalysisTableModel* model);

struct TableViewState {
  int sort_column = -1;  // -1: the engine's order
  bool descending = true;
  std::string filter;             // on the first column, case-insensitive
  std::vector<uint8_t> expanded;  // per row
};

// What a first click on a column's header sorts by: numbers largest first, text A→Z.
bool first_sort_descending(const TableColumn& c);

struct ShownRow {
  int32_t row = 0;
  int depth = 0;
};
// The rows to show, in order: roots (and, under an expanded row, its children) sorted among
// their siblings; with a filter, the rows whose first cell contains it and their ancestors
// (a matched row's ancestors show expanded).
std::vector<ShownRow> shown_rows(const AnalysisTableModel& m, const TableViewState& v);

// A cell's text as the tab shows it: "—" for an empty cell, numbers by unit ("1.23 ms",
// "12.5 MiB", "3.4 TFLOP/s", "45.6%", "12,345").
std::string format_cell(const TableCell& c, CellUnit unit);
// Shorter forms of the same number for a narrow column, most exact first.
std::vector<std::string> shorter_forms(const TableCell& c, CellUnit unit);
// CSV of the shown rows: a header of column labels (units in brackets for numbers), then raw
// numbers (ns, bytes, ...) and text, quoted where needed; empty cells are empty fields.
std::string table_csv(const AnalysisTableModel& m, const std::vector<ShownRow>& rows);

}  // namespace strata
