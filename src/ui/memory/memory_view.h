// The Memory tab: memory in use over time per device (allocated and reserved, from the
// engine's min/max points per pixel column, so peaks are exact at every zoom), the peak
// marked, a device selector and Group By (total / per component), zoom and pan on the
// timeline's own time range, a cursor readout, and a click that shows what was live at that
// instant; below, tables of live buffers and their breakdown, all allocations, and component
// peaks. Data comes from the engine's "memory*" queries (src/engine/engine_memory.cc).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ui/labels.h"
#include "ui/timeline/timeline.h"
#include "ui/trace_data.h"

namespace strata {

using MemorySendQuery = uint32_t (*)(const char* kind, const std::string& args);

struct MemoryView {
  struct Series {
    std::string component;
    int samples = 0;
    double peak_alloc = NAN, peak_alloc_t = 0, peak_resv = NAN, peak_resv_t = 0;
  };
  struct Device {
    std::string name, primary;
    double peak = 0, peak_t = 0;
    double start = 0, end = 0;  // the device's data range, relative ns
    bool peak_reserved = false;
    // The device memory the profile states (NaN: none) and the peak's share of it.
    double capacity = NAN, peak_share = NAN;
    std::string capacity_source;
    std::string capacity_why;  // what the profile names instead of the memory (an Ascend chip)
    bool no_addr = false;      // allocator calls without addresses: no allocation rows possible
    int samples = 0, allocations = 0, unreleased = 0;
    std::vector<Series> series;
  };
  struct Line {  // one series of a range reply: per column min/max (NaN = no value)
    std::string component;
    std::vector<float> amin, amax, rmin, rmax;
  };
  struct Alloc {
    std::string name, shape, region;
    double bytes = 0, alloc_t = 0, release_t = NAN;  // NaN release = not released
  };
  // An XLA program's run on the device's XLA Modules row (the memory_live and memory_module
  // replies' memory_xla_run): what ties an instant here to a module of the Memory Viewer.
  struct XlaRun {
    bool valid = false;
    std::string device, module, program, plane, why, op;
    double start = 0, end = 0, window_start = 0;  // relative ns
    int graph_module = -1;                        // the Memory Viewer's module, -1: none
    bool buffer_assignment = false;
    bool during = false;                // the instant is inside the run (else in the gap before it)
    int64_t point = -1;                 // the heap simulator's point at the instant's op, -1: none
    double peak_bytes = 0, peak_t = 0;  // memory_module: the most memory in the run's window
  };
  struct Group {
    std::string key;
    double bytes = 0, share = 0;
    int count = 0;
    bool before_trace = false;  // memory held before the trace began (no buffers to name)
  };

  // summary
  bool summary_asked = false, summary_ready = false;
  uint32_t summary_query = 0;
  std::vector<Device> devices;
  std::vector<std::string> sources, warnings;
  int device = 0;
  bool by_component = false;
  bool fit_request = false,
       fit_checked = false;  // zoom to the device's data (the Fit button, or unrelated clocks)
  // chart data
  uint32_t range_query = 0;
  std::string range_key;  // what the last request asked for
  double reply_t0 = 0, reply_t1 = 1;
  std::vector<Line> lines;
  // live at an instant
  uint32_t live_query = 0;
  double live_t = NAN;
  int live_by = 0;  // operator, shape, region
  bool live_asked_for_peak = false;
  double live_bytes = 0;
  int live_count = 0;
  std::vector<Alloc> live_top;
  std::vector<Group> live_groups;
  XlaRun live_run;                   // the run the live instant falls in (valid: there is one)
  bool open_viewer_request = false;  // an ask of the App: the Memory Viewer on live_run's module
  // "Show in Memory tab" from the Memory Viewer: the module asked for (memory_module query,
  // sent once the summary is in), its answer applied in the next frame (device, view, live
  // instant at the run's peak).
  bool focus_pending = false, focus_answered = false;
  std::string focus_module, focus_program, focus_why;
  uint32_t focus_query = 0;
  int focus_runs = 0;
  XlaRun focus_run;
  // all allocations of the device
  uint32_t allocs_query = 0;
  int allocs_device = -1;
  std::vector<Alloc> allocs;
  std::vector<uint32_t> allocs_order;  // sorted + filtered view of allocs
  char filter[128] = {};
  bool order_dirty = true;
  // cursor
  double hover_t = NAN;
  // What the last frame showed, for the script API (memory_view_json).
  std::vector<double> y_ticks;
  std::vector<std::string> y_labels;
  std::string peak_label, hover_text, live_label, allocs_note;
  std::string capacity_shown;  // what the header says of the device memory: share or not stated
  float plot_x = 0, plot_y = 0, plot_w = 0, plot_h = 0;      // the plot area, CSS px
  float hover_x = 0, hover_y = 0, hover_w = 0, hover_h = 0;  // the readout's box
  double shown_t0 = 0, shown_t1 = 0;                         // the time range drawn (relative ns)
  float viewer_button[4] = {0, 0, 0, 0};  // "Open in Memory Viewer" (x, y, w, h; w 0: not drawn)
};

// The chart's Y axis has about this many intervals.
constexpr int kMemoryYTicks = 4;

// A new trace: forget everything.
void memory_view_reset(MemoryView* m);
// Draws the tab in [x, y, w, h]; pans/zooms t->view (shared with the timeline).
void memory_view_frame(MemoryView* m, Timeline* t, const TraceData& d, NavKeys* keys, float x,
                       float y, float w, float h, double now_ms, MemorySendQuery send);
// An engine answer to one of this view's queries; false when the id is not ours.
bool memory_view_result(MemoryView* m, uint32_t id, const char* json);
// The Memory Viewer's "Show in Memory tab": shows the run of XLA module `module` (program id
// text `program`) with the most memory, on its device, with what was live at its peak.
void memory_view_show_module(MemoryView* m, const std::string& module, const std::string& program);

// Shared by the ui/memory files: asks what was live at t (relative ns); draws the tables.
void memory_request_live(MemoryView* m, double t, MemorySendQuery send);
void memory_tables_draw(MemoryView* m, float x, float y, float w, float h, MemorySendQuery send);

// memory_labels.cc: a time (relative ns) to the microsecond ("1.234567 s", "12.345 ms",
// "850 us"); the peak's share of the device memory; Y ticks at round values of one binary unit from
// 0 to ymax ("0", "512 MiB", "1 GiB"); the view's state for the script API.
std::string memory_time_label(double ns);
// The peak against the device memory the profile states: "31% of 32 GiB device memory"; ""
// when it states none.
std::string memory_capacity_label(const MemoryView::Device& d);
inline constexpr const char* kMemoryNoCapacity = "device memory not stated in this profile";
// Said in its place when the profile states no device memory: "device memory not stated in this
// profile" and what it names instead; "" when the label has the share.
std::string memory_capacity_note(const MemoryView::Device& d);
void memory_y_ticks(double ymax, std::vector<double>* at, std::vector<std::string>* labels);
std::string memory_view_json(const MemoryView& m);

}  // namespace strata
