// What every analysis answers: a table (a tree when rows name a parent), written as JSON by one
// writer so that the UI's Analysis tab draws any analysis the same way: sortable, filterable,
// exportable, each row linked to the events behind it.
//
// JSON (keys in protocol/reply_keys.h keys::analysis):
//   {"name", "title", "notes": [text], "errors": [text],
//    "columns": [{"key", "label", "unit", "tip"}],
//    "rows": [{"parent": row index or -1, "cells": [number | text | null],
//              "why": {column key: why the cell is empty}, "link": {...},
//              "cellLinks": {column key: {...}: a cell's own events, not the row's}}],
//    "extra": any JSON value an analysis adds (e.g. the roofline's peaks), or absent}
// A cell is null when the file does not carry what it needs; `why` then says so (never a
// made-up number). Program ids and other 64-bit ids are text, never JSON numbers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace strata {

// The unit of a column's numbers: how the UI formats and sums them.
enum class AnalysisUnit : uint8_t {
  kText,         // text cells
  kCount,        // an integer count
  kNs,           // a duration in ns
  kPercent,      // 0..100
  kFlops,        // floating-point operations
  kBytes,        // bytes
  kFlopsPerSec,  // FLOP/s
  kBytesPerSec,  // bytes/s
  kRatio,        // a plain number (e.g. FLOP/byte)
};
const char* analysis_unit_name(AnalysisUnit u);  // "text", "count", "ns", ...

struct AnalysisColumn {
  std::string key;    // stable id (CSV header, `why` key, deep links)
  std::string label;  // the header the UI shows
  AnalysisUnit unit = AnalysisUnit::kText;
  std::string tip;  // what the column means, how it was computed
};

struct AnalysisCell {
  enum class Kind : uint8_t { kEmpty, kNumber, kText } kind = Kind::kEmpty;
  double number = 0;
  std::string text;
  std::string why;  // for an empty cell: why there is no value
  static AnalysisCell of(double v) { return {Kind::kNumber, v, {}, {}}; }
  static AnalysisCell of(std::string t) { return {Kind::kText, 0, std::move(t), {}}; }
  static AnalysisCell empty(std::string why) { return {Kind::kEmpty, 0, {}, std::move(why)}; }
};

// The events behind a row: the UI selects them with the `select` query's name mode (exact
// event name, on these display tracks or on every track) and opens the op in the Graph tab.
struct AnalysisLink {
  std::string name;              // exact event name ("" : the row links to nothing)
  std::vector<uint32_t> tracks;  // display track indices; empty: every track
  std::string program_id;        // XLA program id (decimal text) or ""
  std::string module;            // HLO module name or ""
  std::string op;                // HLO instruction name or ""
  // A framework op row of an xplane (XProf's op name): the select query's framework op mode
  // gives that op's own events, where `name` (its type) would also take the ops of its type.
  std::string framework_op;
  // A part of a step (an overview part cell): the step's store event and the part's key; the
  // select query's part mode gives the events that own that part's time.
  uint32_t step_event = kNone;
  std::string part;  // a step part key, or ""
};

// A cell that links other events than its row: the events behind one figure.
struct AnalysisCellLink {
  uint32_t column = 0;
  AnalysisLink link;
};

struct AnalysisRow {
  int32_t parent = -1;              // index of the parent row (earlier in `rows`), -1 at the top
  std::vector<AnalysisCell> cells;  // one per column
  AnalysisLink link;
  std::vector<AnalysisCellLink> cell_links;  // by column, in column order
};

struct AnalysisTable {
  std::string name, title;
  std::vector<std::string> notes;   // how to read it, what was left out
  std::vector<std::string> errors;  // why it could not be computed (rows then may be empty)
  std::vector<AnalysisColumn> columns;
  std::vector<AnalysisRow> rows;
  std::string extra_json;  // a JSON value, or "" for none
};

std::string analysis_table_json(const AnalysisTable& t);
// Pieces of that JSON, for answers that carry rows' links or text lists of their own.
void append_analysis_link(std::string* o, const AnalysisLink& l);
void append_json_strings(std::string* o, const std::vector<std::string>& list);

}  // namespace strata
