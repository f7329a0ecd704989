// Multi-resolution event pyramids, built in the worker after a trace is indexed.
//
// For every (track, depth) row and every level l, time is cut into bins of bin_ns(l) =
// kBaseBinNs × kFanout^l. An event shorter than a level's bin is summarised in the bin where it
// starts (count, busy time, the longest event's name for the colour, the first event); an event
// at least one bin long is kept by index in the level's "long" list, since it is visible on its
// own at that resolution (as XProf stores each event once, at the first resolution not longer
// than its duration). A view at r ns per pixel reads the coarsest level whose bins are at most
// a pixel wide, so a frame touches O(pixels) summaries per row whatever the trace size.
// A level is kept only when it holds at most a quarter of the items of the finer kept level
// (or of the events): on sparse traces the fine levels summarise nothing and would cost memory
// for no speed, so the pyramid stays under ~10 bytes per event.
#pragma once
#include <cstdint>
#include <vector>

#include "core/query/viewport.h"
#include "core/store/trace_store.h"

namespace strata {

struct PyramidLevel {
  TimeNs bin_ns = 0;
  // Sparse bins of each row: [row_bins[r], row_bins[r + 1]) in the columns below, by bin.
  std::vector<uint32_t> row_bins;
  std::vector<int64_t> bin;       // bin index: (start - origin) / bin_ns
  std::vector<uint32_t> count;    // events starting in the bin
  std::vector<TimeNs> busy;       // their summed duration
  std::vector<uint32_t> longest;  // the longest of them (its name colours the bin)
  // Events at least bin_ns long, per row, by start: [row_long[r], row_long[r + 1]).
  std::vector<uint32_t> row_long;
  std::vector<uint32_t> long_events;
};

struct PyramidRow {
  uint32_t track, depth;
};

struct Pyramid {
  static constexpr TimeNs kBaseBinNs = 1024;
  static constexpr int kFanout = 8;
  TimeNs origin = 0;
  std::vector<PyramidRow> rows;      // every (thread-like track, depth) with events
  std::vector<PyramidLevel> levels;  // kept levels, finest first
  MinMaxPyramid counters;            // min/max over TraceStore::samples.value (every series)
  size_t memory_bytes() const;
};

Pyramid build_pyramid(const TraceStore& s);

// The coarsest level whose bins are at most `ns_per_px` wide, or -1 (use the events).
int pyramid_level_for(const Pyramid& p, double ns_per_px);

// Like query_slices(), from the pyramid: folded runs carry the longest event's name and the
// fraction of the run that is busy (in `busy_permille`). Falls back to the events themselves
// when the view is finer than the finest level.
void query_slices_pyramid(const TraceStore& s, const Pyramid& p, const ViewportQuery& q,
                          std::vector<VisibleSlice>* out);

}  // namespace strata
