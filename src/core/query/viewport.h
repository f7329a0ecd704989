// What the timeline draws for a time range: per (track, depth) row, the slices wide enough to
// see, and runs of sub-pixel slices folded into one block that knows how many it holds.
//
// Cost is O(rows × pixel columns × log n), not O(events): inside a run the next pixel column is
// found by binary search, so a fully zoomed-out view of a huge track stays cheap. Issue 4's
// pyramids replace the search with precomputed summaries; the output shape stays.
#pragma once
#include <cstdint>
#include <vector>

#include "core/memory/minmax_pyramid.h"
#include "core/store/trace_store.h"

namespace strata {

struct VisibleSlice {
  double start;  // relative ns (to the query origin)
  double end;    // relative ns; end == start for a lone instant
  uint32_t track;
  uint32_t depth;
  uint32_t name;                  // StrId of the event, or of the first event of a folded run
  uint32_t event;                 // event index, or kNone for a folded run
  uint32_t count;                 // events represented (1 for a single event)
  uint32_t busy_permille = 1000;  // folded runs: share of the run covered by events
};

struct CounterBucket {
  uint32_t series;  // index into TraceStore::series
  double start;     // relative ns where this bucket's value starts
  double min, max;  // value range inside the bucket (equal for a single sample)
  double last;      // the value in force at the bucket's end
};

struct ViewportQuery {
  TimeNs origin = 0;
  double start = 0, end = 0;  // relative ns
  uint32_t width_px = 1;
};

// One row's events held outside a store (a bundle's tiles): [0, n) of the columns, reported as
// events base + i. The columns are those of the store's row from event `base` on.
struct RowColumns {
  const TimeNs* start;
  const TimeNs* dur;
  const StrId* name;
  uint32_t n;
  uint32_t base;
};
// Appends the visible slices of one row, as query_slices() does for each row of a store.
void query_row_columns(const RowColumns& c, uint32_t track, uint32_t depth, const ViewportQuery& q,
                       std::vector<VisibleSlice>* out);

// Appends the visible slices of every thread track.
void query_slices(const TraceStore& s, const ViewportQuery& q, std::vector<VisibleSlice>* out);
// Appends min/max buckets of every counter series, about one per pixel column, starting with
// the sample in force at the left edge.
// With `minmax` (build_minmax_pyramid over s.samples.value, kept in the engine's Pyramid), a
// bucket's extremes come from the pyramid in O(log n) instead of a scan of its samples, so a
// view of millions of samples costs about the pixels; the buckets are the same either way.
void query_counters(const TraceStore& s, const ViewportQuery& q, std::vector<CounterBucket>* out,
                    const MinMaxPyramid* minmax = nullptr);

// Index of the first event in [first, last) of one row whose end is after `t` (absolute ns).
uint32_t first_visible_in_row(const TraceStore& s, uint32_t first, uint32_t last, TimeNs t);

}  // namespace strata
