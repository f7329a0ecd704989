// TraceBuilder::bind_flows: turns flow records (s/t/f) into edges between slices, after the
// final layout (it searches the rows of the step's thread track).
//
// Rules (the Trace Event Format's, as chrome://tracing and Perfetto apply them):
//  * Steps of one flow share the importer's key (cat + name + id, global across processes;
//    compared by a 64-bit hash, see TraceBuilder::flow_key) and are taken in time order (file order
//    for ties). An s starts a chain (ending any chain of the same key still open), t continues it,
//    f ends it. A t or f with no open chain is ignored (counted).
//  * s and t bind to the deepest slice of their thread enclosing ts (start <= ts <= end); f
//    binds the same way with bp="e", otherwise to the next slice that starts at or after ts
//    (earliest start, then the outermost). A step that finds no slice is skipped (counted).
//    Zero-length markers (instants, samples) are never bound to.
//  * Each pair of consecutive bound steps of a chain is one edge (self-edges are dropped).
#include <algorithm>
#include <memory>
#include <numeric>

#include "core/store/blocks.h"
#include "core/store/trace_builder.h"

namespace strata {

namespace {

// Searches one track's rows for steps visited in time order.
//  * Shallow tracks (the common case): per row, two cursors that only move forward (first
//    event starting at or after ts, first starting after ts), so binding all steps of a track
//    costs O(events of the track + steps × depth at the step), with sequential memory access.
//  * Deep tracks (hostile nesting): binary searches, and a binary search over depths for the
//    deepest enclosing slice (an enclosing slice's parent encloses too), so a step costs
//    O(log depth × log events) however deep the nesting.
class RowSearch {
 public:
  static constexpr uint32_t kDeep = 32;

  RowSearch(const EventColumns& ev, const Track& tr) : ev_(ev), tr_(tr) {
    rows_ = tr.rows.empty() ? 0 : static_cast<uint32_t>(tr.rows.size() - 1);
    if (rows_ <= kDeep) {
      lower_.assign(tr.rows.begin(), tr.rows.begin() + rows_);
      upper_ = lower_;
    }
  }

  // The deepest slice enclosing ts (start <= ts <= end).
  uint32_t enclosing(TimeNs ts) {
    if (rows_ > kDeep) {
      uint32_t d = deepest(ts, false);
      return d == kNone ? kNone : cover(d, ts, false);
    }
    uint32_t best = kNone;
    for (uint32_t d = 0; d < rows_; ++d) {
      uint32_t i = last_slice_before(d, advance_upper(d, ts));
      if (i == kNone || end_of(ev_.start[i], ev_.dur[i]) < ts) break;
      best = i;
    }
    return best;
  }

  // The first slice that starts at or after ts (outermost on ties). It is a child of the
  // deepest slice strictly enclosing ts, or a later sibling of it or of one of its ancestors:
  // rows are tried from one below that slice upwards until a candidate starts inside the
  // enclosing slice of the row above (nothing shallower can start earlier).
  uint32_t next(TimeNs ts) {
    if (rows_ <= kDeep) {
      uint32_t best = kNone;
      for (uint32_t d = 0; d < rows_; ++d) {
        uint32_t l = advance_lower(d, ts);
        uint32_t c = first_slice_from(d, l);
        if (c != kNone && (best == kNone || ev_.start[c] < ev_.start[best])) best = c;
        uint32_t e = last_slice_before(d, l);
        if (e == kNone || end_of(ev_.start[e], ev_.dur[e]) <= ts) break;
      }
      return best;
    }
    uint32_t dd = deepest(ts, true);
    uint32_t d = dd == kNone ? 0 : std::min(dd + 1, rows_ - 1);
    uint32_t best = kNone;
    for (;;) {
      auto b = ev_.start.begin() + tr_.rows[d], e = ev_.start.begin() + tr_.rows[d + 1];
      auto l = static_cast<uint32_t>(std::lower_bound(b, e, ts) - ev_.start.begin());
      uint32_t c = first_slice_from(d, l);
      if (c != kNone && (best == kNone || ev_.start[c] <= ev_.start[best])) best = c;
      if (d == 0) break;
      uint32_t parent = cover(d - 1, ts, true);
      if (best != kNone && parent != kNone &&
          ev_.start[best] < end_of(ev_.start[parent], ev_.dur[parent]))
        break;
      --d;
    }
    return best;
  }

 private:
  uint32_t advance_upper(uint32_t d, TimeNs ts) {
    uint32_t& u = upper_[d];
    const uint32_t b = tr_.rows[d + 1];
    while (u < b && ev_.start[u] <= ts) ++u;
    return u;
  }
  uint32_t advance_lower(uint32_t d, TimeNs ts) {
    uint32_t& l = lower_[d];
    const uint32_t b = tr_.rows[d + 1];
    while (l < b && ev_.start[l] < ts) ++l;
    return l;
  }
  // The last slice (not a marker) of row d before index `pos`. Markers share rows; the slice
  // they sit on is at most a few entries back (further back cannot reach past them anyway).
  uint32_t last_slice_before(uint32_t d, uint32_t pos) const {
    const uint32_t a = tr_.rows[d];
    for (int back = 0; pos > a && back < 8; ++back) {
      --pos;
      if (!is_instant_phase(ev_.phase[pos])) return pos;
    }
    return kNone;
  }
  // The first slice of row d at or after index `pos` (a few markers may come first).
  uint32_t first_slice_from(uint32_t d, uint32_t pos) const {
    const uint32_t b = tr_.rows[d + 1];
    for (int scan = 0; pos < b && scan < 64; ++pos, ++scan)
      if (!is_instant_phase(ev_.phase[pos])) return pos;
    return kNone;
  }
  // Binary-search form: the slice of row d covering ts; `strict`: start < ts < end, else
  // start <= ts <= end.
  uint32_t cover(uint32_t d, TimeNs ts, bool strict) const {
    auto b = ev_.start.begin() + tr_.rows[d], e = ev_.start.begin() + tr_.rows[d + 1];
    auto it = strict ? std::lower_bound(b, e, ts) : std::upper_bound(b, e, ts);
    uint32_t i = last_slice_before(d, static_cast<uint32_t>(it - ev_.start.begin()));
    if (i == kNone) return kNone;
    TimeNs end = end_of(ev_.start[i], ev_.dur[i]);
    return (strict ? end > ts : end >= ts) ? i : kNone;
  }
  // The deepest row with a slice covering ts, or kNone.
  uint32_t deepest(TimeNs ts, bool strict) const {
    if (rows_ == 0 || cover(0, ts, strict) == kNone) return kNone;
    uint32_t lo = 0, hi = rows_;  // cover(lo) holds; answer in [lo, hi)
    while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (cover(mid, ts, strict) != kNone)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }

  const EventColumns& ev_;
  const Track& tr_;
  uint32_t rows_ = 0;
  std::vector<uint32_t> lower_, upper_;
};

// The same order when the key range may dwarf n (edges keyed by event index): counting only
// pays off when there are many edges per event.
template <class Key>
std::vector<uint32_t> stable_order(size_t n, size_t range, Key key) {
  if (n * 8 >= range) return counting_order(n, range, key);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  return order;
}

}  // namespace

void TraceBuilder::bind_flows(const std::vector<uint32_t>& new_track) {
  if (flow_marks_.empty()) return;
  TraceStore& s = *store_;
  std::vector<FlowMark>& marks = flow_marks_;
  const auto n = static_cast<uint32_t>(marks.size());

  // Memory: this runs at the load's peak (the marks are 24 bytes per step), so the steps' work
  // is kept in the marks themselves: once the chains are ordered, a mark's `key` is not needed
  // and holds whether it starts a chain (kChainStart) and, in its low half, its bound event.
  constexpr uint64_t kChainStart = uint64_t{1} << 63;

  // 1. Each flow's steps in time order (file order for ties): `chain`.
  // Keys are uniform hashes: a counting pass on their top bits leaves buckets of a few steps,
  // which are then sorted in place (near O(n), and no copy of the keys).
  std::vector<uint32_t> chain;
  {
    int bits = 8;
    while (bits < 20 && (size_t{1} << bits) < n / 4) ++bits;
    const int shift = 64 - bits;
    std::vector<uint32_t> bucket_end;
    chain = counting_order(
        n, size_t{1} << bits, [&](size_t i) { return static_cast<size_t>(marks[i].key >> shift); },
        &bucket_end);
    auto chain_less = [&](uint32_t a, uint32_t b) {
      const FlowMark& x = marks[a];
      const FlowMark& y = marks[b];
      if (x.key != y.key) return x.key < y.key;
      if (x.ts != y.ts) return x.ts < y.ts;
      return a < b;
    };
    for (size_t q = 0, k = 0; q < bucket_end.size(); k = bucket_end[q++])
      if (bucket_end[q] - k > 1)
        std::sort(chain.begin() + static_cast<std::ptrdiff_t>(k),
                  chain.begin() + static_cast<std::ptrdiff_t>(bucket_end[q]), chain_less);
  }
  uint64_t prev_key = 0;
  for_blocks(0, n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
      FlowMark& m = marks[chain[i]];
      const bool starts = i == 0 || m.key != prev_key;
      prev_key = m.key;
      m.key = starts ? kChainStart : 0;
    }
  });

  // 2. Bind every step, track by track in time order (see RowSearch). Profilers write each
  // thread's steps in time order: then the marks are walked as they are, with one search per
  // track; otherwise they are grouped by track first.
  {
    std::vector<TimeNs> last(s.tracks.size(), INT64_MIN);
    bool in_order = true;
    for_blocks(0, n, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi && in_order; ++i) {
        TimeNs& l = last[new_track[marks[i].track]];
        in_order = marks[i].ts >= l;
        l = marks[i].ts;
      }
    });
    auto bind = [&](RowSearch& rs, FlowMark& m) {
      m.key |= m.next_slice() ? rs.next(m.ts) : rs.enclosing(m.ts);
    };
    if (in_order) {
      std::vector<std::unique_ptr<RowSearch>> search(s.tracks.size());
      for_blocks(0, n, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) {
          const uint32_t t = new_track[marks[i].track];
          if (!search[t]) search[t] = std::make_unique<RowSearch>(s.events, s.tracks[t]);
          bind(*search[t], marks[i]);
        }
      });
    } else {
      std::vector<TimeNs>().swap(last);
      std::vector<uint32_t> by_track =
          counting_order(n, s.tracks.size(), [&](size_t i) { return new_track[marks[i].track]; });
      auto ts_less = [&](uint32_t a, uint32_t b) { return marks[a].ts < marks[b].ts; };
      for (size_t k = 0; k < n;) {
        const uint32_t t = new_track[marks[by_track[k]].track];
        size_t e = k;
        while (e < n && new_track[marks[by_track[e]].track] == t) ++e;
        auto first = by_track.begin() + static_cast<std::ptrdiff_t>(k);
        auto end = by_track.begin() + static_cast<std::ptrdiff_t>(e);
        if (!std::is_sorted(first, end, ts_less)) std::stable_sort(first, end, ts_less);
        RowSearch rs(s.events, s.tracks[t]);
        for_blocks(k, e, [&](size_t lo, size_t hi) {
          for (size_t q = lo; q < hi; ++q) bind(rs, marks[by_track[q]]);
        });
        k = e;
      }
    }
  }

  // 3. Walk the chains: an edge between consecutive bound steps. Twice: counting the edges,
  // then writing them straight into the store's columns, sized exactly.
  auto walk = [&](bool count_only, auto&& edge) {
    bool chain_open = false;
    uint32_t prev = kNone;
    for_blocks(0, n, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) {
        const FlowMark& m = marks[chain[i]];
        if (m.key & kChainStart) chain_open = false;
        if (m.ph() != 's' && !chain_open) {
          flow_orphans_ += count_only;
          continue;
        }
        const auto at = static_cast<uint32_t>(m.key);
        if (at == kNone) flow_unbound_ += count_only;
        if (m.ph() == 's') {
          chain_open = true;
          prev = at;
        } else {
          if (prev != kNone && at != kNone && prev != at) edge(prev, at, m.kind());
          if (at != kNone) prev = at;
          if (m.ph() == 'f') chain_open = false;
        }
      }
    });
  };
  size_t ne = 0;
  walk(true, [&](uint32_t, uint32_t, uint32_t) { ++ne; });
  FlowColumns& f = s.flows;
  f.from.reserve(ne);
  f.to.reserve(ne);
  f.kind.reserve(ne);
  walk(false, [&](uint32_t from, uint32_t to, uint32_t kind) {
    f.from.push_back(from);
    f.to.push_back(to);
    f.kind.push_back(kind);
  });
  std::vector<uint32_t>().swap(chain);
  std::vector<FlowMark>().swap(flow_marks_);

  // Edges by (from, to): stable by `from` (counting), then the rare runs of one source sorted
  // by `to`. The columns are put in that order in place, through one buffer.
  const size_t nev = s.events.size();
  {
    std::vector<uint32_t> order = stable_order(ne, nev, [&](size_t i) { return f.from[i]; });
    std::vector<uint32_t> buf(ne);
    for (std::vector<uint32_t>* col : {&f.from, &f.to, &f.kind}) {
      for_blocks(0, ne, [&](size_t lo, size_t hi) {
        for (size_t k = lo; k < hi; ++k) buf[k] = (*col)[order[k]];
      });
      col->swap(buf);
    }
  }
  // Each run of one source that starts in a block is sorted whole, even past the block's end.
  std::vector<std::pair<uint32_t, uint32_t>> run;
  for_blocks(0, ne, [&](size_t lo, size_t hi) {
    for (size_t k = lo; k < hi; ++k) {
      if (k > 0 && f.from[k - 1] == f.from[k]) continue;  // not a run's first edge
      size_t e = k + 1;
      while (e < ne && f.from[e] == f.from[k]) ++e;
      if (e - k < 2) continue;
      run.clear();
      for (size_t q = k; q < e; ++q) run.emplace_back(f.to[q], f.kind[q]);
      std::sort(run.begin(), run.end());
      for (size_t q = k; q < e; ++q) f.to[q] = run[q - k].first, f.kind[q] = run[q - k].second;
    }
  });
  // by_to: stable by `to`, so edges into one event stay ordered by source.
  f.by_to = stable_order(ne, nev, [&](size_t i) { return f.to[i]; });
}

}  // namespace strata
