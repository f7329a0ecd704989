// The Memory Viewer chart above the memory_viewer table: the module and memory space pickers
// (HBM first), the heap over program order (padded filled, unpadded as a line) with the peak
// marked and the buffers live throughout as a band under it; wheel zooms, drag pans, a click
// picks the point whose live buffers the table lists (the analysis runs again for it). Under it
// the live buffers as one stacked bar (a click selects the row), the peak against the device's
// memory, and a budget field listing the buffers that would have to shrink to fit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ui/analysis/analysis_model.h"
#include "ui/analysis/chart_parts.h"
#include "ui/analysis/memory_viewer_chart_model.h"

namespace strata {

using MemoryViewerBox = ChartBox;

struct MemoryViewerChart {
  // What the user chose; they outlive a table. module -1 / space -1: the analysis' default.
  int module = -1;
  int64_t space = -1;
  int64_t point = -1;  // -1: the peak
  double budget = 0;   // bytes, 0 for none
  char budget_text[32] = {};
  bool args_changed = false;        // an ask of the view: run the analysis again with the args
  bool memory_tab_request = false;  // an ask of the App: "Show in Memory tab" for the module
  // Of the table shown.
  MemoryViewerData data;
  MemoryViewerRange range;
  // What the last frame drew (CSS px), for the script API.
  bool drawn = false;
  MemoryViewerBox plot, bar, budget_box, module_box, space_box, memory_tab_box;
  std::vector<MemoryViewerBox> segments;  // the stacked bar, one per table row
  std::vector<int32_t> segment_rows;
  double max_bytes = 0;  // the plot's top
  int64_t hovered_point = -1;
  bool dragging = false;
  float drag_from = 0;
};

// ,"module":n,"space":n,"point":n,"budget":n (each only when chosen), to append inside the args.
std::string memory_viewer_args(const MemoryViewerChart& c);
// The Memory tab's "Open in Memory Viewer": module `module` (graph module index) at
// program-order point `point` (-1: its peak), asked at the next table.
void memory_viewer_chart_choose(MemoryViewerChart* c, int module, int64_t point);
// A new memory_viewer table (the reply's JSON).
void memory_viewer_chart_set_table(MemoryViewerChart* c, const char* json);
// Draws the pickers, the chart and the bar in width w at the cursor; returns the row of a
// clicked bar segment, or -1.
int32_t memory_viewer_chart_frame(MemoryViewerChart* c, const AnalysisTableModel& m,
                                  int32_t selected, float w, float h);
// {drawn, module, moduleName, programId, modules:[{index,name,ok,why}], spaces:[{color,label}],
//  space,
//  points, range:[lo,hi], plot:[x,y,w,h], maxBytes, indefiniteBytes, indefiniteY,
//  peak:{point,bytes,x,y}, point:{point,bytes,unpadded,instruction,live,x}, device:{bytes,share,
//  source,why}, budget:{bytes,fits,bytesOver,shrink:[{name,bytes}]}|null, bar:[x,y,w,h],
//  segments:[{row,x,y,w,h}], colours:{padded,unpadded,indefinite,peak,point}, layout:{budget,
//  module, space, memoryTab}}
std::string memory_viewer_chart_json(const MemoryViewerChart& c);

}  // namespace strata
