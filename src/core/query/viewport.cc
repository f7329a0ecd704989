#include "core/query/viewport.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

// First index in [lo, hi) whose end is after t (within one row slices do not overlap, so ends
// are sorted like starts); an instant exactly at t counts as visible.
uint32_t first_visible(const TimeNs* st, const TimeNs* du, uint32_t lo, uint32_t hi, TimeNs t) {
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (st[mid] + du[mid] <= t && !(du[mid] == 0 && st[mid] == t))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// First index in [lo, hi) whose start is >= t.
uint32_t first_start_at_or_after(const TimeNs* st, uint32_t lo, uint32_t hi, TimeNs t) {
  return static_cast<uint32_t>(std::lower_bound(st + lo, st + hi, t) - st);
}

}  // namespace

uint32_t first_visible_in_row(const TraceStore& s, uint32_t first, uint32_t last, TimeNs t) {
  return first_visible(s.events.start.data(), s.events.dur.data(), first, last, t);
}

void query_row_columns(const RowColumns& c, uint32_t track, uint32_t depth, const ViewportQuery& q,
                       std::vector<VisibleSlice>* out) {
  if (!(q.end > q.start) || q.width_px == 0) return;
  const double ns_per_px = (q.end - q.start) / q.width_px;
  const TimeNs* st = c.start;
  const TimeNs* du = c.dur;
  const uint32_t last = c.n;
  const TimeNs t0 = q.origin + static_cast<TimeNs>(std::floor(q.start));
  const TimeNs t1 = q.origin + static_cast<TimeNs>(std::ceil(q.end));
  const TimeNs px = std::max<TimeNs>(1, static_cast<TimeNs>(ns_per_px));
  auto rel = [&](TimeNs t) { return static_cast<double>(t - q.origin); };

  uint32_t i = first_visible(st, du, 0, last, t0);
  while (i < last && st[i] <= t1) {
    if (du[i] >= px) {  // wide enough to see on its own
      out->push_back({rel(st[i]), rel(st[i] + du[i]), track, depth, c.name[i], c.base + i, 1});
      ++i;
      continue;
    }
    // A run of sub-pixel events: absorb whole pixel columns while the gaps stay under a pixel.
    uint32_t run_first = i, count = 0;
    TimeNs run_start = st[i], run_end = st[i] + du[i];
    while (i < last && st[i] <= t1 && du[i] < px && st[i] - run_end < px) {
      uint32_t k = first_start_at_or_after(st, i + 1, last, std::min(st[i] + px, t1 + 1));
      // Only the last event starting in this column can be wide; leave it for the outer loop.
      uint32_t take_to = (du[k - 1] >= px && k - 1 > i) ? k - 1 : k;
      if (du[take_to - 1] >= px) break;
      count += take_to - i;
      run_end = std::max(run_end, st[take_to - 1] + du[take_to - 1]);
      i = take_to;
    }
    if (count == 0) {  // defensive: never loop without progress
      count = 1;
      run_end = st[i] + du[i];
      ++i;
    }
    uint32_t ev = count == 1 ? c.base + run_first : kNone;
    out->push_back({rel(run_start), rel(run_end), track, depth, c.name[run_first], ev, count});
  }
}

void query_slices(const TraceStore& s, const ViewportQuery& q, std::vector<VisibleSlice>* out) {
  if (!(q.end > q.start) || q.width_px == 0) return;
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    if (tr.kind == TrackKind::kCounter || tr.rows.size() < 2) continue;
    for (uint32_t d = 0; d + 1 < tr.rows.size(); ++d) {
      if (tr.rows[d] == tr.rows[d + 1]) continue;
      const uint32_t first = tr.rows[d];
      query_row_columns({s.events.start.data() + first, s.events.dur.data() + first,
                         s.events.name.data() + first, tr.rows[d + 1] - first, first},
                        t, d, q, out);
    }
  }
}

void query_counters(const TraceStore& s, const ViewportQuery& q, std::vector<CounterBucket>* out,
                    const MinMaxPyramid* minmax) {
  if (!(q.end > q.start) || q.width_px == 0) return;
  const double ns_per_px = (q.end - q.start) / q.width_px;
  const TimeNs px = std::max<TimeNs>(1, static_cast<TimeNs>(ns_per_px));
  const TimeNs t0 = q.origin + static_cast<TimeNs>(std::floor(q.start));
  const TimeNs t1 = q.origin + static_cast<TimeNs>(std::ceil(q.end));
  const TimeNs* ts = s.samples.ts.data();
  const double* val = s.samples.value.data();
  for (uint32_t si = 0; si < s.series.size(); ++si) {
    const CounterSeries& se = s.series[si];
    uint32_t lo = se.first_sample, hi = se.first_sample + se.sample_count;
    if (lo == hi) continue;
    // Start at the sample in force at t0 (the last one at or before it).
    uint32_t i = static_cast<uint32_t>(std::upper_bound(ts + lo, ts + hi, t0) - ts);
    if (i > lo) --i;
    while (i < hi && ts[i] <= t1) {
      TimeNs bucket_end = std::max(ts[i], t0) + px;
      uint32_t k = static_cast<uint32_t>(std::lower_bound(ts + i + 1, ts + hi, bucket_end) - ts);
      double mn = val[i], mx = val[i];
      if (minmax && k - i > 16) {
        range_minmax(*minmax, s.samples.value, i, k, &mn, &mx);  // NaN samples are skipped
      } else {
        for (uint32_t j = i + 1; j < k; ++j) {  // ≤ samples per pixel: bounded by the data itself
          mn = std::min(mn, val[j]);
          mx = std::max(mx, val[j]);
        }
      }
      out->push_back({si, static_cast<double>(ts[i] - q.origin), mn, mx, val[k - 1]});
      i = k;
    }
  }
}

}  // namespace strata
