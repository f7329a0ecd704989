// The engine: one per Web Worker. Owns the loaded trace, streams new files into a fresh store,
// and answers the UI's binary queries and the script API's JSON ones. No browser dependency:
// native tests drive it exactly as the engine worker (web/worker/) does through src/engine/wasm/.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/compression/whole_text.h"
#include "core/formats/importer.h"
#include "core/memory/memory_data.h"
#include "core/pyramid/pyramid.h"
#include "core/store/trace_store.h"
#include "engine/bundle_open.h"
#include "engine/memory_scan.h"
#include "engine/record_extractor.h"

namespace strata {

struct HloProtoSpan;
class ByteReader;
class BundleSession;
class LazyTiles;
class PodLazy;
class GraphSession;
struct AnalysisCache;
struct PartialStore;
struct QueryArgs;

class Engine {
 public:
  Engine();
  ~Engine();

  // ---- loading: the current trace stays usable until a new one has loaded well ----------
  void load_begin(std::string_view name, uint64_t total_bytes);
  // Scratch space of at least n bytes where the caller writes the next chunk.
  uint8_t* load_buffer(size_t n);
  // Feeds the n bytes just written to load_buffer().
  void load_commit(size_t n);
  uint64_t load_records() const;
  // The next bytes are another file of this load (several xplanes of one run). False, with
  // last_error() saying why, when the format takes one file: the load goes on without it.
  bool load_next_file(std::string_view name, uint64_t bytes);
  // A problem with one file of a load that goes on (e.g. a second file could not be read):
  // listed in the new trace's errors.
  void load_note(std::string_view message) {
    if (loading_) loading_->errors.emplace_back(message);
  }
  // Notes for the trace the next load_begin starts (summary().notes of that trace once it is
  // installed; dropped with it when the load fails), one a line: what the page chose for it.
  void set_next_load_notes(std::string_view lines);
  uint64_t load_bytes() const { return loaded_bytes_; }
  // Ends the load. True: the new trace replaced the old one. False: the old one is kept and
  // last_error() says why (also listed in summary errors).
  bool load_end();
  // Records a failure that happened outside the engine (e.g. the file could not be read), and
  // abandons the load in progress if any.
  void load_fail(std::string_view message);
  const std::string& last_error() const { return last_error_; }
  // What analyses share for the current trace (engine/analysis/analysis_cache.h).
  std::shared_ptr<AnalysisCache>& analysis_cache() const { return analysis_cache_; }
  // A profiler's SQLite database (Nsight Systems, Ascend), read where it is through `reader`
  // (engine_sqlite.cc): not streamed, since SQLite reads pages anywhere in the file. True: it
  // replaced the trace; false: the old one is kept and last_error() says why.
  bool load_sqlite(std::string_view name, ByteReader* reader);
  // A one-file tile bundle (docs/BUNDLE.md), read through `reader` (engine_bundle.cc): header,
  // index, then every events and counter tile, into a store as the packed trace's; a damaged
  // tile is named in its errors and the rest shown. Same contract as load_sqlite. A split
  // bundle's manifest (docs/BUNDLE.md) needs `split_tile`, which reads tile i's `length` bytes
  // from its own file (tiles/<i>.zst) into `out`; without it a split manifest is refused.
  using SplitTileReader = strata::SplitTileReader;  // engine/bundle_open.h
  bool load_bundle(std::string_view name, ByteReader* reader,
                   const SplitTileReader& split_tile = {});
  // A pod's hosts as one trace on one time axis (engine/pod/pod_load.cc): load_hosts_begin, then
  // load_host for each picked host (its bundle read through `reader`; its processes become the
  // section group `name`, pids kept, times as written so it sits at its offset in the pod), then
  // load_hosts_end. A host that cannot be opened is left out: load_host is false, last_error()
  // says why, and the trace's errors list it; load_host_fail records a host the caller could not
  // fetch at all. load_hosts_end is false, with the trace shown kept, when no host opened.
  // `lazy`: the hosts' bundles are not read whole but opened as a lazy bundle is (header, index
  // and search blob each; engine/pod/pod_lazy.h), their tiles fetched on demand and fed to
  // lazy_tiles() by its tile numbering across the hosts. A split host bundle (its
  // manifest.strata) needs `split_tile` for a whole read; a lazy read takes its tiles as fed.
  void load_hosts_begin(std::string_view name, bool lazy = false);
  bool load_host(std::string_view name, ByteReader* reader, const SplitTileReader& split_tile = {});
  void load_host_fail(std::string_view name, std::string_view why);
  bool load_hosts_end();
  // A tile bundle opened lazily (engine_bundle_lazy.cc, engine/bundle_session.h): only its
  // header, index and search blob are read through `reader` (a split bundle's manifest.strata
  // does); the track list comes from the index, and views read tiles the caller fetches and feeds
  // to bundle_session(). Same contract as load_sqlite.
  bool open_bundle_lazy(std::string_view name, ByteReader* reader);
  // The lazy bundle shown, or null (any other trace).
  BundleSession* bundle_session() const;
  // The tiles behind the trace shown (a lazy bundle or a pod's hosts opened lazily), or null.
  LazyTiles* lazy_tiles() const { return bundle_.get(); }
  // The tiles a kViewRequest needs that the lazy bundle does not hold (empty without one).
  std::vector<uint32_t> bundle_wanted(const uint8_t* request, size_t n) const;
  // Starts a search of the lazy bundle (engine_bundle_find.cc): `args` as query_json("find")
  // takes them. Returns the tiles to fetch and feed before query_json("find") / find_json()
  // answer with the whole count (they answer from what was counted so far). False, with why,
  // for a bad pattern.
  bool bundle_find_begin(std::string_view args, std::vector<uint32_t>* tiles, std::string* error);
  // The tiles a lazy bundle's select query (kind "select", `args` as query_json takes them)
  // reads and does not hold: to fetch and feed before query_json answers as the trace loaded
  // whole does; for kind "analysis" with a name alone, the analysis' packed table. Empty
  // without a lazy bundle or for another kind.
  std::vector<uint32_t> bundle_query_wanted(std::string_view kind, std::string_view args) const;
  // The same for details_json(event): its tile and those of the rows above and below it.
  std::vector<uint32_t> bundle_details_wanted(uint32_t event) const;
  // Where a lazy bundle's event's record is in its source (the source file's name, for a page
  // that serves it beside the bundle): false when the tile is not held or it has no record.
  bool bundle_event_source(uint32_t event, uint64_t* offset, uint32_t* length) const;
  // Progressive display: for a file of at least `min_file` bytes, the first `bytes` are also
  // indexed on their own and replace the current trace as soon as they are read (a new
  // generation), so the first timeline appears long before a big file is done. The trace shown
  // before comes back if the load then fails. Defaults: 256 MB files, first 64 MB.
  void set_preview(uint64_t min_file, uint64_t bytes) {
    preview_min_file_ = min_file, preview_bytes_ = bytes;
  }
  bool showing_preview() const { return previous_ != nullptr; }
  // ---- a sliced load (engine_sliced.cc): a big plain Chrome JSON or XSpace across workers ---
  // Starts a load as load_begin does whose bytes (load_commit) are the file's first slice
  // (formats/chrome_json/sliced_import.h, or formats/xplane/xplane_sliced.h when `xspace`);
  // the later slices, parsed by other workers (SliceSession), are absorbed in file order. Only
  // for a file the caller has seen to be uncompressed and of that format: the first slice skips
  // the sniffing and decompressing importers.
  void load_begin_sliced(std::string_view name, uint64_t total_bytes, bool xspace = false);
  // True when the bytes so far end between two events (an XSpace: two top-level fields): the
  // next slice may be absorbed.
  bool load_at_slice_boundary() const;
  // Absorbs an encoded later slice (SliceSession::end) that covers the next `bytes` of the file.
  // False, with nothing changed, when this is not a sliced load, the bytes so far do not end at
  // an event boundary (the cut was inside a string), `data` is not an encoded slice or an XSpace
  // slice cannot be merged exactly (xspace_head_can_absorb): then the
  // slice's bytes are to be fed with load_commit instead, which keeps the store exact.
  bool load_absorb_slice(const uint8_t* data, size_t n, uint64_t bytes);

  // ---- queries ------------------------------------------------------------------------------
  const TraceStore* store() const { return store_.get(); }
  uint32_t generation() const { return generation_; }
  const Pyramid& pyramid() const { return pyramid_; }
  std::string summary_json() const;
  // protocol::kTrackList message for the current trace.
  std::vector<uint8_t> track_list() const;
  // protocol::kViewRequest → kViewReply. Empty on a malformed request.
  std::vector<uint8_t> view(const uint8_t* request, size_t n);
  // {"count":N,"matches":[{name,tsNs,durNs,pid,tid,event}]}
  std::string find_json(std::string_view text, size_t limit) const;
  // Where the event's record is in the file, for lazy args. For a compressed file the offset
  // is in the decompressed stream: see record_available() / extract_*().
  bool event_source(uint32_t event, uint64_t* offset, uint32_t* length) const;
  bool source_compressed() const;
  // Which file of the trace a record locator is in (several xplanes load as one trace; their
  // locators count the files' bytes one after the other). Rewrites *offset to be in that file.
  uint32_t source_file(uint64_t* offset) const;
  bool file_compressed(uint32_t file) const;
  // Starts file `file` of the trace in a scan over records (its compression, its stream range).
  void scan_file(MemoryScan* scan, uint32_t file) const;
  // The loaded xplane's HloProto spans in file `file`, offsets within that file (engine_hlo.cc).
  std::vector<HloProtoSpan> file_hlo_spans(uint32_t file) const;
  // [{programId, module, file, offset, length, compressed}]: every span, offsets in its file.
  std::string hlo_protos_json() const;
  // Compressed sources: the record when the last extraction's window holds it, else empty.
  std::string_view cached_record(uint32_t event) const;
  // Starts re-reading the source for `event`; then feed the file from its start in chunks to
  // extract_feed() until it returns true, and take cached_record().
  void extract_begin(uint32_t event);
  bool extract_feed(const uint8_t* data, size_t n) { return extractor_.feed(data, n); }
  // {"event":i,"name":..,"cat":..,"startNs":..,"durNs":..,"pid":..,"tid":..,"record":{...}}
  // `record` is the event's JSON text re-read from the file (may be empty).
  std::string details_json(uint32_t event, std::string_view record) const;
  // Panel queries from the UI and the script API, JSON in and out (engine_queries.cc):
  //   "find"     {"text", "regex", "limit"} → {count, matches: [{event, name, start, end, track,
  //              depth}], nameIds, bins}
  //   "select"   {"events": [...]} | {"t0", "t1", "rows": [[track, depthLo, depthHi], ...]}
  //              (relative ns, display track indices) | {"name", "tracks"?, "programId"?} (every
  //              event of that exact name, in that XLA program's module runs) → {count, events:
  //              [{event, start, end, ...}], summary: [{name, count, totalNs, selfNs, minNs, maxNs,
  //              avgNs}]}
  //   "analysis" {"name"?, ...} → an analysis table (engine/analysis/analysis_registry.h)
  //   "memory*"  memory_query_json()
  std::string query_json(std::string_view kind, std::string_view args) const;
  // Display order of tracks (as in the track list): display index → store index, and back.
  const std::vector<uint32_t>& display_tracks() const { return display_tracks_; }
  // Event with this name, start and pid/tid keys (as text), or -1.
  int64_t locate(std::string_view name, double start_ns, std::string_view pid,
                 std::string_view tid) const;

  // ---- memory chart (engine_memory.cc) ------------------------------------------------------
  // After a load: how many Kineto [memory] records must be re-read from the source (0: the
  // memory data is complete). Then feed the file from its start to memory_scan_feed() until it
  // returns true, and call memory_scan_end().
  // For a load of several files (xplanes, one per host): after the first file's bytes, call
  // memory_scan_file(i) and feed file i from its start, for each further file.
  uint32_t memory_scan_begin();
  void memory_scan_file(uint32_t i);
  uint32_t memory_scan_file_count() const { return static_cast<uint32_t>(store_->files.size()); }
  bool memory_scan_feed(const uint8_t* data, size_t n) { return memory_scan_.feed(data, n); }
  void memory_scan_end();
  const MemoryData& memory() const { return memory_; }
  // True when the last load was an Ascend memory CSV merged into the trace already shown
  // (the current source for lazy args did not change).
  bool last_load_merged() const { return last_load_merged_; }
  // "memory", "memory_range", "memory_live", "memory_allocs" (see engine_memory.cc).
  std::string memory_query_json(std::string_view kind, std::string_view args) const;

  // ---- graph viewer -------------------------------------------------------------------------
  // The graph viewer's modules (HLO files, the trace's HloProtos) beside this engine, made on
  // first use; the analyses that read modules (the Memory Viewer) take them from here. A view
  // of the engine, not part of its trace: reachable from a const engine.
  GraphSession& graph_session() const;
  const GraphSession* graph_session_if_made() const { return graph_.get(); }

 private:
  MemoryData memory_;
  MemoryScan memory_scan_;
  bool memory_scan_pending_ = false;
  std::unique_ptr<WholeText> csv_;  // an Ascend memory CSV being loaded (small: held whole)
  bool last_load_merged_ = false;
  void memory_reset();  // counters → series; lists the [memory] records to read
  bool csv_load_end();

  std::unique_ptr<TraceStore> store_;  // current trace (never null)
  mutable std::shared_ptr<AnalysisCache> analysis_cache_;
  Pyramid pyramid_;                      // its multi-resolution summaries
  std::unique_ptr<TraceStore> loading_;  // trace being loaded
  bool loading_hosts_ = false;           // load_hosts_begin .. load_hosts_end
  uint32_t hosts_loaded_ = 0;
  std::vector<std::string> host_errors_;  // this pod load's hosts that did not open
  std::unique_ptr<Importer> importer_;
  bool sliced_ = false;         // importer_ is make_chrome_json_slice_head's
  bool sliced_xspace_ = false;  // ... or make_xspace_slice_head's
  std::string loading_name_;
  uint64_t loading_total_ = 0, loaded_bytes_ = 0;
  uint64_t file_start_ = 0;  // loaded_bytes_ when the current file of the load began
  std::vector<uint8_t> scratch_;
  std::vector<std::string> session_errors_;   // failed opens, kept for summary().errors
  std::vector<std::string> next_load_notes_;  // set_next_load_notes()
  std::string last_error_;
  uint32_t generation_ = 0;
  std::vector<uint8_t> strings_sent_;  // per string id: already sent to the UI
  RecordExtractor extractor_;
  uint32_t extract_file_ = 0;  // the file the extractor's window is from
  // Progressive display (see set_preview).
  uint64_t preview_min_file_ = 256ull << 20, preview_bytes_ = 64ull << 20, preview_fed_ = 0;
  std::unique_ptr<TraceStore> preview_store_;
  std::unique_ptr<Importer> preview_importer_;
  std::unique_ptr<TraceStore> previous_;  // shown before the preview replaced it
  Pyramid previous_pyramid_;
  void feed_preview(size_t n);
  void install(std::unique_ptr<TraceStore> store, Pyramid pyramid);
  // The end of every load that builds a whole store outside the streaming importer (a bundle,
  // a pod's hosts, a database): its zoom levels built, then installed as the current trace with
  // `bytes` as what the load read. False (load_fail, the trace shown stays) when the pyramid
  // does not fit in memory.
  bool install_built(std::unique_ptr<TraceStore> store, uint64_t bytes);
  std::vector<uint32_t> display_tracks_, store_to_display_;
  void index_display_order();
  std::unique_ptr<LazyTiles> bundle_;  // a lazy bundle's tiles (null for a loaded trace)
  std::unique_ptr<PodLazy> pod_lazy_;  // a lazy load of hosts in progress
  // The details pane's JSON of `event` of `s` (the trace's store, or some of a lazy bundle's
  // tiles as one: `p`, which names events by the trace's index), with `record` when it was read.
  std::string details_on(const TraceStore& s, uint32_t event, std::string_view record,
                         const PartialStore* p) const;
  // The select query on `s` (as details_on).
  std::string select_json(const TraceStore& s, const QueryArgs& args, const PartialStore* p) const;
  // The same on a lazy bundle or a pod's lazy hosts (engine_bundle_queries.cc), from the tiles
  // bundle_query_wanted listed: the event's row and the rows above and below it; a selection's
  // rows over its range (and the rows below, for self times); a name's tiles from the search
  // blob (each host's).
  std::string bundle_details_json(uint32_t event, std::string_view record) const;
  std::string bundle_select_json(const QueryArgs& args) const;
  std::vector<uint32_t> bundle_select_tiles(const QueryArgs& args) const;
  // *launches_cut: the nested rows read for what it launched were cut at their first tiles.
  std::vector<uint32_t> bundle_details_tiles(uint32_t event, bool* launches_cut = nullptr) const;
  // The kAnalysis tile answering an analysis query of a lazy bundle (its name alone), or kNone.
  uint32_t bundle_analysis_tile(const QueryArgs& args) const;
  // The analysis query on a lazy bundle: the packed list and tables, else why not (load whole).
  std::string bundle_analysis_json(const QueryArgs& args) const;
  // The lazy bundle's last search, as query_json("find") (panel) or find_json() answers.
  std::string bundle_find_json(bool panel) const;
  // A kViewRequest's range as a query on the current trace; false for a malformed request.
  bool view_query(const uint8_t* request, size_t n, ViewportQuery* q) const;
  mutable std::unique_ptr<GraphSession> graph_;  // last: it refers to the engine
};

// JSON value of a pid/tid key: the number when the key is numeric, else the string.

}  // namespace strata
