#include "tools/pack/bundle_writer.h"

#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/gpu_work.h"
#include "core/analysis/intervals.h"
#include "core/analysis/steps.h"

namespace strata::bundle {

namespace {

// Little-endian bytes (every supported host is little-endian, as the wasm target is).
struct Bytes {
  std::vector<uint8_t> b;
  template <typename T>
  void put(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof(T));
  }
  template <typename T>
  void put_all(const T* v, size_t n) {
    const auto* p = reinterpret_cast<const uint8_t*>(v);
    b.insert(b.end(), p, p + n * sizeof(T));
  }
  template <typename T>
  void put_list(const std::vector<T>& v) {
    put<uint32_t>(static_cast<uint32_t>(v.size()));
    put_all(v.data(), v.size());
  }
  void str(std::string_view s) {
    put<uint32_t>(static_cast<uint32_t>(s.size()));
    b.insert(b.end(), s.begin(), s.end());
  }
};

// Differences from the previous value (the first from `base`): sorted times compress to a few
// bits each.
std::vector<int64_t> deltas(const int64_t* v, size_t n, int64_t base) {
  std::vector<int64_t> d(n);
  for (size_t i = 0; i < n; ++i) {
    d[i] = v[i] - base;
    base = v[i];
  }
  return d;
}

struct Compressed {
  std::vector<uint8_t> bytes;
  uint32_t raw = 0, crc = 0;
};

class Packer {
 public:
  Packer(const TraceStore& s, const Pyramid& p, const PackOptions& o, PackStats* st)
      : s_(s), p_(p), o_(o), st_(st) {}
  ~Packer() {
    if (cctx_) ZSTD_freeCCtx(cctx_);
    if (f_) std::fclose(f_);
  }
  bool run(std::string* error);

 private:
  bool compress(const std::vector<uint8_t>& raw, Compressed* out);
  bool add_tile(Tile t, const Bytes& raw);
  // Each writes the tile of a row (or series) that starts at its cursor and moves the cursor past
  // it; the caller orders them (write_tiles).
  void event_tile(uint32_t row, uint32_t* at);
  void level_tile(uint32_t row, uint8_t level, uint32_t* bin, uint32_t* long_event);
  void counter_tile(uint32_t series, uint32_t* at);
  void write_tiles();
  void flow_tiles(bool by_target);
  void analysis_tiles();
  Bytes index_blob() const;
  Bytes search_blob() const;
  bool write(FILE* f, const void* data, size_t n);

  const TraceStore& s_;
  const Pyramid& p_;
  const PackOptions& o_;
  PackStats* st_;
  ZSTD_CCtx* cctx_ = nullptr;
  FILE* f_ = nullptr;  // the bundle (one file) or nothing (split)
  uint64_t pos_ = 0;   // the one-file offset of the next tile
  std::string error_;  // the first write error
  std::vector<Tile> tiles_;
  std::vector<std::pair<StrId, uint32_t>> name_tiles_;  // (name, events tile), for search
};

bool Packer::compress(const std::vector<uint8_t>& raw, Compressed* out) {
  out->bytes.resize(ZSTD_compressBound(raw.size()));
  const size_t n = ZSTD_compressCCtx(cctx_, out->bytes.data(), out->bytes.size(), raw.data(),
                                     raw.size(), kZstdLevel);
  if (ZSTD_isError(n)) {
    error_ = std::string("zstd: ") + ZSTD_getErrorName(n);
    return false;
  }
  out->bytes.resize(n);
  out->raw = static_cast<uint32_t>(raw.size());
  out->crc = static_cast<uint32_t>(crc32(0, out->bytes.data(), static_cast<uInt>(n)));
  return true;
}

bool Packer::write(FILE* f, const void* data, size_t n) {
  if (n && std::fwrite(data, 1, n, f) != n) {
    if (error_.empty()) error_ = std::string("cannot write the bundle: ") + std::strerror(errno);
    return false;
  }
  return true;
}

bool Packer::add_tile(Tile t, const Bytes& raw) {
  Compressed c;
  if (!error_.empty() || !compress(raw.b, &c)) return false;
  t.offset = pos_;
  t.length = static_cast<uint32_t>(c.bytes.size());
  t.raw_length = c.raw;
  t.crc = c.crc;
  if (o_.split) {
    const std::string path = o_.out + "/tiles/" + std::to_string(tiles_.size()) + ".zst";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
      error_ = "cannot write " + path + ": " + std::strerror(errno);
      return false;
    }
    const bool ok = write(f, c.bytes.data(), c.bytes.size());
    if (std::fclose(f) != 0 && ok) error_ = "cannot write " + path;
    if (!error_.empty()) return false;
  } else if (!write(f_, c.bytes.data(), c.bytes.size())) {
    return false;
  }
  pos_ += c.bytes.size();
  const auto k = static_cast<size_t>(t.kind);
  ++st_->tiles[k];
  st_->tile_bytes[k] += c.bytes.size();
  st_->raw_bytes[k] += c.raw;
  tiles_.push_back(t);
  return true;
}

// A tile of `count` items of one row or series from item `first` (its times set by the caller).
Tile items_tile(TileKind kind, uint32_t row, uint32_t first, uint32_t count) {
  Tile t;
  t.kind = kind;
  t.row = row;
  t.first = first;
  t.count = count;
  return t;
}

void Packer::event_tile(uint32_t row, uint32_t* at) {
  const PyramidRow& pr = p_.rows[row];
  const EventColumns& ev = s_.events;
  const uint32_t a = *at, hi = s_.tracks[pr.track].rows[pr.depth + 1];
  const uint32_t b = std::min(hi, a + o_.tile_items), n = b - a;
  *at = b;
  Tile t = items_tile(TileKind::kEvents, row, a, n);
  t.t0 = ev.start[a];
  t.t1 = t.t0;
  for (uint32_t e = a; e < b; ++e) t.t1 = std::max(t.t1, end_of(ev.start[e], ev.dur[e]));
  Bytes raw;
  raw.put_all(deltas(ev.start.data() + a, n, t.t0).data(), n);
  raw.put_all(ev.dur.data() + a, n);
  raw.put_all(ev.name.data() + a, n);
  raw.put_all(ev.cat.data() + a, n);
  raw.put_all(ev.phase.data() + a, n);
  raw.put_all(ev.src_offset.data() + a, n);
  raw.put_all(ev.src_len.data() + a, n);
  std::vector<StrId> names(ev.name.begin() + a, ev.name.begin() + b);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const auto index = static_cast<uint32_t>(tiles_.size());
  if (!add_tile(t, raw)) return;
  for (StrId id : names) name_tiles_.emplace_back(id, index);
}

// A level's bins and long events of one row, merged by time and cut every tile_items items: the
// next tile from bin *bin and long event *long_event on.
void Packer::level_tile(uint32_t row, uint8_t level, uint32_t* bin, uint32_t* long_event) {
  const PyramidLevel& L = p_.levels[level];
  const EventColumns& ev = s_.events;
  uint32_t bi = *bin, be = L.row_bins[row + 1];
  uint32_t li = *long_event, le = L.row_long[row + 1];
  auto bin_time = [&](uint32_t i) { return p_.origin + L.bin[i] * L.bin_ns; };
  const uint32_t b0 = bi, l0 = li;
  while ((bi < be || li < le) && (bi - b0) + (li - l0) < o_.tile_items) {
    if (li == le || (bi < be && bin_time(bi) <= ev.start[L.long_events[li]]))
      ++bi;
    else
      ++li;
  }
  const uint32_t nb = bi - b0, nl = li - l0;
  Tile t;
  t.kind = TileKind::kLevel;
  t.level = level;
  t.row = row;
  t.first = b0;
  t.count = nb + nl;
  t.t0 = INT64_MAX, t.t1 = INT64_MIN;
  std::vector<StrId> lname(nb), long_name(nl);
  std::vector<TimeNs> ldur(nb), long_start(nl), long_dur(nl);
  for (uint32_t i = 0; i < nb; ++i) {
    const uint32_t e = L.longest[b0 + i];
    lname[i] = ev.name[e], ldur[i] = ev.dur[e];
    t.t0 = std::min(t.t0, bin_time(b0 + i));
    t.t1 = std::max(t.t1, bin_time(b0 + i) + L.bin_ns);
  }
  for (uint32_t i = 0; i < nl; ++i) {
    const uint32_t e = L.long_events[l0 + i];
    long_name[i] = ev.name[e], long_start[i] = ev.start[e], long_dur[i] = ev.dur[e];
    t.t0 = std::min(t.t0, ev.start[e]);
    t.t1 = std::max(t.t1, end_of(ev.start[e], ev.dur[e]));
  }
  Bytes raw;
  raw.put<uint32_t>(nb), raw.put<uint32_t>(nl);
  raw.put_all(deltas(L.bin.data() + b0, nb, 0).data(), nb);
  raw.put_all(L.count.data() + b0, nb);
  raw.put_all(L.busy.data() + b0, nb);
  raw.put_all(L.longest.data() + b0, nb);
  raw.put_all(lname.data(), nb);
  raw.put_all(ldur.data(), nb);
  raw.put_all(L.long_events.data() + l0, nl);
  raw.put_all(deltas(long_start.data(), nl, t.t0).data(), nl);
  raw.put_all(long_dur.data(), nl);
  raw.put_all(long_name.data(), nl);
  *bin = bi, *long_event = li;
  add_tile(t, raw);
}

void Packer::counter_tile(uint32_t series, uint32_t* at) {
  const CounterSeries& cs = s_.series[series];
  const uint32_t a = *at, hi = cs.first_sample + cs.sample_count;
  const uint32_t b = std::min(hi, a + o_.tile_items), n = b - a;
  *at = b;
  Tile t = items_tile(TileKind::kCounter, series, a, n);
  t.t0 = s_.samples.ts[a], t.t1 = s_.samples.ts[b - 1];
  const auto mm = std::minmax_element(s_.samples.value.data() + a, s_.samples.value.data() + a + n);
  t.vmin = *mm.first, t.vmax = *mm.second;
  Bytes raw;
  raw.put_all(deltas(s_.samples.ts.data() + a, n, t.t0).data(), n);
  raw.put_all(s_.samples.value.data() + a, n);
  add_tile(t, raw);
}

// Calls emit(k) for the next tile of row (or series) k, over k < n, in the order of those tiles'
// first times: next(k) gives row k's next tile's first time, false when it has none left.
template <typename Next, typename Emit>
void by_time(uint32_t n, const Next& next, const Emit& emit, const std::string& error) {
  using Item = std::pair<TimeNs, uint32_t>;  // (first time, row): the earliest, then the lower row
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heads;
  TimeNs t = 0;
  for (uint32_t k = 0; k < n; ++k)
    if (next(k, &t)) heads.emplace(t, k);
  while (!heads.empty() && error.empty()) {
    const uint32_t k = heads.top().second;
    heads.pop();
    emit(k);
    if (next(k, &t)) heads.emplace(t, k);
  }
}

// A view reads, for each row it shows, the tiles of one level (or the events) over its time
// range, so that is how they are laid out: each level's tiles together (the coarse levels a
// first view reads first), then the events, each group in time order across its rows, then the
// counters. A view's tiles then lie side by side, and the reader fetches them by a few byte
// ranges (core/bundle/fetch_runs) instead of one per row.
void Packer::write_tiles() {
  const EventColumns& ev = s_.events;
  const auto nrows = static_cast<uint32_t>(p_.rows.size());
  std::vector<uint32_t> at(nrows), at_long(nrows);
  for (size_t l = p_.levels.size(); l-- > 0;) {
    const PyramidLevel& L = p_.levels[l];
    for (uint32_t r = 0; r < nrows; ++r) at[r] = L.row_bins[r], at_long[r] = L.row_long[r];
    auto next = [&](uint32_t r, TimeNs* t) {
      const bool bin = at[r] < L.row_bins[r + 1], lng = at_long[r] < L.row_long[r + 1];
      if (!bin && !lng) return false;
      *t = bin ? p_.origin + L.bin[at[r]] * L.bin_ns : INT64_MAX;
      if (lng) *t = std::min(*t, ev.start[L.long_events[at_long[r]]]);
      return true;
    };
    by_time(
        nrows, next,
        [&](uint32_t r) { level_tile(r, static_cast<uint8_t>(l), &at[r], &at_long[r]); }, error_);
  }
  for (uint32_t r = 0; r < nrows; ++r) {
    const PyramidRow& pr = p_.rows[r];
    at[r] = s_.tracks[pr.track].rows[pr.depth];
  }
  auto next_event = [&](uint32_t r, TimeNs* t) {
    const PyramidRow& pr = p_.rows[r];
    if (at[r] >= s_.tracks[pr.track].rows[pr.depth + 1]) return false;
    *t = ev.start[at[r]];
    return true;
  };
  by_time(
      nrows, next_event, [&](uint32_t r) { event_tile(r, &at[r]); }, error_);
  // Counters series by series: a zoomed-out view reads a series' tiles only when it has few
  // (bundle::kMaxCounterTilesPerView; else the index's min and max), and then all of them in
  // range, which lie together so.
  for (uint32_t c = 0; c < s_.series.size() && error_.empty(); ++c) {
    const CounterSeries& cs = s_.series[c];
    for (uint32_t a = cs.first_sample; a < cs.first_sample + cs.sample_count && error_.empty();)
      counter_tile(c, &a);
  }
}

// The flow edges cut every tile_items: in the store's order (by source event, with the arrows'
// times, what a view draws), or in by_to's (by target event: a details pane's incoming flows).
void Packer::flow_tiles(bool by_target) {
  const FlowColumns& f = s_.flows;
  const EventColumns& ev = s_.events;
  const auto n_edges = static_cast<uint32_t>(f.size());
  for (uint32_t a = 0; a < n_edges; a += o_.tile_items) {
    const uint32_t b = std::min(n_edges, a + o_.tile_items), n = b - a;
    Tile t = items_tile(by_target ? TileKind::kFlowsIn : TileKind::kFlows, 0, a, n);
    std::vector<uint32_t> edge(n), from(n), to(n), kind(n);
    std::vector<TimeNs> from_end(n), to_start(n);
    t.t0 = INT64_MAX, t.t1 = INT64_MIN;
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t e = by_target ? f.by_to[a + k] : a + k;
      edge[k] = e, from[k] = f.from[e], to[k] = f.to[e], kind[k] = f.kind[e];
      from_end[k] = end_of(ev.start[from[k]], ev.dur[from[k]]);
      to_start[k] = ev.start[to[k]];
      t.t0 = std::min({t.t0, from_end[k], to_start[k]});
      t.t1 = std::max({t.t1, from_end[k], to_start[k]});
    }
    // The range of the order's own key (ascending in a tile): which tile holds an event's edges.
    t.vmin = by_target ? to.front() : from.front();
    t.vmax = by_target ? to.back() : from.back();
    for (TimeNs& x : from_end) x -= t.t0;
    for (TimeNs& x : to_start) x -= t.t0;
    Bytes raw;
    if (by_target) raw.put_all(edge.data(), n);
    raw.put_all(from.data(), n), raw.put_all(to.data(), n), raw.put_all(kind.data(), n);
    if (!by_target) raw.put_all(from_end.data(), n), raw.put_all(to_start.data(), n);
    if (!add_tile(t, raw)) return;
  }
}

void Packer::analysis_tiles() {
  for (uint32_t k = 0; k < o_.analyses.size() && error_.empty(); ++k) {
    Tile t = items_tile(TileKind::kAnalysis, k, 0, 1);
    t.t0 = s_.start_ns, t.t1 = s_.end_ns;
    Bytes raw;
    raw.b.assign(o_.analyses[k].second.begin(), o_.analyses[k].second.end());
    if (!add_tile(t, raw)) return;
  }
}

Bytes Packer::index_blob() const {
  Bytes x;
  x.str("strata-pack " + std::to_string(kFormatVersion));
  x.put<uint32_t>(static_cast<uint32_t>(s_.files.size()));
  for (const SourceFile& f : s_.files) {
    x.str(f.name), x.str(f.format), x.str(f.compression);
    x.put<uint64_t>(f.bytes), x.put<uint64_t>(f.stream_base);
  }
  x.put<int64_t>(s_.start_ns), x.put<int64_t>(s_.end_ns), x.put<uint8_t>(s_.has_time);
  x.put<uint64_t>(s_.events.size()), x.put<uint64_t>(s_.samples.size());
  const HostSummary sum = host_summary(s_);
  x.put<int64_t>(sum.busy_ns), x.put<uint32_t>(sum.steps), x.put<int64_t>(sum.step_median_ns);
  x.str(s_.display_time_unit);
  x.put_all(s_.phase_counts.data(), s_.phase_counts.size());
  for (const auto* list : {&s_.errors, &s_.warnings, &s_.notes}) {
    x.put<uint32_t>(static_cast<uint32_t>(list->size()));
    for (const std::string& m : *list) x.str(m);
  }
  x.put<uint32_t>(static_cast<uint32_t>(s_.strings.size()));
  for (size_t i = 0; i < s_.strings.size(); ++i) x.str(s_.strings.get(static_cast<StrId>(i)));
  x.put<uint32_t>(static_cast<uint32_t>(s_.processes.size()));
  for (const Process& p : s_.processes) {
    x.str(p.key);
    x.put<int64_t>(p.pid), x.put<int64_t>(p.sort_index), x.put<uint32_t>(p.name);
    x.put<uint8_t>(p.has_sort_index), x.put<uint8_t>(p.global), x.put<uint32_t>(p.file);
    x.put_list(p.labels), x.put_list(p.tracks);
  }
  x.put<uint32_t>(static_cast<uint32_t>(s_.tracks.size()));
  for (const Track& t : s_.tracks) {
    x.put<uint32_t>(t.process), x.put<uint8_t>(static_cast<uint8_t>(t.kind));
    x.str(t.key);
    x.put<int64_t>(t.tid), x.put<int64_t>(t.sort_index), x.put<uint32_t>(t.name);
    x.put<uint8_t>(t.has_sort_index);
    x.put<uint32_t>(t.first_event), x.put<uint32_t>(t.event_count), x.put<uint32_t>(t.max_depth);
    x.put_list(t.rows);
    x.put<uint32_t>(t.first_series), x.put<uint32_t>(t.series_count);
  }
  x.put<uint32_t>(static_cast<uint32_t>(s_.series.size()));
  for (const CounterSeries& c : s_.series) {
    x.put<uint32_t>(c.track), x.put<uint32_t>(c.name);
    x.put<uint32_t>(c.first_sample), x.put<uint32_t>(c.sample_count);
    x.put<uint8_t>(c.in_bytes), x.put<double>(c.scale);
  }
  x.put<int64_t>(p_.origin);
  x.put<uint32_t>(static_cast<uint32_t>(p_.rows.size()));
  for (const PyramidRow& r : p_.rows) x.put<uint32_t>(r.track), x.put<uint32_t>(r.depth);
  x.put<uint32_t>(static_cast<uint32_t>(p_.levels.size()));
  for (const PyramidLevel& L : p_.levels) x.put<int64_t>(L.bin_ns);
  x.put<uint32_t>(static_cast<uint32_t>(tiles_.size()));
  for (const Tile& t : tiles_) {
    x.put<uint8_t>(static_cast<uint8_t>(t.kind)), x.put<uint8_t>(t.level), x.put<uint32_t>(t.row);
    x.put<int64_t>(t.t0), x.put<int64_t>(t.t1), x.put<uint32_t>(t.count), x.put<uint32_t>(t.first);
    x.put<uint64_t>(t.offset);
    x.put<uint32_t>(t.length), x.put<uint32_t>(t.raw_length), x.put<uint32_t>(t.crc);
    x.put<double>(t.vmin), x.put<double>(t.vmax);
  }
  x.put<uint64_t>(s_.flows.size());
  x.put<uint32_t>(static_cast<uint32_t>(s_.flows.kinds.size()));
  for (const FlowColumns::Kind& k : s_.flows.kinds) x.put<uint32_t>(k.name), x.put<uint32_t>(k.cat);
  x.str(o_.analysis_list);
  x.put<uint32_t>(static_cast<uint32_t>(o_.analyses.size()));
  for (const auto& [name, json] : o_.analyses) x.str(name);
  return x;
}

Bytes Packer::search_blob() const {
  // Counting sort of the (name, tile) pairs by name; tiles stay in index order within a name.
  std::vector<uint32_t> offsets(s_.strings.size() + 1, 0);
  for (const auto& [name, tile] : name_tiles_) ++offsets[name + 1];
  for (size_t i = 1; i < offsets.size(); ++i) offsets[i] += offsets[i - 1];
  std::vector<uint32_t> tiles(name_tiles_.size()), at(offsets.begin(), offsets.end() - 1);
  for (const auto& [name, tile] : name_tiles_) tiles[at[name]++] = tile;
  Bytes x;
  x.put_all(offsets.data(), offsets.size());
  x.put_list(tiles);
  return x;
}

bool Packer::run(std::string* error) {
  cctx_ = ZSTD_createCCtx();
  if (!cctx_) return *error = "zstd: out of memory", false;
  if (o_.split) {
    const std::string tiles_dir = o_.out + "/tiles";
    if ((::mkdir(o_.out.c_str(), 0755) != 0 && errno != EEXIST) ||
        (::mkdir(tiles_dir.c_str(), 0755) != 0 && errno != EEXIST))
      return *error = "cannot make " + tiles_dir + ": " + std::strerror(errno), false;
  } else {
    f_ = std::fopen(o_.out.c_str(), "wb");
    if (!f_) return *error = "cannot write " + o_.out + ": " + std::strerror(errno), false;
    const uint8_t zeros[kHeaderBytes] = {};
    write(f_, zeros, sizeof(zeros));  // the header, written last
  }
  pos_ = kHeaderBytes;
  write_tiles();
  if (error_.empty()) flow_tiles(false);
  if (error_.empty()) flow_tiles(true);
  analysis_tiles();
  Compressed search, index;
  if (error_.empty() && compress(search_blob().b, &search)) compress(index_blob().b, &index);
  if (!error_.empty()) return *error = error_, false;

  Header h;
  h.flags = o_.split ? kFlagSplit : 0;
  h.tiles_bytes = pos_ - kHeaderBytes;
  // One file: header | tiles | search | index. Split: manifest.strata is header | search | index.
  const uint64_t after_tiles = o_.split ? kHeaderBytes : pos_;
  h.search_offset = after_tiles;
  h.search_length = static_cast<uint32_t>(search.bytes.size());
  h.search_raw = search.raw, h.search_crc = search.crc;
  h.index_offset = after_tiles + search.bytes.size();
  h.index_length = static_cast<uint32_t>(index.bytes.size());
  h.index_raw = index.raw, h.index_crc = index.crc;
  Bytes head;
  head.put_all(kMagic, sizeof(kMagic));
  head.put(h.version), head.put(h.flags), head.put(h.index_offset);
  head.put(h.index_length), head.put(h.index_raw), head.put(h.index_crc);
  head.put(h.search_length), head.put(h.search_raw), head.put(h.search_crc);
  head.put(h.search_offset), head.put(h.tiles_bytes);
  static_assert(kHeaderBytes == 64);
  if (o_.split) {
    const std::string path = o_.out + "/manifest.strata";
    f_ = std::fopen(path.c_str(), "wb");
    if (!f_) return *error = "cannot write " + path + ": " + std::strerror(errno), false;
    write(f_, head.b.data(), head.b.size());
  }
  write(f_, search.bytes.data(), search.bytes.size());
  write(f_, index.bytes.data(), index.bytes.size());
  if (!o_.split && (std::fseek(f_, 0, SEEK_SET) != 0 || !write(f_, head.b.data(), head.b.size())))
    if (error_.empty()) error_ = "cannot write the bundle's header";
  if (std::fclose(f_) != 0 && error_.empty()) error_ = "cannot write " + o_.out;
  f_ = nullptr;
  if (!error_.empty()) return *error = error_, false;
  st_->search_bytes = search.bytes.size();
  st_->index_bytes = index.bytes.size();
  st_->total_bytes = pos_ + search.bytes.size() + index.bytes.size();
  return true;
}

}  // namespace

HostSummary host_summary(const TraceStore& s) {
  HostSummary h;
  std::vector<Interval> top;
  for (const Track& t : s.tracks) {
    if (t.kind != TrackKind::kThread || t.rows.size() < 2) continue;
    for (uint32_t e = t.rows[0]; e < t.rows[1]; ++e)
      if (s.events.dur[e] > 0)
        top.push_back({s.events.start[e], end_of(s.events.start[e], s.events.dur[e])});
  }
  merge_intervals(&top);
  h.busy_ns = total_length(top);
  const std::vector<Step> steps = find_steps(s, find_gpu_work(s));
  h.steps = static_cast<uint32_t>(steps.size());
  if (!steps.empty()) {
    std::vector<TimeNs> d;
    for (const Step& st : steps) d.push_back(st.end - st.start);
    std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
    h.step_median_ns = d[d.size() / 2];
  }
  return h;
}

bool write_bundle(const TraceStore& s, const Pyramid& p, const PackOptions& o, PackStats* stats,
                  std::string* error) {
  *stats = PackStats{};
  if (o.tile_items == 0) return *error = "tile_items must be positive", false;
  Packer packer(s, p, o, stats);
  return packer.run(error);
}

}  // namespace strata::bundle
