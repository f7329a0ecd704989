// The UI's two themes, dark and light. Colours are 0xAABBGGRR (ImGui's ImU32). Drawing code reads
// them through theme::k* (references into the active palette), so switching the theme at run time
// is one assignment and the next frame draws in the new colours.
#pragma once
#include <array>
#include <cstdint>

namespace strata {

struct ThemePalette {
  bool light;
  uint32_t background;  // canvas behind everything
  uint32_t row_even, row_odd;
  uint32_t process_header;
  uint32_t folded;     // runs of sub-pixel events
  uint32_t selection;  // outline of the selected event
  uint32_t counter;
  uint32_t grid;
  uint32_t text, text_dim;
  uint32_t accent_text;  // the "Strata" title, keys in the details pane, toolbar labels
  uint32_t error_text;
  uint32_t label_bg;  // behind text drawn over the tracks (cursor time, timing span)
  uint32_t cursor_line, cursor_strong;
  uint32_t drag_fill;      // the range being dragged out
  uint32_t outline;        // the zoom tool's rectangle
  uint32_t chart_bg;       // plot areas (loss chart)
  uint32_t flow;           // flow arrows when no event is selected
  uint32_t row_highlight;  // a table row under the linked cursor
  // timeline
  uint32_t folded_hatch;  // the diagonal stripes over a folded run's grey
  // tabs: the Memory, Runs and Loss tabs' charts
  uint32_t memory_allocated, memory_reserved;  // the memory chart's two lines
  uint32_t memory_peak;                        // the peak's dot and label
  uint32_t memory_instant;                     // the instant the live tables describe
  uint32_t chart_axis;                         // axes and frames of the tabs' charts
  // page
  uint32_t banner_bg;     // behind the load error under the top bar and the welcome note
  uint32_t compare_line;  // the loss comparison's curve (yellow on dark, dark amber on light)
  // panels
  uint32_t search_mark;  // a search match's tick in the ruler
  uint32_t label_dim;    // secondary labels in the details pane and the selection summary
  // graph: the Graph tab's canvas, box text, groups (opened fusions and calls) and edges; box
  // fills are their opcode family's colour multiplied per channel by graph_box_tint.
  uint32_t graph_canvas;
  uint32_t graph_name_text, graph_node_text;  // a box's first line, its other lines
  uint32_t graph_box_tint, graph_box_edge;
  uint32_t graph_group_fill, graph_group_edge, graph_group_title;
  uint32_t graph_edge;
  // analysis
  uint32_t analysis_selected_row;
  // charts: the Runs tab's series (a: Diff baseline and Distributed computation; b: Diff
  // experiment; difference: the accumulated difference and communication; overlap; idle: free
  // time; other: a pie's "Other"), the Memory tab's components in turn, and the Graph tab's
  // selected node with its input and output edges.
  uint32_t chart_series_a, chart_series_b, chart_difference, chart_overlap, chart_idle, chart_other;
  uint32_t memory_components[6];
  uint32_t graph_selected, graph_edge_in, graph_edge_out;
  // the roofline chart: the memory roof's slope, the compute roof, the ridge point and its
  // label, an op's dot (translucent: they crowd), a program's diamond
  uint32_t roofline_memory, roofline_compute, roofline_ridge, roofline_op, roofline_program;
};

// The active palette (dark until set_theme says otherwise).
extern ThemePalette g_palette;

// The step chart's parts, in its stacking order (ui/analysis/step_chart_math.h): device compute,
// collectives, host→device, device→host, device→device, input wait, kernel launch, host
// compute, compile, other, idle. Switched with the palette.
inline constexpr int kStepPartColours = 11;
extern std::array<uint32_t, kStepPartColours> g_step_part_colours;

// Switches the palette and ImGui's own widget colours. Called from ui_set_theme (strata.js decides:
// ?theme=, the user's saved choice, else prefers-color-scheme).
void set_theme(bool light);

namespace theme {
inline const uint32_t& kBackground = g_palette.background;
inline const uint32_t& kRowEven = g_palette.row_even;
inline const uint32_t& kRowOdd = g_palette.row_odd;
inline const uint32_t& kProcessHeader = g_palette.process_header;
inline const uint32_t& kFolded = g_palette.folded;
inline const uint32_t& kSelection = g_palette.selection;
inline const uint32_t& kCounter = g_palette.counter;
inline const uint32_t& kGrid = g_palette.grid;
inline const uint32_t& kText = g_palette.text;
inline const uint32_t& kTextDim = g_palette.text_dim;
inline const uint32_t& kAccentText = g_palette.accent_text;
inline const uint32_t& kErrorText = g_palette.error_text;
inline const uint32_t& kLabelBg = g_palette.label_bg;
inline const uint32_t& kCursorLine = g_palette.cursor_line;
inline const uint32_t& kCursorStrong = g_palette.cursor_strong;
inline const uint32_t& kDragFill = g_palette.drag_fill;
inline const uint32_t& kOutline = g_palette.outline;
inline const uint32_t& kChartBg = g_palette.chart_bg;
inline const uint32_t& kFlow = g_palette.flow;
inline const uint32_t& kRowHighlight = g_palette.row_highlight;
// timeline
inline const uint32_t& kFoldedHatch = g_palette.folded_hatch;
// tabs
inline const uint32_t& kMemoryAllocated = g_palette.memory_allocated;
inline const uint32_t& kMemoryReserved = g_palette.memory_reserved;
inline const uint32_t& kMemoryPeak = g_palette.memory_peak;
inline const uint32_t& kMemoryInstant = g_palette.memory_instant;
inline const uint32_t& kChartAxis = g_palette.chart_axis;
// page
inline const uint32_t& kBannerBg = g_palette.banner_bg;
inline const uint32_t& kCompareLine = g_palette.compare_line;
// panels
inline const uint32_t& kSearchMark = g_palette.search_mark;
inline const uint32_t& kLabelDim = g_palette.label_dim;
// graph
inline const uint32_t& kGraphCanvas = g_palette.graph_canvas;
inline const uint32_t& kGraphNameText = g_palette.graph_name_text;
inline const uint32_t& kGraphNodeText = g_palette.graph_node_text;
inline const uint32_t& kGraphBoxTint = g_palette.graph_box_tint;
inline const uint32_t& kGraphBoxEdge = g_palette.graph_box_edge;
inline const uint32_t& kGraphGroupFill = g_palette.graph_group_fill;
inline const uint32_t& kGraphGroupEdge = g_palette.graph_group_edge;
inline const uint32_t& kGraphGroupTitle = g_palette.graph_group_title;
inline const uint32_t& kGraphEdge = g_palette.graph_edge;
// analysis
inline const uint32_t& kAnalysisSelectedRow = g_palette.analysis_selected_row;
inline const std::array<uint32_t, kStepPartColours>& kStepPart = g_step_part_colours;
// charts
inline const uint32_t& kChartSeriesA = g_palette.chart_series_a;
inline const uint32_t& kChartSeriesB = g_palette.chart_series_b;
inline const uint32_t& kChartDifference = g_palette.chart_difference;
inline const uint32_t& kChartOverlap = g_palette.chart_overlap;
inline const uint32_t& kChartIdle = g_palette.chart_idle;
inline const uint32_t& kChartOther = g_palette.chart_other;
inline const uint32_t (&kMemoryComponents)[6] = g_palette.memory_components;
inline const uint32_t& kGraphSelected = g_palette.graph_selected;
inline const uint32_t& kGraphEdgeIn = g_palette.graph_edge_in;
inline const uint32_t& kGraphEdgeOut = g_palette.graph_edge_out;
inline const uint32_t& kRooflineMemory = g_palette.roofline_memory;
inline const uint32_t& kRooflineCompute = g_palette.roofline_compute;
inline const uint32_t& kRooflineRidge = g_palette.roofline_ridge;
inline const uint32_t& kRooflineOp = g_palette.roofline_op;
inline const uint32_t& kRooflineProgram = g_palette.roofline_program;
}  // namespace theme

}  // namespace strata
