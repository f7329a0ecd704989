#include "core/bundle/bundle_reader.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "core/base/byte_reader.h"

namespace strata::bundle {

namespace {

bool fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

std::string tile_name(const Tile& t) {
  static const char* kKinds[] = {"events", "level", "counter", "flows", "flows in", "analysis"};
  const auto k = static_cast<size_t>(t.kind);
  return std::string("tile (") + (k < kTileKinds ? kKinds[k] : "?") + " " + std::to_string(t.row) +
         ", " + std::to_string(t.count) + " items at byte " + std::to_string(t.offset) + ")";
}

template <typename T>
void read_ids(ByteReader& r, std::vector<T>* v) {
  r.get_all(*v, r.get<uint32_t>());
}

// Columns stored as differences from the previous value (start times, bins): summed back.
void undelta(std::vector<int64_t>* v, int64_t base) {
  int64_t acc = base;
  for (int64_t& x : *v) {
    acc += x;
    x = acc;
  }
}

bool tile_blob(const Tile& t, const uint8_t* data, size_t n, std::vector<uint8_t>* raw,
               std::string* error) {
  return inflate_blob(data, n, t.length, t.raw_length, t.crc, tile_name(t).c_str(), raw, error);
}

bool check_end(const ByteReader& r, const Tile& t, std::string* error) {
  if (!r.ok || r.at != r.n) return fail(error, tile_name(t) + ": its columns do not fit it");
  return true;
}

}  // namespace

bool inflate_blob(const uint8_t* data, size_t n, uint32_t length, uint32_t raw, uint32_t crc,
                  const char* what, std::vector<uint8_t>* out, std::string* error) {
  if (n != length)
    return fail(error, std::string(what) + ": " + std::to_string(n) + " bytes, not " +
                           std::to_string(length) + " (missing or cut short)");
  if (static_cast<uint32_t>(crc32(0, data, static_cast<uInt>(n))) != crc)
    return fail(error, std::string(what) + ": checksum mismatch (corrupt bytes)");
  out->resize(raw);
  const size_t got = ZSTD_decompress(out->data(), raw, data, n);
  if (ZSTD_isError(got) || got != raw)
    return fail(error,
                std::string(what) + ": does not inflate to its " + std::to_string(raw) + " bytes");
  return true;
}

bool parse_header(const uint8_t* data, size_t n, Header* out, std::string* error) {
  if (n < kHeaderBytes || std::memcmp(data, kMagic, sizeof(kMagic)) != 0)
    return fail(error, "not a Strata bundle (no STRATABN header)");
  ByteReader r{data + sizeof(kMagic), kHeaderBytes - sizeof(kMagic)};
  Header h;
  h.version = r.get<uint32_t>();
  if (h.version != kFormatVersion)
    return fail(error, "a Strata bundle of format version " + std::to_string(h.version) +
                           "; this Strata reads version " + std::to_string(kFormatVersion) +
                           ": pack the trace again with this version's strata-pack");
  h.flags = r.get<uint32_t>();
  h.index_offset = r.get<uint64_t>();
  h.index_length = r.get<uint32_t>();
  h.index_raw = r.get<uint32_t>();
  h.index_crc = r.get<uint32_t>();
  h.search_length = r.get<uint32_t>();
  h.search_raw = r.get<uint32_t>();
  h.search_crc = r.get<uint32_t>();
  h.search_offset = r.get<uint64_t>();
  h.tiles_bytes = r.get<uint64_t>();
  if (!r.ok) return fail(error, "the bundle's header is cut short");
  *out = h;
  return true;
}

bool parse_index(const Header& h, const uint8_t* data, size_t n, Manifest* out,
                 std::string* error) {
  std::vector<uint8_t> raw;
  if (!inflate_blob(data, n, h.index_length, h.index_raw, h.index_crc, "the bundle's index", &raw,
                    error))
    return false;
  ByteReader r{raw.data(), raw.size()};
  Manifest m;
  m.header = h;
  // Counts are bounded by the bytes left (each entry takes at least one), so a lying count
  // fails the read instead of allocating.
  auto count = [&r]() -> uint32_t {
    const uint32_t c = r.get<uint32_t>();
    if (c > r.n - r.at) r.ok = false;
    return r.ok ? c : 0;
  };
  m.producer = r.str();
  m.sources.resize(count());
  for (SourceInfo& s : m.sources) {
    s.name = r.str(), s.format = r.str(), s.compression = r.str();
    s.bytes = r.get<uint64_t>(), s.stream_base = r.get<uint64_t>();
  }
  m.start_ns = r.get<int64_t>(), m.end_ns = r.get<int64_t>();
  m.has_time = r.get<uint8_t>() != 0;
  m.events = r.get<uint64_t>(), m.samples = r.get<uint64_t>();
  m.summary.busy_ns = r.get<int64_t>();
  m.summary.steps = r.get<uint32_t>();
  m.summary.step_median_ns = r.get<int64_t>();
  m.display_time_unit = r.str();
  r.get_all(m.phase_counts, 256);
  for (auto* list : {&m.errors, &m.warnings, &m.notes}) {
    list->resize(count());
    for (std::string& text : *list) text = r.str();
  }
  m.strings.resize(count());
  for (std::string& s : m.strings) s = r.str();
  m.processes.resize(count());
  for (ProcessInfo& p : m.processes) {
    p.key = r.str();
    p.pid = r.get<int64_t>(), p.sort_index = r.get<int64_t>();
    p.name = r.get<uint32_t>();
    p.has_sort_index = r.get<uint8_t>(), p.global = r.get<uint8_t>();
    p.file = r.get<uint32_t>();
    read_ids(r, &p.labels);
    read_ids(r, &p.tracks);
  }
  m.tracks.resize(count());
  for (TrackInfo& t : m.tracks) {
    t.process = r.get<uint32_t>();
    t.kind = r.get<uint8_t>();
    t.key = r.str();
    t.tid = r.get<int64_t>(), t.sort_index = r.get<int64_t>();
    t.name = r.get<uint32_t>();
    t.has_sort_index = r.get<uint8_t>();
    t.first_event = r.get<uint32_t>(), t.event_count = r.get<uint32_t>();
    t.max_depth = r.get<uint32_t>();
    read_ids(r, &t.rows);
    t.first_series = r.get<uint32_t>(), t.series_count = r.get<uint32_t>();
  }
  m.series.resize(count());
  for (SeriesInfo& s : m.series) {
    s.track = r.get<uint32_t>(), s.name = r.get<uint32_t>();
    s.first_sample = r.get<uint32_t>(), s.sample_count = r.get<uint32_t>();
    s.in_bytes = r.get<uint8_t>();
    s.scale = r.get<double>();
  }
  m.origin = r.get<int64_t>();
  m.rows.resize(count());
  for (RowInfo& row : m.rows) row.track = r.get<uint32_t>(), row.depth = r.get<uint32_t>();
  read_ids(r, &m.level_bin_ns);
  m.tiles.resize(count());
  for (Tile& t : m.tiles) {
    t.kind = static_cast<TileKind>(r.get<uint8_t>());
    t.level = r.get<uint8_t>();
    t.row = r.get<uint32_t>();
    t.t0 = r.get<int64_t>(), t.t1 = r.get<int64_t>();
    t.count = r.get<uint32_t>(), t.first = r.get<uint32_t>();
    t.offset = r.get<uint64_t>();
    t.length = r.get<uint32_t>(), t.raw_length = r.get<uint32_t>(), t.crc = r.get<uint32_t>();
    t.vmin = r.get<double>(), t.vmax = r.get<double>();
  }
  m.flows = r.get<uint64_t>();
  m.flow_kinds.resize(count());
  for (FlowKindInfo& k : m.flow_kinds) k.name = r.get<uint32_t>(), k.cat = r.get<uint32_t>();
  m.analysis_list = r.str();
  m.analyses.resize(count());
  for (std::string& name : m.analyses) name = r.str();
  if (!r.ok || r.at != r.n) return fail(error, "the bundle's index is corrupt");
  // References the tiles and queries follow are checked once here.
  for (const Tile& t : m.tiles) {
    size_t limit = m.rows.size();
    if (t.kind == TileKind::kCounter) limit = m.series.size();
    if (t.kind == TileKind::kAnalysis) limit = m.analyses.size();
    const bool flows = t.kind == TileKind::kFlows || t.kind == TileKind::kFlowsIn;
    if (static_cast<uint8_t>(t.kind) >= kTileKinds || (flows ? t.row != 0 : t.row >= limit) ||
        (flows && static_cast<uint64_t>(t.first) + t.count > m.flows) ||
        (t.kind == TileKind::kLevel && t.level >= m.level_bin_ns.size()))
      return fail(error, "the bundle's index is corrupt (a tile refers to nothing)");
  }
  for (const FlowKindInfo& k : m.flow_kinds)
    if (k.name >= std::max<size_t>(1, m.strings.size()) ||
        k.cat >= std::max<size_t>(1, m.strings.size()))
      return fail(error, "the bundle's index is corrupt (a flow kind's name is not there)");
  // The store's layout rules the queries rely on (core/store/trace_store.h): each track's rows
  // are ascending and inside the events, series inside the samples, every index in range.
  const char* bad = nullptr;
  for (const ProcessInfo& p : m.processes)
    for (uint32_t t : p.tracks)
      if (t >= m.tracks.size()) bad = "a process lists a track that is not there";
  for (const TrackInfo& t : m.tracks) {
    if (t.process >= m.processes.size()) bad = "a track's process is not there";
    if (t.kind > 5) bad = "a track of no known kind";
    if (static_cast<uint64_t>(t.first_event) + t.event_count > m.events)
      bad = "a track's events are outside the trace";
    if (static_cast<uint64_t>(t.first_series) + t.series_count > m.series.size())
      bad = "a track's counter series are not there";
    for (size_t d = 0; d < t.rows.size(); ++d)
      if (t.rows[d] > m.events || (d && t.rows[d] < t.rows[d - 1]) || t.rows[d] < t.first_event ||
          t.rows[d] > t.first_event + t.event_count)
        bad = "a track's rows are out of order";
  }
  for (const SeriesInfo& c : m.series)
    if (c.track >= m.tracks.size() ||
        static_cast<uint64_t>(c.first_sample) + c.sample_count > m.samples)
      bad = "a counter series is outside the samples";
  for (const RowInfo& row : m.rows)
    if (row.track >= m.tracks.size() || row.depth + 1 >= m.tracks[row.track].rows.size())
      bad = "a row refers to nothing";
  for (const Tile& t : m.tiles) {
    if (bad) break;  // the checks below index the rows checked above
    if (t.kind != TileKind::kEvents) continue;
    const TrackInfo& tr = m.tracks[m.rows[t.row].track];
    const uint32_t depth = m.rows[t.row].depth;
    if (t.first < tr.rows[depth] ||
        t.count > tr.rows[depth + 1] - std::min(t.first, tr.rows[depth + 1]))
      bad = "an events tile lies outside its row";
  }
  if (bad) return fail(error, std::string("the bundle's index is corrupt (") + bad + ")");
  *out = std::move(m);
  return true;
}

bool parse_search(const Header& h, const uint8_t* data, size_t n, size_t strings, SearchIndex* out,
                  std::string* error) {
  std::vector<uint8_t> raw;
  if (!inflate_blob(data, n, h.search_length, h.search_raw, h.search_crc,
                    "the bundle's search index", &raw, error))
    return false;
  ByteReader r{raw.data(), raw.size()};
  SearchIndex s;
  r.get_all(s.offsets, strings + 1);
  read_ids(r, &s.tiles);
  if (!r.ok || r.at != r.n || s.offsets.back() != s.tiles.size())
    return fail(error, "the bundle's search index is corrupt");
  for (size_t i = 0; i + 1 < s.offsets.size(); ++i)
    if (s.offsets[i] > s.offsets[i + 1]) return fail(error, "the bundle's search index is corrupt");
  *out = std::move(s);
  return true;
}

bool decode_events(const Tile& t, const uint8_t* data, size_t n, EventTile* out,
                   std::string* error) {
  std::vector<uint8_t> raw;
  if (t.kind != TileKind::kEvents) return fail(error, tile_name(t) + ": not an events tile");
  if (!tile_blob(t, data, n, &raw, error)) return false;
  ByteReader r{raw.data(), raw.size()};
  EventTile e;
  e.first = t.first;
  const size_t c = t.count;
  r.get_all(e.start, c), r.get_all(e.dur, c), r.get_all(e.name, c), r.get_all(e.cat, c);
  r.get_all(e.phase, c), r.get_all(e.src_offset, c), r.get_all(e.src_len, c);
  if (!check_end(r, t, error)) return false;
  undelta(&e.start, t.t0);
  *out = std::move(e);
  return true;
}

bool decode_level(const Tile& t, const uint8_t* data, size_t n, LevelTile* out,
                  std::string* error) {
  std::vector<uint8_t> raw;
  if (t.kind != TileKind::kLevel) return fail(error, tile_name(t) + ": not a level tile");
  if (!tile_blob(t, data, n, &raw, error)) return false;
  ByteReader r{raw.data(), raw.size()};
  LevelTile l;
  const uint32_t bins = r.get<uint32_t>(), longs = r.get<uint32_t>();
  if (static_cast<uint64_t>(bins) + longs != t.count)
    return fail(error, tile_name(t) + ": its counts do not match the index");
  r.get_all(l.bin, bins), r.get_all(l.count, bins), r.get_all(l.busy, bins);
  r.get_all(l.longest, bins), r.get_all(l.longest_name, bins), r.get_all(l.longest_dur, bins);
  r.get_all(l.long_event, longs), r.get_all(l.long_start, longs), r.get_all(l.long_dur, longs);
  r.get_all(l.long_name, longs);
  if (!check_end(r, t, error)) return false;
  undelta(&l.bin, 0);
  undelta(&l.long_start, t.t0);
  *out = std::move(l);
  return true;
}

bool decode_counter(const Tile& t, const uint8_t* data, size_t n, CounterTile* out,
                    std::string* error) {
  std::vector<uint8_t> raw;
  if (t.kind != TileKind::kCounter) return fail(error, tile_name(t) + ": not a counter tile");
  if (!tile_blob(t, data, n, &raw, error)) return false;
  ByteReader r{raw.data(), raw.size()};
  CounterTile c;
  r.get_all(c.ts, t.count), r.get_all(c.value, t.count);
  if (!check_end(r, t, error)) return false;
  undelta(&c.ts, t.t0);
  *out = std::move(c);
  return true;
}

bool decode_flows(const Tile& t, const uint8_t* data, size_t n, FlowTile* out, std::string* error) {
  std::vector<uint8_t> raw;
  if (t.kind != TileKind::kFlows && t.kind != TileKind::kFlowsIn)
    return fail(error, tile_name(t) + ": not a flows tile");
  if (!tile_blob(t, data, n, &raw, error)) return false;
  ByteReader r{raw.data(), raw.size()};
  FlowTile f;
  const size_t c = t.count;
  if (t.kind == TileKind::kFlowsIn) {
    r.get_all(f.edge, c);
  } else {
    f.edge.resize(c);
    for (size_t k = 0; k < c; ++k) f.edge[k] = t.first + static_cast<uint32_t>(k);
  }
  r.get_all(f.from, c), r.get_all(f.to, c), r.get_all(f.kind, c);
  // Arrows are drawn from the source-ordered tiles: the target-ordered ones carry no times.
  if (t.kind == TileKind::kFlows) r.get_all(f.from_end, c), r.get_all(f.to_start, c);
  if (!check_end(r, t, error)) return false;
  for (TimeNs& x : f.from_end) x += t.t0;
  for (TimeNs& x : f.to_start) x += t.t0;
  *out = std::move(f);
  return true;
}

bool decode_text(const Tile& t, const uint8_t* data, size_t n, std::string* out,
                 std::string* error) {
  std::vector<uint8_t> raw;
  if (t.kind != TileKind::kAnalysis) return fail(error, tile_name(t) + ": not an analysis tile");
  if (!tile_blob(t, data, n, &raw, error)) return false;
  out->assign(raw.begin(), raw.end());
  return true;
}

std::vector<uint32_t> tiles_in_range(const Manifest& m, TileKind kind, uint32_t row, uint8_t level,
                                     TimeNs t0, TimeNs t1) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < m.tiles.size(); ++i) {
    const Tile& t = m.tiles[i];
    if (t.kind != kind || t.row != row || (kind == TileKind::kLevel && t.level != level)) continue;
    // An instant at the range's end is in it: [t0, t1] against the tile's [t0, t1].
    if (t.t0 <= t1 && t.t1 >= t0) out.push_back(i);
  }
  return out;
}

std::vector<uint32_t> view_tiles(const Manifest& m, TimeNs t0, TimeNs t1, double width_px) {
  std::vector<uint32_t> out;
  if (!(t1 > t0) || !(width_px > 0)) return out;
  const double ns_per_px = static_cast<double>(t1 - t0) / width_px;
  int level = -1;
  for (size_t i = 0; i < m.level_bin_ns.size(); ++i)
    if (static_cast<double>(m.level_bin_ns[i]) <= ns_per_px) level = static_cast<int>(i);
  const TileKind kind = level < 0 ? TileKind::kEvents : TileKind::kLevel;
  for (uint32_t i = 0; i < m.tiles.size(); ++i) {
    const Tile& t = m.tiles[i];
    if (t.kind != kind || (level >= 0 && t.level != level)) continue;
    if (t.t0 <= t1 && t.t1 >= t0) out.push_back(i);
  }
  return out;
}

}  // namespace strata::bundle
