// Reading a tile bundle (docs/BUNDLE.md) from bytes the caller fetched: the header (the first
// kHeaderBytes), then the index and the search blob at the ranges the header gives, then any
// tile by its index entry. No I/O here: the same functions serve a native file, a browser's
// Range fetch or a picked file's slice. Every check fails with a message, never a crash: a
// wrong magic or version, a short blob, a checksum that does not match, a blob that does not
// inflate to its stated size, a column that runs past its tile.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/bundle/bundle_format.h"

namespace strata::bundle {

// A row's events, as the store's columns hold them ([first, first + size()) of the store).
struct EventTile {
  uint32_t first = 0;
  std::vector<TimeNs> start, dur;
  std::vector<StrId> name, cat;
  std::vector<char> phase;
  std::vector<uint64_t> src_offset;
  std::vector<uint32_t> src_len;
  size_t size() const { return start.size(); }
};

// A pyramid level's bins and long events of one row (core/pyramid/pyramid.h), with the longest
// event's name and duration beside its index so a reader colours a bin without its events.
struct LevelTile {
  std::vector<int64_t> bin;
  std::vector<uint32_t> count;
  std::vector<TimeNs> busy;
  std::vector<uint32_t> longest;
  std::vector<StrId> longest_name;
  std::vector<TimeNs> longest_dur;
  std::vector<uint32_t> long_event;
  std::vector<TimeNs> long_start, long_dur;
  std::vector<StrId> long_name;
};

struct CounterTile {
  std::vector<TimeNs> ts;
  std::vector<double> value;
};

// Flow edges (kFlows: the store's edges [first, first + size()); kFlowsIn: by_to's entries from
// position first, each with its edge index): source and target events, the kind (index into
// Manifest::flow_kinds), and (kFlows only) where an arrow is drawn: the source's end, the
// target's start.
struct FlowTile {
  std::vector<uint32_t> edge, from, to, kind;
  std::vector<TimeNs> from_end, to_start;
  size_t size() const { return from.size(); }
};

// The header from the first bytes (at least kHeaderBytes). Refuses another magic (not a bundle)
// and another format version, saying which.
bool parse_header(const uint8_t* data, size_t n, Header* out, std::string* error);
// The index blob (header.index_length bytes from header.index_offset).
bool parse_index(const Header& h, const uint8_t* data, size_t n, Manifest* out, std::string* error);
// The search blob (header.search_length bytes from header.search_offset).
bool parse_search(const Header& h, const uint8_t* data, size_t n, size_t strings, SearchIndex* out,
                  std::string* error);

// One tile's bytes (tile.length of them, from tile.offset or its own file), checked and
// decoded. The error names the tile.
bool decode_events(const Tile& t, const uint8_t* data, size_t n, EventTile* out,
                   std::string* error);
bool decode_level(const Tile& t, const uint8_t* data, size_t n, LevelTile* out, std::string* error);
bool decode_counter(const Tile& t, const uint8_t* data, size_t n, CounterTile* out,
                    std::string* error);
bool decode_flows(const Tile& t, const uint8_t* data, size_t n, FlowTile* out, std::string* error);
// A kAnalysis tile: the analysis' JSON text.
bool decode_text(const Tile& t, const uint8_t* data, size_t n, std::string* out,
                 std::string* error);

// Checks a blob's size and crc32 and inflates it to exactly `raw` bytes.
bool inflate_blob(const uint8_t* data, size_t n, uint32_t length, uint32_t raw, uint32_t crc,
                  const char* what, std::vector<uint8_t>* out, std::string* error);

// The tiles of `kind` and row (or series) `row` that overlap [t0, t1), in index order.
std::vector<uint32_t> tiles_in_range(const Manifest& m, TileKind kind, uint32_t row, uint8_t level,
                                     TimeNs t0, TimeNs t1);

// The tiles a timeline view of [t0, t1] (absolute ns) `width_px` wide reads: for every row the
// tiles of the coarsest kept level whose bins are at most a pixel wide, or its events tiles when
// the view is finer than the finest level (the choice query_slices_pyramid makes on a loaded
// trace). Counters need no tile for an overview (the index's min/max per tile), so none here.
std::vector<uint32_t> view_tiles(const Manifest& m, TimeNs t0, TimeNs t1, double width_px);

}  // namespace strata::bundle
