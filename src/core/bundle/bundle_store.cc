#include "core/bundle/bundle_store.h"

#include <algorithm>
#include <cstring>

#include "core/bundle/bundle_reader.h"
#include "core/store/trace_store.h"

namespace strata::bundle {

bool store_tables(const Manifest& m, TraceStore* s, std::string* error) {
  // Interning in id order gives every string its id back (the table holds each string once,
  // and id 0 is the empty string in both).
  for (size_t i = 1; i < m.strings.size(); ++i)
    if (s->strings.intern(m.strings[i]) != i) {
      *error = "the bundle's string table repeats a string";
      return false;
    }
  const auto nstrings = static_cast<StrId>(std::max<size_t>(1, m.strings.size()));
  auto id = [nstrings](StrId v) { return v < nstrings ? v : 0; };
  for (const SourceInfo& f : m.sources) {
    SourceFile sf;
    sf.name = f.name, sf.format = f.format, sf.compression = f.compression;
    sf.bytes = f.bytes, sf.stream_base = f.stream_base, sf.loaded = f.bytes;
    s->files.push_back(sf);
  }
  for (const ProcessInfo& p : m.processes) {
    Process q;
    q.key = p.key, q.pid = p.pid, q.name = id(p.name), q.sort_index = p.sort_index;
    q.has_sort_index = p.has_sort_index, q.global = p.global, q.file = p.file;
    q.labels = p.labels, q.tracks = p.tracks;
    for (StrId& l : q.labels) l = id(l);
    s->processes.push_back(std::move(q));
  }
  for (const TrackInfo& t : m.tracks) {
    Track u;
    u.process = t.process, u.kind = static_cast<TrackKind>(t.kind), u.key = t.key;
    u.tid = t.tid, u.name = id(t.name), u.sort_index = t.sort_index;
    u.has_sort_index = t.has_sort_index, u.first_event = t.first_event;
    u.event_count = t.event_count, u.max_depth = t.max_depth, u.rows = t.rows;
    u.first_series = t.first_series, u.series_count = t.series_count;
    s->tracks.push_back(std::move(u));
  }
  for (const SeriesInfo& c : m.series) {
    CounterSeries cs;
    cs.track = c.track, cs.name = id(c.name), cs.first_sample = c.first_sample;
    cs.sample_count = c.sample_count, cs.in_bytes = c.in_bytes, cs.scale = c.scale;
    s->series.push_back(cs);
  }
  s->start_ns = m.start_ns, s->end_ns = m.end_ns, s->has_time = m.has_time;
  s->display_time_unit = m.display_time_unit;
  std::copy_n(m.phase_counts.begin(), std::min<size_t>(256, m.phase_counts.size()),
              s->phase_counts.begin());
  s->errors = m.errors, s->warnings = m.warnings, s->notes = m.notes;
  return true;
}

bool store_from_bundle(const Manifest& m, const FetchTile& fetch, TraceStore* out,
                       size_t* bad_tiles, std::string* error) {
  TraceStore s;
  *bad_tiles = 0;
  if (!store_tables(m, &s, error)) return false;
  EventColumns& ev = s.events;
  const size_t n = m.events;
  ev.start.assign(n, 0), ev.dur.assign(n, 0), ev.name.assign(n, 0), ev.cat.assign(n, 0);
  ev.track.assign(n, 0), ev.depth.assign(n, 0), ev.phase.assign(n, 'X');
  ev.src_offset.assign(n, 0), ev.src_len.assign(n, 0);
  s.samples.ts.assign(m.samples, 0), s.samples.value.assign(m.samples, 0);
  std::vector<uint8_t> bytes;
  const auto nstrings = static_cast<StrId>(std::max<size_t>(1, m.strings.size()));
  FlowColumns& fl = s.flows;
  for (const FlowKindInfo& k : m.flow_kinds) fl.kinds.push_back({k.name, k.cat});
  for (uint32_t i = 0; i < m.tiles.size(); ++i) {
    const Tile& t = m.tiles[i];
    // The pyramid is rebuilt from the events, by_to from the edges; the analyses run again.
    if (t.kind == TileKind::kLevel || t.kind == TileKind::kFlowsIn || t.kind == TileKind::kAnalysis)
      continue;
    const size_t limit = t.kind == TileKind::kEvents  ? n
                         : t.kind == TileKind::kFlows ? m.flows
                                                      : m.samples;
    std::string why;
    bool ok = t.first <= limit && t.count <= limit - t.first;
    if (!ok) why = "tile " + std::to_string(i) + " lies outside the trace";
    if (ok && !(ok = fetch(i, &bytes))) why = "tile " + std::to_string(i) + " cannot be read";
    if (ok && t.kind == TileKind::kEvents) {
      EventTile e;
      if ((ok = decode_events(t, bytes.data(), bytes.size(), &e, &why))) {
        const RowInfo row = m.rows[t.row];
        for (size_t k = 0; k < e.size(); ++k) {
          const size_t x = t.first + k;
          ev.start[x] = e.start[k], ev.dur[x] = e.dur[k];
          ev.name[x] = e.name[k] < nstrings ? e.name[k] : 0;
          ev.cat[x] = e.cat[k] < nstrings ? e.cat[k] : 0;
          ev.phase[x] = e.phase[k], ev.src_offset[x] = e.src_offset[k];
          ev.src_len[x] = e.src_len[k];
          ev.track[x] = row.track, ev.depth[x] = row.depth;
        }
      }
    } else if (ok && t.kind == TileKind::kFlows) {
      FlowTile f;
      if ((ok = decode_flows(t, bytes.data(), bytes.size(), &f, &why))) {
        // Edges are written in the store's order, so appending keeps them sorted by source.
        for (size_t k = 0; k < f.size(); ++k) {
          if (f.from[k] >= n || f.to[k] >= n || f.kind[k] >= fl.kinds.size()) continue;
          fl.from.push_back(f.from[k]), fl.to.push_back(f.to[k]), fl.kind.push_back(f.kind[k]);
        }
      }
    } else if (ok) {
      CounterTile c;
      if ((ok = decode_counter(t, bytes.data(), bytes.size(), &c, &why))) {
        std::copy(c.ts.begin(), c.ts.end(), s.samples.ts.begin() + t.first);
        std::copy(c.value.begin(), c.value.end(), s.samples.value.begin() + t.first);
      }
    }
    if (!ok) {
      ++*bad_tiles;
      s.errors.push_back("bundle " + why);
      // Its events stay in their row as empty marks at the tile's start, so the row stays in
      // time order (views and searches binary-search it) and shows where data is missing.
      if (t.kind == TileKind::kEvents && t.first <= n && t.count <= n - t.first)
        for (size_t x = t.first; x < t.first + t.count; ++x) {
          ev.start[x] = t.t0, ev.dur[x] = 0, ev.phase[x] = 'i';
          ev.track[x] = m.rows[t.row].track, ev.depth[x] = m.rows[t.row].depth;
        }
    }
  }
  // by_to as the builder orders it: stable by target, so edges into one event stay by source.
  fl.by_to.resize(fl.size());
  for (uint32_t e = 0; e < fl.by_to.size(); ++e) fl.by_to[e] = e;
  std::stable_sort(fl.by_to.begin(), fl.by_to.end(),
                   [&](uint32_t a, uint32_t b) { return fl.to[a] < fl.to[b]; });
  *out = std::move(s);
  return true;
}

}  // namespace strata::bundle
