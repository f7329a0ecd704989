#include "core/pyramid/pyramid.h"

#include <algorithm>
#include <cmath>

#include "core/store/blocks.h"

namespace strata {

namespace {

// Adds an event to the open bin of a level being built (bins arrive in start order).
void add_to_bin(PyramidLevel& L, const TraceStore& s, int64_t b, uint32_t e) {
  if (L.bin.size() == L.row_bins.back() || L.bin.back() != b) {
    L.bin.push_back(b);
    L.count.push_back(0);
    L.busy.push_back(0);
    L.longest.push_back(e);
  }
  size_t i = L.bin.size() - 1;
  ++L.count[i];
  L.busy[i] += s.events.dur[e];
  if (s.events.dur[e] > s.events.dur[L.longest[i]]) L.longest[i] = e;
}

// Merges another bin's summary into the open bin of a coarser level.
void merge_bin(PyramidLevel& L, const TraceStore& s, int64_t b, uint32_t count, TimeNs busy,
               uint32_t longest) {
  if (L.bin.size() == L.row_bins.back() || L.bin.back() != b) {
    L.bin.push_back(b);
    L.count.push_back(0);
    L.busy.push_back(0);
    L.longest.push_back(longest);
  }
  size_t i = L.bin.size() - 1;
  L.count[i] += count;
  L.busy[i] += busy;
  if (s.events.dur[longest] > s.events.dur[L.longest[i]]) L.longest[i] = longest;
}

// Bin widths are powers of two, so a bin index is a shift of the time since the origin (never
// negative: the origin is the trace's start).
static_assert((Pyramid::kBaseBinNs & (Pyramid::kBaseBinNs - 1)) == 0 &&
                  (Pyramid::kFanout & (Pyramid::kFanout - 1)) == 0,
              "bin widths must be powers of two");
constexpr int kBaseShift = __builtin_ctzll(Pyramid::kBaseBinNs);
constexpr int kFanoutShift = __builtin_ctz(Pyramid::kFanout);

int level_shift(size_t l) { return kBaseShift + kFanoutShift * static_cast<int>(l); }

// How many of the first `levels` levels an event of `dur` is long at (bin_ns <= dur).
size_t long_levels(TimeNs dur, size_t levels) {
  if (dur < Pyramid::kBaseBinNs) return 0;
  const int log2 = 63 - __builtin_clzll(static_cast<uint64_t>(dur));
  return std::min<size_t>(levels, static_cast<size_t>((log2 - kBaseShift) / kFanoutShift + 1));
}

// Items of every level, counted in one walk over the rows' events without building any: an
// event is a long event at the levels whose bins it spans and in one bin of each coarser level.
// A level's bins are the distinct bin indices of its short events; when an event falls in the
// previous short event's bin at some level, it does at every coarser level too, so the walk up
// the levels stops there.
void count_items(const TraceStore& s, const Pyramid& p, size_t levels, std::vector<size_t>* bins,
                 std::vector<size_t>* longs) {
  bins->assign(levels, 0);
  std::vector<size_t> long_at(levels + 1, 0);  // events long at exactly the first k levels
  std::vector<int64_t> last(levels);
  const TimeNs* st = s.events.start.data();
  const TimeNs* du = s.events.dur.data();
  size_t* nb = bins->data();
  size_t* nl = long_at.data();
  for (const PyramidRow& row : p.rows) {
    const Track& tr = s.tracks[row.track];
    std::fill(last.begin(), last.end(), -1);
    int64_t* lb = last.data();
    for_blocks(tr.rows[row.depth], tr.rows[row.depth + 1], [&](size_t lo, size_t hi) {
      for (size_t e = lo; e < hi; ++e) {
        const size_t k = long_levels(du[e], levels);
        ++nl[k];
        const TimeNs rel = st[e] - p.origin;
        for (size_t l = k; l < levels; ++l) {
          const int64_t b = rel >> level_shift(l);
          if (b == lb[l]) break;
          lb[l] = b;
          ++nb[l];
        }
      }
    });
  }
  longs->assign(levels, 0);
  size_t above = 0;  // events long at more than l levels: long at level l
  for (size_t l = levels; l-- > 0;) {
    above += long_at[l + 1];
    (*longs)[l] = above;
  }
}

// Sizes a level's columns exactly (they are built by push_back: no doubling, no copy).
void reserve_level(PyramidLevel& L, size_t rows, size_t bins, size_t longs) {
  L.row_bins.reserve(rows + 1);
  L.row_long.reserve(rows + 1);
  L.bin.reserve(bins);
  L.count.reserve(bins);
  L.busy.reserve(bins);
  L.longest.reserve(bins);
  L.long_events.reserve(longs);
  L.row_bins.assign(1, 0);
  L.row_long.assign(1, 0);
}

// Event e joins L: as a long event when it spans at least a whole bin, else in its bin.
inline void place_event(PyramidLevel& L, const TraceStore& s, const Pyramid& p, uint32_t e) {
  if (s.events.dur[e] >= L.bin_ns)
    L.long_events.push_back(e);
  else
    add_to_bin(L, s, (s.events.start[e] - p.origin) / L.bin_ns, e);
}

// Closes the row just built: where the next row's bins and long events begin.
inline void end_row(PyramidLevel& L) {
  L.row_bins.push_back(static_cast<uint32_t>(L.bin.size()));
  L.row_long.push_back(static_cast<uint32_t>(L.long_events.size()));
}

// Level L straight from the events.
void build_from_events(PyramidLevel& L, const TraceStore& s, const Pyramid& p) {
  for (const PyramidRow& row : p.rows) {
    const Track& tr = s.tracks[row.track];
    // Runs in blocks (core/store/blocks.h): a load's first pyramid would otherwise run
    // baseline code over every event.
    for_blocks(tr.rows[row.depth], tr.rows[row.depth + 1], [&](size_t lo, size_t hi) {
      for (auto e = static_cast<uint32_t>(lo); e < hi; ++e) place_event(L, s, p, e);
    });
    end_row(L);
  }
}

// Level L from a finer level F (any finer one: bins nest, since widths grow by kFanout): F's
// bins merge, and its long events that are shorter than L's bins join them. Both lists are in
// start order; walking them together keeps the bins in order, and the summaries equal those
// built from the events (counts and busy time add up; the longest event is the first longest
// in start order either way).
void build_from_level(PyramidLevel& L, const PyramidLevel& F, const TraceStore& s,
                      const Pyramid& p) {
  const TimeNs* st = s.events.start.data();
  const int64_t merge = L.bin_ns / F.bin_ns;
  for (size_t r = 0; r < p.rows.size(); ++r) {
    uint32_t bi = F.row_bins[r], be = F.row_bins[r + 1];
    uint32_t ki = F.row_long[r], ke = F.row_long[r + 1];
    for_blocks(0, (be - bi) + (ke - ki), [&](size_t lo, size_t hi) {
      for (size_t k = lo; k < hi; ++k) {  // one bin or long event each
        const bool take_bin =
            ki == ke || (bi < be && F.bin[bi] * F.bin_ns <= st[F.long_events[ki]] - p.origin);
        if (take_bin) {
          merge_bin(L, s, F.bin[bi] / merge, F.count[bi], F.busy[bi], F.longest[bi]);
          ++bi;
        } else {
          place_event(L, s, p, F.long_events[ki++]);
        }
      }
    });
    end_row(L);
  }
}

}  // namespace

size_t Pyramid::memory_bytes() const {
  size_t b = rows.capacity() * sizeof(PyramidRow);
  for (const PyramidLevel& L : levels)
    b += L.row_bins.capacity() * 4 + L.bin.capacity() * 8 + L.count.capacity() * 4 +
         L.busy.capacity() * 8 + L.longest.capacity() * 4 + L.row_long.capacity() * 4 +
         L.long_events.capacity() * 4;
  for (const MinMaxPyramid::Level& L : counters.levels)
    b += (L.min.capacity() + L.max.capacity()) * 8;
  return b;
}

// The levels' sizes are counted first (count_items) and only the kept levels are built, each
// into exactly sized columns: the first from the events, the others from the kept level before
// them. Building every level from the one before, as vectors that double, held the finest
// levels (up to 24 bytes per event, twice over) at the heap's peak of a load.
Pyramid build_pyramid(const TraceStore& s) {
  Pyramid p;
  p.origin = s.has_time ? s.start_ns : 0;
  size_t nrows = 0;
  for (const Track& tr : s.tracks)
    if (tr.kind != TrackKind::kCounter)
      for (uint32_t d = 0; d + 1 < tr.rows.size(); ++d) nrows += tr.rows[d] < tr.rows[d + 1];
  p.rows.reserve(nrows);
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    if (tr.kind == TrackKind::kCounter || tr.rows.size() < 2) continue;
    for (uint32_t d = 0; d + 1 < tr.rows.size(); ++d)
      if (tr.rows[d] < tr.rows[d + 1]) p.rows.push_back({t, d});
  }
  const TimeNs extent = s.has_time ? std::max<TimeNs>(1, s.end_ns - s.start_ns) : 1;
  // Levels up to the first whose bin spans the trace.
  size_t levels = 1;
  for (TimeNs w = Pyramid::kBaseBinNs; !(w >= extent || w > (INT64_MAX / Pyramid::kFanout));
       w *= Pyramid::kFanout)
    ++levels;
  std::vector<size_t> bins, longs;
  count_items(s, p, levels, &bins, &longs);
  // A level is kept when it has at most a quarter of the items of the finer kept level (or of
  // the events); the coarsest one also when nothing else was kept and it summarises at all.
  std::vector<size_t> keep;
  size_t budget = s.events.size() / 4;
  for (size_t l = 0; l < levels; ++l) {
    const size_t items = bins[l] + longs[l];
    if (items <= budget || (l + 1 == levels && keep.empty() && items < s.events.size())) {
      budget = items / 4;
      keep.push_back(l);
    }
  }
  p.levels.resize(keep.size());
  for (size_t k = 0; k < keep.size(); ++k) {
    PyramidLevel& L = p.levels[k];
    L.bin_ns = TimeNs{1} << level_shift(keep[k]);
    reserve_level(L, p.rows.size(), bins[keep[k]], longs[keep[k]]);
    if (k == 0)
      build_from_events(L, s, p);
    else
      build_from_level(L, p.levels[k - 1], s, p);
  }
  p.counters = build_minmax_pyramid(s.samples.value);
  return p;
}

int pyramid_level_for(const Pyramid& p, double ns_per_px) {
  int best = -1;
  for (size_t i = 0; i < p.levels.size(); ++i)
    if (static_cast<double>(p.levels[i].bin_ns) <= ns_per_px) best = static_cast<int>(i);
  return best;
}

void query_slices_pyramid(const TraceStore& s, const Pyramid& p, const ViewportQuery& q,
                          std::vector<VisibleSlice>* out) {
  if (!(q.end > q.start) || q.width_px == 0) return;
  const double ns_per_px = (q.end - q.start) / q.width_px;
  const int li = pyramid_level_for(p, ns_per_px);
  if (li < 0 || p.origin != q.origin) {
    query_slices(s, q, out);  // finer than the finest bins: the events themselves
    return;
  }
  const PyramidLevel& L = p.levels[li];
  const TimeNs* st = s.events.start.data();
  const TimeNs* du = s.events.dur.data();
  const TimeNs t0 = q.origin + static_cast<TimeNs>(std::floor(q.start));
  const TimeNs t1 = q.origin + static_cast<TimeNs>(std::ceil(q.end));
  const TimeNs px = std::max<TimeNs>(1, static_cast<TimeNs>(ns_per_px));
  auto rel = [&](TimeNs t) { return static_cast<double>(t - q.origin); };
  const int64_t b0 = (t0 - p.origin) / L.bin_ns - 1, b1 = (t1 - p.origin) / L.bin_ns;

  for (size_t r = 0; r < p.rows.size(); ++r) {
    const PyramidRow& row = p.rows[r];
    // Bins in range.
    const int64_t* bins = L.bin.data();
    uint32_t bi = static_cast<uint32_t>(
        std::lower_bound(bins + L.row_bins[r], bins + L.row_bins[r + 1], b0) - bins);
    const uint32_t be = static_cast<uint32_t>(
        std::upper_bound(bins + L.row_bins[r], bins + L.row_bins[r + 1], b1) - bins);
    // Long events in range: non-overlapping within a row, so the one before t0 may reach in.
    const uint32_t* le = L.long_events.data();
    uint32_t ki =
        static_cast<uint32_t>(std::lower_bound(le + L.row_long[r], le + L.row_long[r + 1], t0,
                                               [&](uint32_t e, TimeNs t) { return st[e] < t; }) -
                              le);
    if (ki > L.row_long[r] && st[le[ki - 1]] + du[le[ki - 1]] >= t0) --ki;
    const uint32_t ke = L.row_long[r + 1];

    // Walk both in time order; adjacent bins (gap under a pixel) fold into one run.
    bool open = false;
    VisibleSlice run{};
    TimeNs run_busy = 0, run_end = 0;
    uint32_t run_longest = 0;
    auto close_run = [&] {
      if (!open) return;
      if (run.count == 1) {
        run.event = run_longest;
        run.start = rel(st[run_longest]);
        run.end = rel(st[run_longest] + du[run_longest]);
      } else {
        run.event = kNone;
        run.name = s.events.name[run_longest];
        TimeNs span = std::max<TimeNs>(1, run_end - (q.origin + static_cast<TimeNs>(run.start)));
        run.busy_permille = static_cast<uint32_t>(std::min<TimeNs>(1000, run_busy * 1000 / span));
      }
      out->push_back(run);
      open = false;
    };
    while (bi < be || ki < ke) {
      const bool take_bin = ki == ke || (bi < be && p.origin + bins[bi] * L.bin_ns <= st[le[ki]]);
      if (take_bin) {
        const TimeNs bs = p.origin + bins[bi] * L.bin_ns;
        const TimeNs bend = std::max(bs + L.bin_ns, st[L.longest[bi]] + du[L.longest[bi]]);
        if (bs > t1) break;
        if (open && bs - run_end >= px) close_run();
        if (!open) {
          run = VisibleSlice{rel(bs), rel(bend), row.track, row.depth, s.events.name[L.longest[bi]],
                             kNone,   0,         1000};
          run_busy = 0;
          run_end = bend;
          run_longest = L.longest[bi];
          open = true;
        }
        run.count += L.count[bi];
        run_busy += L.busy[bi];
        run_end = std::max(run_end, bend);
        run.end = rel(run_end);
        if (du[L.longest[bi]] > du[run_longest]) run_longest = L.longest[bi];
        ++bi;
      } else {
        const uint32_t e = le[ki++];
        if (st[e] > t1) break;
        close_run();
        out->push_back(
            {rel(st[e]), rel(st[e] + du[e]), row.track, row.depth, s.events.name[e], e, 1, 1000});
      }
    }
    close_run();
  }
}

}  // namespace strata
