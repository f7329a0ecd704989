// The memory_viewer analysis' `extra` as the Memory Viewer chart reads it (keys in
// protocol/memory_viewer_keys.h), and the chart's view maths: the visible range of program
// order, zoomed about a point and panned, clamped to the curve.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace strata {

struct MemoryViewerModule {
  int index = -1;
  std::string name, source, why;
  bool ok = false;  // has a buffer assignment
};

struct MemoryViewerSpace {
  int64_t color = 0;
  std::string label;
};

struct MemoryViewerMark {
  uint32_t point = 0;
  double bytes = 0, unpadded = 0;
  std::string instruction;
  uint32_t live = 0;  // heap buffers live there
};

struct MemoryViewerData {
  bool read = false;  // the reply had a memory_viewer extra
  std::vector<MemoryViewerModule> modules;
  int module = -1;
  std::string module_name, program_id;
  std::vector<MemoryViewerSpace> spaces;
  int64_t space = 0;
  uint32_t points = 0, step = 1;         // program-order points; points per sample
  std::vector<double> padded, unpadded;  // one per sample (its highest heap)
  MemoryViewerMark peak, point;
  double indefinite = 0;
  double device_bytes = 0, device_share = 0;
  std::string device_source, device_why;
  bool has_budget = false, fits = false;
  double budget_bytes = 0, bytes_over = 0;
  std::vector<std::pair<std::string, double>> shrink;  // rows to shrink: label, bytes
};

bool read_memory_viewer_extra(const char* json, MemoryViewerData* out);

// A range of program order [lo, hi) shown by the chart.
struct MemoryViewerRange {
  double lo = 0, hi = 1;
};
// The whole curve.
MemoryViewerRange memory_viewer_full_range(const MemoryViewerData& d);
// Zoomed by `factor` (< 1 in) about point `at`, then kept inside the curve and at least a few
// points wide.
MemoryViewerRange memory_viewer_zoom(const MemoryViewerData& d, MemoryViewerRange r, double at,
                                     double factor);
// Moved by `delta` points, kept inside the curve.
MemoryViewerRange memory_viewer_pan(const MemoryViewerData& d, MemoryViewerRange r, double delta);

}  // namespace strata
