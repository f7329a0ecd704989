#include "core/bundle/tile_view.h"

#include <algorithm>
#include <cmath>

namespace strata::bundle {

namespace {

template <class T>
size_t held(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

// The ids of `list` (one row's tiles in time order) whose items meet [lo, hi].
std::vector<uint32_t> meeting(const Manifest& m, const std::vector<uint32_t>& list, TimeNs lo,
                              TimeNs hi) {
  std::vector<uint32_t> out;
  for (uint32_t i : list)
    if (m.tiles[i].t0 <= hi && m.tiles[i].t1 >= lo) out.push_back(i);
  return out;
}

struct Range {
  TimeNs t0, t1, px;
};

Range range_of(const ViewportQuery& q) {
  const double ns_per_px = (q.end - q.start) / q.width_px;
  return {q.origin + static_cast<TimeNs>(std::floor(q.start)),
          q.origin + static_cast<TimeNs>(std::ceil(q.end)),
          std::max<TimeNs>(1, static_cast<TimeNs>(ns_per_px))};
}

// A level's bins below the range's first: a loaded trace's view starts one bin early.
TimeNs level_margin(const Manifest& m, int level) { return 2 * m.level_bin_ns[level]; }

// The tiles of series s a view reads: those in range and the one before it, or none when they
// are too many (the index's ranges stand in).
std::vector<uint32_t> counter_tiles(const Manifest& m, const std::vector<uint32_t>& list,
                                    const Range& r, bool* summary) {
  std::vector<uint32_t> out;
  size_t before = list.size();  // the last tile starting at or before the range: the sample in
  for (size_t j = 0; j < list.size(); ++j) {  // force at its left edge is in it
    const Tile& t = m.tiles[list[j]];
    if (t.t0 <= r.t0) before = j;
    if (t.t0 <= r.t1 && t.t1 >= r.t0) out.push_back(list[j]);
  }
  if (before < list.size() && m.tiles[list[before]].t1 < r.t0)
    out.insert(out.begin(), list[before]);
  *summary = out.size() > kMaxCounterTilesPerView;
  return out;
}

void error_span(const Manifest& m, const Tile& t, const ViewportQuery& q, StrId error_name,
                std::vector<VisibleSlice>* out) {
  const RowInfo& row = m.rows[t.row];
  out->push_back({static_cast<double>(t.t0 - q.origin), static_cast<double>(t.t1 - q.origin),
                  row.track, row.depth, error_name, kNone, 0, 0});
}

// One row's events view: each run of consecutive tiles at hand is one stretch of the row's
// columns (copied together only when the run has several tiles).
void events_row(const Manifest& m, const std::vector<uint32_t>& tiles, const ViewportQuery& q,
                const GetTile& get, StrId error_name, std::vector<VisibleSlice>* out) {
  std::vector<const DecodedTile*> run;
  std::vector<TimeNs> st, du;
  std::vector<StrId> nm;
  auto flush = [&] {
    if (run.empty()) return;
    const RowInfo& row = m.rows[m.tiles[tiles[0]].row];
    const EventTile& a = run[0]->events;
    if (run.size() == 1) {
      query_row_columns(
          {a.start.data(), a.dur.data(), a.name.data(), static_cast<uint32_t>(a.size()), a.first},
          row.track, row.depth, q, out);
    } else {
      st.clear(), du.clear(), nm.clear();
      for (const DecodedTile* d : run) {
        st.insert(st.end(), d->events.start.begin(), d->events.start.end());
        du.insert(du.end(), d->events.dur.begin(), d->events.dur.end());
        nm.insert(nm.end(), d->events.name.begin(), d->events.name.end());
      }
      query_row_columns(
          {st.data(), du.data(), nm.data(), static_cast<uint32_t>(st.size()), a.first}, row.track,
          row.depth, q, out);
    }
    run.clear();
  };
  for (uint32_t i : tiles) {
    const DecodedTile* d = get(i);
    if (!d || d->failed) {
      flush();
      if (d) error_span(m, m.tiles[i], q, error_name, out);
      continue;
    }
    if (!run.empty() && run.back()->events.first + run.back()->events.size() != d->events.first)
      flush();
    run.push_back(d);
  }
  flush();
}

// One row's view from one pyramid level, walked as query_slices_pyramid() walks a loaded
// trace's level: bins and long events in time order, adjacent bins (gaps under a pixel) folded.
void level_row(const Manifest& m, int level, const std::vector<uint32_t>& tiles,
               const ViewportQuery& q, const GetTile& get, StrId error_name,
               std::vector<VisibleSlice>* out) {
  LevelTile L;  // the row's bins and long events at hand, concatenated
  for (uint32_t i : tiles) {
    const DecodedTile* d = get(i);
    if (!d || d->failed) {
      if (d) error_span(m, m.tiles[i], q, error_name, out);
      continue;
    }
    const LevelTile& a = d->level;
    L.bin.insert(L.bin.end(), a.bin.begin(), a.bin.end());
    L.count.insert(L.count.end(), a.count.begin(), a.count.end());
    L.busy.insert(L.busy.end(), a.busy.begin(), a.busy.end());
    L.longest.insert(L.longest.end(), a.longest.begin(), a.longest.end());
    L.longest_name.insert(L.longest_name.end(), a.longest_name.begin(), a.longest_name.end());
    L.longest_dur.insert(L.longest_dur.end(), a.longest_dur.begin(), a.longest_dur.end());
    L.long_event.insert(L.long_event.end(), a.long_event.begin(), a.long_event.end());
    L.long_start.insert(L.long_start.end(), a.long_start.begin(), a.long_start.end());
    L.long_dur.insert(L.long_dur.end(), a.long_dur.begin(), a.long_dur.end());
    L.long_name.insert(L.long_name.end(), a.long_name.begin(), a.long_name.end());
  }
  if (tiles.empty()) return;
  const RowInfo& row = m.rows[m.tiles[tiles[0]].row];
  const TimeNs bin_ns = m.level_bin_ns[level];
  const Range r = range_of(q);
  auto rel = [&](TimeNs t) { return static_cast<double>(t - q.origin); };
  const int64_t b0 = (r.t0 - m.origin) / bin_ns - 1, b1 = (r.t1 - m.origin) / bin_ns;
  auto bi = static_cast<size_t>(std::lower_bound(L.bin.begin(), L.bin.end(), b0) - L.bin.begin());
  const auto be =
      static_cast<size_t>(std::upper_bound(L.bin.begin(), L.bin.end(), b1) - L.bin.begin());
  auto ki = static_cast<size_t>(std::lower_bound(L.long_start.begin(), L.long_start.end(), r.t0) -
                                L.long_start.begin());
  if (ki > 0 && L.long_start[ki - 1] + L.long_dur[ki - 1] >= r.t0) --ki;
  const size_t ke = L.long_start.size();

  bool open = false;
  VisibleSlice run{};
  TimeNs run_busy = 0, run_end = 0, run_bin = 0, longest_dur = 0;
  uint32_t run_longest = 0;
  StrId longest_name = 0;
  auto close_run = [&] {
    if (!open) return;
    if (run.count == 1) {
      run.event = run_longest;
      run.start = rel(run_bin);
      run.end = rel(run_bin + longest_dur);
      run.name = longest_name;
    } else {
      run.event = kNone;
      run.name = longest_name;
      TimeNs span = std::max<TimeNs>(1, run_end - (q.origin + static_cast<TimeNs>(run.start)));
      run.busy_permille = static_cast<uint32_t>(std::min<TimeNs>(1000, run_busy * 1000 / span));
    }
    out->push_back(run);
    open = false;
  };
  while (bi < be || ki < ke) {
    const bool take_bin =
        ki == ke || (bi < be && m.origin + L.bin[bi] * bin_ns <= L.long_start[ki]);
    if (take_bin) {
      const TimeNs bs = m.origin + L.bin[bi] * bin_ns;
      const TimeNs bend = std::max(bs + bin_ns, bs + L.longest_dur[bi]);
      if (bs > r.t1) break;
      if (open && bs - run_end >= r.px) close_run();
      if (!open) {
        run = VisibleSlice{rel(bs), rel(bend), row.track, row.depth, L.longest_name[bi],
                           kNone,   0,         1000};
        run_busy = 0;
        run_end = bend;
        run_bin = bs;
        run_longest = L.longest[bi];
        longest_dur = L.longest_dur[bi];
        longest_name = L.longest_name[bi];
        open = true;
      }
      run.count += L.count[bi];
      run_busy += L.busy[bi];
      run_end = std::max(run_end, bend);
      run.end = rel(run_end);
      if (L.longest_dur[bi] > longest_dur) {
        run_longest = L.longest[bi];
        longest_dur = L.longest_dur[bi];
        longest_name = L.longest_name[bi];
        run_bin = bs;
      }
      ++bi;
    } else {
      const size_t e = ki++;
      if (L.long_start[e] > r.t1) break;
      close_run();
      out->push_back({rel(L.long_start[e]), rel(L.long_start[e] + L.long_dur[e]), row.track,
                      row.depth, L.long_name[e], L.long_event[e], 1, 1000});
    }
  }
  close_run();
}

// One series' buckets, as query_counters() makes them: from its samples at hand, or from the
// index's per-tile ranges when the view spans too many tiles.
void counter_series(const Manifest& m, uint32_t si, const std::vector<uint32_t>& tiles,
                    bool summary, const ViewportQuery& q, const GetTile& get,
                    std::vector<CounterBucket>* out) {
  auto rel = [&](TimeNs t) { return static_cast<double>(t - q.origin); };
  if (summary) {
    for (uint32_t i : tiles) {
      const Tile& t = m.tiles[i];
      out->push_back({si, rel(t.t0), t.vmin, t.vmax, t.vmin});
    }
    return;
  }
  std::vector<TimeNs> ts;
  std::vector<double> val;
  for (uint32_t i : tiles) {
    const DecodedTile* d = get(i);
    if (!d || d->failed) continue;
    ts.insert(ts.end(), d->counter.ts.begin(), d->counter.ts.end());
    val.insert(val.end(), d->counter.value.begin(), d->counter.value.end());
  }
  if (ts.empty()) return;
  const Range r = range_of(q);
  const auto n = static_cast<uint32_t>(ts.size());
  auto i = static_cast<uint32_t>(std::upper_bound(ts.begin(), ts.end(), r.t0) - ts.begin());
  if (i > 0) --i;
  while (i < n && ts[i] <= r.t1) {
    const TimeNs bucket_end = std::max(ts[i], r.t0) + r.px;
    const auto k = static_cast<uint32_t>(
        std::lower_bound(ts.begin() + i + 1, ts.end(), bucket_end) - ts.begin());
    double mn = val[i], mx = val[i];
    for (uint32_t j = i + 1; j < k; ++j) {
      mn = std::min(mn, val[j]);
      mx = std::max(mx, val[j]);
    }
    out->push_back({si, rel(ts[i]), mn, mx, val[k - 1]});
    i = k;
  }
}

}  // namespace

size_t DecodedTile::bytes() const {
  const EventTile& e = events;
  const LevelTile& l = level;
  return sizeof(*this) + error.capacity() + held(e.start) + held(e.dur) + held(e.name) +
         held(e.cat) + held(e.phase) + held(e.src_offset) + held(e.src_len) + held(l.bin) +
         held(l.count) + held(l.busy) + held(l.longest) + held(l.longest_name) +
         held(l.longest_dur) + held(l.long_event) + held(l.long_start) + held(l.long_dur) +
         held(l.long_name) + held(counter.ts) + held(counter.value) + held(flows.edge) +
         held(flows.from) + held(flows.to) + held(flows.kind) + held(flows.from_end) +
         held(flows.to_start) + text.capacity();
}

DecodedTile decode_tile(const Manifest& m, uint32_t i, const uint8_t* data, size_t n) {
  DecodedTile d;
  if (i >= m.tiles.size()) {
    d.failed = true;
    d.error = "tile " + std::to_string(i) + " is not in the index";
    return d;
  }
  const Tile& t = m.tiles[i];
  d.kind = t.kind;
  bool ok = false;
  if (t.kind == TileKind::kEvents) {
    ok = decode_events(t, data, n, &d.events, &d.error);
    // The store index of the tile's first event is the index's (the tile does not repeat it).
    d.events.first = t.first;
    // Names beyond the string table would be drawn from nothing: the empty name instead.
    for (StrId& s : d.events.name)
      if (s >= m.strings.size()) s = 0;
  } else if (t.kind == TileKind::kLevel) {
    ok = decode_level(t, data, n, &d.level, &d.error);
    for (StrId& s : d.level.longest_name)
      if (s >= m.strings.size()) s = 0;
    for (StrId& s : d.level.long_name)
      if (s >= m.strings.size()) s = 0;
  } else if (t.kind == TileKind::kFlows || t.kind == TileKind::kFlowsIn) {
    ok = decode_flows(t, data, n, &d.flows, &d.error);
  } else if (t.kind == TileKind::kAnalysis) {
    ok = decode_text(t, data, n, &d.text, &d.error);
  } else {
    ok = decode_counter(t, data, n, &d.counter, &d.error);
  }
  if (!ok) {
    d.events = EventTile{}, d.level = LevelTile{}, d.counter = CounterTile{};
    d.flows = FlowTile{}, d.text.clear();
    d.failed = true;
  }
  return d;
}

TileLookup make_lookup(const Manifest& m) {
  TileLookup k;
  k.events.resize(m.rows.size());
  k.levels.assign(m.level_bin_ns.size(), std::vector<std::vector<uint32_t>>(m.rows.size()));
  k.counters.resize(m.series.size());
  // Indices were checked at open (parse_index): rows, levels and series are in range.
  for (uint32_t i = 0; i < m.tiles.size(); ++i) {
    const Tile& t = m.tiles[i];
    if (t.kind == TileKind::kEvents && t.row < k.events.size())
      k.events[t.row].push_back(i);
    else if (t.kind == TileKind::kLevel && t.level < k.levels.size() && t.row < m.rows.size())
      k.levels[t.level][t.row].push_back(i);
    else if (t.kind == TileKind::kCounter && t.row < k.counters.size())
      k.counters[t.row].push_back(i);
  }
  return k;
}

int view_level(const Manifest& m, const ViewportQuery& q) {
  const double ns_per_px = (q.end - q.start) / q.width_px;
  int level = -1;
  for (size_t i = 0; i < m.level_bin_ns.size(); ++i)
    if (static_cast<double>(m.level_bin_ns[i]) <= ns_per_px) level = static_cast<int>(i);
  return level;
}

std::vector<uint32_t> plan_view(const Manifest& m, const TileLookup& k, const ViewportQuery& q) {
  std::vector<uint32_t> out;
  if (!(q.end > q.start) || q.width_px == 0) return out;
  const Range r = range_of(q);
  const int level = view_level(m, q);
  for (size_t row = 0; row < m.rows.size(); ++row) {
    const std::vector<uint32_t> t =
        level < 0 ? meeting(m, k.events[row], r.t0, r.t1)
                  : meeting(m, k.levels[level][row], r.t0 - level_margin(m, level), r.t1);
    out.insert(out.end(), t.begin(), t.end());
  }
  for (const std::vector<uint32_t>& list : k.counters) {
    bool summary = false;
    const std::vector<uint32_t> t = counter_tiles(m, list, r, &summary);
    if (!summary) out.insert(out.end(), t.begin(), t.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void view_from_tiles(const Manifest& m, const TileLookup& k, const ViewportQuery& q,
                     const GetTile& get, StrId error_name, std::vector<VisibleSlice>* slices,
                     std::vector<CounterBucket>* buckets) {
  if (!(q.end > q.start) || q.width_px == 0) return;
  const Range r = range_of(q);
  const int level = view_level(m, q);
  for (size_t row = 0; row < m.rows.size(); ++row) {
    if (level < 0)
      events_row(m, meeting(m, k.events[row], r.t0, r.t1), q, get, error_name, slices);
    else
      level_row(m, level, meeting(m, k.levels[level][row], r.t0 - level_margin(m, level), r.t1), q,
                get, error_name, slices);
  }
  for (uint32_t s = 0; s < k.counters.size(); ++s) {
    bool summary = false;
    const std::vector<uint32_t> t = counter_tiles(m, k.counters[s], r, &summary);
    counter_series(m, s, t, summary, q, get, buckets);
  }
}

void series_ranges(const Manifest& m, const TileLookup& k, std::vector<double>* min,
                   std::vector<double>* max) {
  min->assign(k.counters.size(), 0);
  max->assign(k.counters.size(), 0);
  for (size_t s = 0; s < k.counters.size(); ++s)
    for (size_t j = 0; j < k.counters[s].size(); ++j) {
      const Tile& t = m.tiles[k.counters[s][j]];
      (*min)[s] = j == 0 ? t.vmin : std::min((*min)[s], t.vmin);
      (*max)[s] = j == 0 ? t.vmax : std::max((*max)[s], t.vmax);
    }
}

}  // namespace strata::bundle
