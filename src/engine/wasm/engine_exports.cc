// C exports of the engine for web/worker/engine-worker.js. Thin: every call forwards to Engine.
// Results that outlive the call (bytes, JSON) stay in `g_out` until the next call that
// returns one; JS copies them out at once (HEAPU8.slice), so one slot is enough.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/detect_format.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/store/store_digest.h"
#include "engine/engine.h"
#include "engine/wasm/browser_byte_reader.h"
#include "engine/wasm/exports_common.h"

namespace {
std::vector<uint8_t> g_out;
uint64_t g_src_offset = 0;
uint32_t g_src_length = 0;
uint32_t g_src_file = 0;
using strata::wasm::engine;
using strata::wasm::keep;
}  // namespace

extern "C" {

// A SQLite profile of `total_bytes`, read through the worker's self.strataDbRead (db.js).
EMSCRIPTEN_KEEPALIVE int engine_load_sqlite(const char* name, double total_bytes) {
  strata::BrowserByteReader reader(static_cast<uint64_t>(total_bytes));
  return engine().load_sqlite(name, &reader) ? 1 : 0;
}
// A tile bundle of `total_bytes` (or a split bundle's manifest when `split` is 1, its tiles
// read through self.strataTileRead), read through self.strataDbRead as a database is.
EMSCRIPTEN_KEEPALIVE int engine_load_bundle(const char* name, double total_bytes, int split) {
  strata::BrowserByteReader reader(static_cast<uint64_t>(total_bytes));
  return engine().load_bundle(name, &reader,
                              split
                                  ? strata::Engine::SplitTileReader(strata::browser_read_split_tile)
                                  : strata::Engine::SplitTileReader())
             ? 1
             : 0;
}
EMSCRIPTEN_KEEPALIVE void engine_load_begin(const char* name, double total_bytes) {
  engine().load_begin(name, static_cast<uint64_t>(total_bytes));
}
EMSCRIPTEN_KEEPALIVE int engine_load_next_file(const char* name, double bytes) {
  return engine().load_next_file(name, static_cast<uint64_t>(bytes)) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void engine_load_note(const char* message) { engine().load_note(message); }
EMSCRIPTEN_KEEPALIVE void engine_next_load_notes(const char* lines) {
  engine().set_next_load_notes(lines);
}
EMSCRIPTEN_KEEPALIVE uint8_t* engine_load_buffer(uint32_t n) { return engine().load_buffer(n); }
EMSCRIPTEN_KEEPALIVE void engine_load_commit(uint32_t n) { engine().load_commit(n); }
EMSCRIPTEN_KEEPALIVE double engine_load_records() {
  return static_cast<double>(engine().load_records());
}
// A sliced load (web/worker/sliced.js): the first slice through engine_load_commit, each later
// slice's encoded result (slice_exports.cc, in a slice worker) absorbed in file order, or, when
// 0 is answered, its bytes fed through engine_load_commit instead.
// xspace: 1 for an XSpace (formats/xplane/xplane_sliced.h), 0 for a Chrome JSON.
EMSCRIPTEN_KEEPALIVE void engine_load_begin_sliced(const char* name, double total_bytes,
                                                   int xspace) {
  engine().load_begin_sliced(name, static_cast<uint64_t>(total_bytes), xspace != 0);
}
EMSCRIPTEN_KEEPALIVE int engine_load_at_slice_boundary() {
  return engine().load_at_slice_boundary() ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int engine_load_absorb_slice(const uint8_t* data, uint32_t n, double bytes) {
  return engine().load_absorb_slice(data, n, static_cast<uint64_t>(bytes)) ? 1 : 0;
}
// The current store's digest (core/store/store_digest.h) as decimal text: a pass over the store.
EMSCRIPTEN_KEEPALIVE const char* engine_store_digest() {
  return keep(std::to_string(strata::store_digest(*engine().store())));
}
EMSCRIPTEN_KEEPALIVE int engine_load_end() { return engine().load_end() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE void engine_load_fail(const char* message) { engine().load_fail(message); }
EMSCRIPTEN_KEEPALIVE const char* engine_last_error() { return engine().last_error().c_str(); }
EMSCRIPTEN_KEEPALIVE uint32_t engine_generation() { return engine().generation(); }

// What a file is, from its name and first bytes (core/formats/detect_format.h): the FileKind in
// the low byte, the Compression in the next (kind | compression << 8).
EMSCRIPTEN_KEEPALIVE uint32_t engine_detect_format(const char* name, const uint8_t* head,
                                                   uint32_t n) {
  const strata::DetectedFormat f = strata::detect_format(name ? name : "", head, n);
  return static_cast<uint32_t>(f.kind) | (static_cast<uint32_t>(f.compression) << 8);
}
// "chrome-json", "xplane", "hlo-text", "hlo-proto", "ascend-csv", "training-log" or "unknown".
EMSCRIPTEN_KEEPALIVE const char* engine_file_kind_name(uint32_t kind) {
  return strata::file_kind_name(kind <= 0xFF ? static_cast<strata::FileKind>(kind)
                                             : strata::FileKind::kUnknown);
}

// What a file Strata does not read looks like ("a PNG image"), from its name and first bytes.
EMSCRIPTEN_KEEPALIVE const char* engine_unknown_file_what(const char* name, const uint8_t* head,
                                                          uint32_t n) {
  return keep(strata::what_unknown_file_is(name ? name : "", head, n));
}
// The message for a pick, drop or folder of which no file is one Strata reads. `files`: one
// "name\twhat" line per file (what from engine_unknown_file_what).
EMSCRIPTEN_KEEPALIVE const char* engine_unread_files_message(const char* files) {
  std::vector<strata::UnreadFile> list;
  std::string_view rest(files ? files : "");
  while (!rest.empty()) {
    const size_t end = std::min(rest.find('\n'), rest.size());
    const std::string_view line = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) continue;
    list.push_back({std::string(line.substr(0, tab)), std::string(line.substr(tab + 1))});
  }
  return keep(strata::describe_unread_files(list));
}

EMSCRIPTEN_KEEPALIVE const char* engine_summary() { return keep(engine().summary_json()); }
EMSCRIPTEN_KEEPALIVE const char* engine_find(const char* text, uint32_t limit) {
  return keep(engine().find_json(text, limit));
}
EMSCRIPTEN_KEEPALIVE const char* engine_query(const char* kind, const char* args) {
  return keep(engine().query_json(kind, args));
}
EMSCRIPTEN_KEEPALIVE const char* engine_details(uint32_t event, const char* record, uint32_t len) {
  return keep(engine().details_json(event, std::string_view(record, len)));
}
EMSCRIPTEN_KEEPALIVE double engine_locate(const char* name, double start_ns, const char* pid,
                                          const char* tid) {
  return static_cast<double>(engine().locate(name, start_ns, pid, tid));
}

EMSCRIPTEN_KEEPALIVE int engine_event_source(uint32_t event) {
  return engine().event_source(event, &g_src_offset, &g_src_length) ? 1 : 0;
}
// 1: the record can be read from the file at offset/length; 2: the file is compressed and the
// record is cached (engine_details_cached); 3: compressed, run an extraction pass first.
EMSCRIPTEN_KEEPALIVE int engine_record_access(uint32_t event) {
  if (!engine().event_source(event, &g_src_offset, &g_src_length)) return 0;
  g_src_file = engine().source_file(&g_src_offset);  // engine_source_file(); offset in that file
  if (!engine().file_compressed(g_src_file)) return 1;
  return engine().cached_record(event).empty() ? 3 : 2;
}
EMSCRIPTEN_KEEPALIVE void engine_extract_begin(uint32_t event) { engine().extract_begin(event); }
EMSCRIPTEN_KEEPALIVE int engine_extract_commit(uint32_t n) {
  return engine().extract_feed(engine().load_buffer(n), n) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE const char* engine_details_cached(uint32_t event) {
  return keep(engine().details_json(event, engine().cached_record(event)));
}
EMSCRIPTEN_KEEPALIVE double engine_source_offset() { return static_cast<double>(g_src_offset); }
EMSCRIPTEN_KEEPALIVE uint32_t engine_source_length() { return g_src_length; }
EMSCRIPTEN_KEEPALIVE uint32_t engine_source_file() { return g_src_file; }

// Memory chart: Kineto [memory] records still to read after a load (0: none); then the file
// from its start through engine_load_buffer + engine_memory_scan_commit until it returns 1.
EMSCRIPTEN_KEEPALIVE uint32_t engine_memory_scan_begin() { return engine().memory_scan_begin(); }
EMSCRIPTEN_KEEPALIVE int engine_memory_scan_commit(uint32_t n) {
  return engine().memory_scan_feed(engine().load_buffer(n), n) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void engine_memory_scan_end() { engine().memory_scan_end(); }
// Several files (xplanes of a multi-host load): file i's bytes follow engine_memory_scan_file(i).
EMSCRIPTEN_KEEPALIVE uint32_t engine_memory_scan_file_count() {
  return engine().memory_scan_file_count();
}
EMSCRIPTEN_KEEPALIVE void engine_memory_scan_file(uint32_t i) { engine().memory_scan_file(i); }
// 1 when the last load (an Ascend memory CSV) was merged into the trace already shown.
EMSCRIPTEN_KEEPALIVE int engine_last_load_merged() { return engine().last_load_merged() ? 1 : 0; }

// Binary protocol messages: returns a pointer to the bytes; engine_out_size() gives the length.
EMSCRIPTEN_KEEPALIVE const uint8_t* engine_track_list() {
  g_out = engine().track_list();
  return g_out.data();
}
EMSCRIPTEN_KEEPALIVE const uint8_t* engine_view(const uint8_t* request, uint32_t n) {
  g_out = engine().view(request, n);
  return g_out.data();
}
EMSCRIPTEN_KEEPALIVE uint32_t engine_out_size() { return static_cast<uint32_t>(g_out.size()); }

}  // extern "C"

int main() { return 0; }

// ---- graph viewer seam -------------------------------------------------------------------
// The current xplane's HloProto spans for web/worker/graph.js: [{programId, module, file,
// offset, length, compressed}] with offsets inside that file (decompressed when compressed).
extern "C" EMSCRIPTEN_KEEPALIVE const char* engine_hlo_protos_json() {
  return keep(engine().hlo_protos_json());
}
