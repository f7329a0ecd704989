// The tile bundle (docs/BUNDLE.md): one trace packed by strata-pack into a static file that a
// reader opens by its header and index, then fetches only the tiles it needs by byte range.
// This header holds what the writer (src/tools/pack) and the reader (bundle_reader.h) share:
// the constants, the header's fixed layout and the index's decoded form.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace strata::bundle {

// The first 8 bytes of every bundle (and of a split bundle's manifest.strata).
constexpr char kMagic[8] = {'S', 'T', 'R', 'A', 'T', 'A', 'B', 'N'};
// Bumped on any change an older reader cannot read; a reader refuses every other version.
// 2: the flows (kFlows, kFlowsIn tiles and the index's flow kinds) and the analyses (kAnalysis
// tiles and the index's analysis list).
constexpr uint32_t kFormatVersion = 2;
constexpr size_t kHeaderBytes = 64;
// Flag: the tiles are separate files (tiles/<index>.zst beside manifest.strata).
constexpr uint32_t kFlagSplit = 1;
// Items (events, bins + long events, samples) per tile at most: about 300 KB raw, 50 KB packed
// on a Kineto trace, so a zoomed view fetches little more than it shows (a fifth of what 65,536
// items per tile fetch, for 2.7x the index), and the index stays small (docs/BENCHMARKS.md).
constexpr uint32_t kTileItems = 1u << 13;
// zstd level for tiles and index: level 3 packs at disk speed and decodes at GB/s.
constexpr int kZstdLevel = 3;

enum class TileKind : uint8_t {
  kEvents = 0,    // one (track, depth) row's events, a run of them in start order
  kLevel = 1,     // one pyramid level of one row: bins and the level's long events
  kCounter = 2,   // one counter series' samples
  kFlows = 3,     // flow edges in the store's order (by source event), with both ends' times
  kFlowsIn = 4,   // the same edges by target event (the store's FlowColumns::by_to order)
  kAnalysis = 5,  // one analysis' JSON as packed (default arguments); row: Manifest::analyses
};
constexpr uint8_t kTileKinds = 6;

// The 64 bytes at offset 0, little-endian. Offsets count from the start of the file that holds
// the header (the bundle, or a split bundle's manifest.strata).
struct Header {
  uint32_t version = kFormatVersion;
  uint32_t flags = 0;
  uint64_t index_offset = 0;
  uint32_t index_length = 0, index_raw = 0, index_crc = 0;  // zstd bytes, inflated, crc32
  uint32_t search_length = 0, search_raw = 0, search_crc = 0;
  uint64_t search_offset = 0;
  uint64_t tiles_bytes = 0;  // the tiles' total (compressed) size
};

// One entry of the tile index.
struct Tile {
  TileKind kind = TileKind::kEvents;
  uint8_t level = 0;      // kLevel: index into Manifest::level_bin_ns
  uint32_t row = 0;       // kEvents / kLevel: index into Manifest::rows; kCounter: the series;
                          // kAnalysis: index into Manifest::analyses; flows: 0
  TimeNs t0 = 0, t1 = 0;  // absolute ns: the first item's start, the latest item's end (flows:
                          // the earliest and latest of their source ends and target starts)
  uint32_t count = 0;     // items
  uint32_t first = 0;     // kEvents: the first event's store index; kCounter: first sample;
                          // kFlows: the first edge; kFlowsIn: the first position in by_to
  uint64_t offset = 0;    // in the one-file bundle (a split bundle's index is the same)
  uint32_t length = 0, raw_length = 0, crc = 0;
  double vmin = 0, vmax = 0;  // kCounter: the samples' range (a coarse view without the tile);
                              // kFlows: the first and last source event, kFlowsIn: target
};

struct SourceInfo {
  std::string name, format, compression;
  uint64_t bytes = 0, stream_base = 0;
};

struct ProcessInfo {
  std::string key;
  int64_t pid = 0, sort_index = 0;
  StrId name = 0;
  bool has_sort_index = false, global = false;
  uint32_t file = 0;
  std::vector<StrId> labels;
  std::vector<uint32_t> tracks;
};

struct TrackInfo {
  uint32_t process = 0;
  uint8_t kind = 0;  // TrackKind
  std::string key;
  int64_t tid = 0, sort_index = 0;
  StrId name = 0;
  bool has_sort_index = false;
  uint32_t first_event = 0, event_count = 0, max_depth = 0;
  std::vector<uint32_t> rows;
  uint32_t first_series = 0, series_count = 0;
};

struct SeriesInfo {
  uint32_t track = 0;
  StrId name = 0;
  uint32_t first_sample = 0, sample_count = 0;
  bool in_bytes = false;
  double scale = 1;
};

// What a host's bundle says about it without a tile: the pod manifest's per-host summary.
struct HostSummary {
  TimeNs busy_ns = 0;  // |∪ of the top-level slices of every thread track|
  uint32_t steps = 0;  // training steps (core/analysis/steps.h)
  TimeNs step_median_ns = 0;
};

struct RowInfo {
  uint32_t track = 0, depth = 0;
};

// A flow edge's (name, cat): FlowColumns::kinds.
struct FlowKindInfo {
  StrId name = 0, cat = 0;
};

// The decoded index: everything but the tiles and the search index.
struct Manifest {
  Header header;
  std::string producer;  // "strata-pack <format version>"
  std::vector<SourceInfo> sources;
  TimeNs start_ns = 0, end_ns = 0;
  bool has_time = false;
  uint64_t events = 0, samples = 0;
  HostSummary summary;
  std::string display_time_unit;
  std::vector<uint64_t> phase_counts;                // 256: records by their "ph" byte
  std::vector<std::string> errors, warnings, notes;  // the load's problems, as summary() lists them
  std::vector<std::string> strings;
  std::vector<ProcessInfo> processes;
  std::vector<TrackInfo> tracks;
  std::vector<SeriesInfo> series;
  TimeNs origin = 0;  // the pyramid's: level bins count from here
  std::vector<RowInfo> rows;
  std::vector<TimeNs> level_bin_ns;  // kept pyramid levels, finest first
  std::vector<Tile> tiles;
  uint64_t flows = 0;  // flow edges (the kFlows tiles hold them)
  std::vector<FlowKindInfo> flow_kinds;
  // The analyses as packed: the list query's JSON (each analysis available or why not) and the
  // names of those with a kAnalysis tile (tile row k holds analyses[k]'s table).
  std::string analysis_list;
  std::vector<std::string> analyses;
};

// The search index: for each string id, the event tiles that hold an event of that name.
struct SearchIndex {
  std::vector<uint32_t> offsets;  // strings + 1 entries: [offsets[id], offsets[id + 1])
  std::vector<uint32_t> tiles;
};

}  // namespace strata::bundle
