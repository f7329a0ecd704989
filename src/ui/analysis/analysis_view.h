// The Analysis tab: the engine's analyses of the loaded trace (engine/analysis/) as sub-tabs
// (greyed, with the reason, when the trace lacks what one needs), each drawn as the same
// table: columns formatted by unit, resizable and sortable, a filter on the name column, tree
// rows that expand, empty cells as "—" with the reason, notes and errors above it, CSV export
// of the rows shown. A row click selects its events in the timeline (select query, name mode),
// a click on a cell with its own link (an overview part cell) that cell's events (part mode);
// a double click or "Show in timeline" goes there; "Open in graph" when the row names an HLO op.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ui/analysis/analysis_model.h"
#include "ui/analysis/memory_viewer_chart.h"
#include "ui/analysis/report_header.h"
#include "ui/analysis/roofline_chart.h"
#include "ui/analysis/step_chart.h"

namespace strata {

using AnalysisSendQuery = uint32_t (*)(const char* kind, const std::string& args);

struct AnalysisBox {
  float x = 0, y = 0, w = 0, h = 0;
};

struct AnalysisView {
  // the list of analyses
  bool list_asked = false, list_ready = false;
  uint32_t list_query = 0;
  std::string list_error;
  std::vector<AnalysisEntry> list;
  // a lazy bundle's size (the list's reply says so): the analyses need it loaded whole
  uint64_t load_whole_bytes = 0;
  bool load_whole_asked = false;
  int current = -1;  // index into list
  // the table of the current analysis
  uint32_t table_query = 0;
  std::string table_of;  // the analysis the table (or the query in flight) is of
  bool table_waiting = false;
  AnalysisTableModel table;
  TableViewState state;
  std::vector<ShownRow> shown;
  bool shown_dirty = true;
  char filter[128] = {};
  int32_t selected = -1;         // row of table.rows
  int32_t selected_column = -1;  // the clicked cell's column when it linked its own events
  int32_t scroll_to_row = -1;    // a row the table scrolls to in its next frame
  RooflineChart roofline;        // drawn above the roofline analysis' table
  MemoryViewerChart memview;     // drawn above the memory_viewer analysis' table
  ReportHeader report;           // drawn above the advisor analysis' table (the Report view)
  // a deep link waiting for its analysis' table: the row whose name is `pending_op`, the step
  // chart's step `pending_step`
  std::string pending_analysis, pending_op, pending_step;
  StepChart step_chart;  // above tables with steps (Overview, Steps)
  // asks of the App: zoom the timeline to [zoom_start, zoom_end) ns from the trace start
  bool zoom_request = false;
  double zoom_start = 0, zoom_end = 0;
  // asks of the App, taken after the frame: a select query's args, going to the timeline
  std::string select_request;
  bool open_timeline = false;
  // what the last frame drew (CSS px), for the script API
  AnalysisBox load_whole_button, filter_box, csv_button, timeline_button, graph_button, table_box;
  std::vector<AnalysisBox> header_boxes, subtab_boxes;
  std::vector<AnalysisBox> row_boxes;  // the shown rows drawn (clipped ones are absent)
  int32_t first_drawn = 0;             // index into `shown` of row_boxes[0]
  std::string last_csv;                // the last CSV exported
};

// A new trace: the list and tables are asked again.
void analysis_view_reset(AnalysisView* v);
void analysis_view_frame(AnalysisView* v, bool loaded, float x, float y, float w, float h,
                         AnalysisSendQuery send);
// An engine answer to an "analysis" query; false when the id is not this view's.
bool analysis_view_result(AnalysisView* v, uint32_t id, const char* json);
// Deep link #tab=analysis&analysis=<name>&op=<name>: shows that analysis and selects the row
// named `op` once its table is in.
void analysis_view_open(AnalysisView* v, const std::string& analysis, const std::string& op,
                        const std::string& step = std::string());
// A deep link's hash (tab=analysis&analysis=&op=&step=&peakTflops=&peakGBps=, analysis_link.h):
// the typed peaks, then analysis_view_open.
void analysis_view_open_link(AnalysisView* v, const std::string& hash);
// The hash that reopens what the tab shows: its analysis, the chosen step or else the selected
// row, and typed peaks.
std::string analysis_view_link(const AnalysisView& v);
// {analysis, title, loading, stepChart (step_chart_json), analyses:[{name, title, available, why}],
// columns, rows:[{row, depth,
//  cells:[text as shown], expanded, hasChildren}], rowCount, sort:{column, key, descending},
//  filter, selected:{row, name, link..., shownIndex, column: the clicked part cell's key or
//  ""}|null, notes, errors, layout:{...}, csv, link, roofline: roofline_chart_json's | null,
//  memoryViewer: memory_viewer_chart_json's | null, report: report_header_json's | null}
std::string analysis_view_json(const AnalysisView& v);

}  // namespace strata
