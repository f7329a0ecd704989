// C exports of a lazily opened tile bundle (Engine::open_bundle_lazy, engine/bundle_session.h)
// for web/worker/bundle.js: open it by its header, index and search blob (read through the
// worker's self.strataDbRead), ask which tiles a view request needs, and feed their bytes.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/bundle/fetch_runs.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "engine/wasm/browser_byte_reader.h"
#include "engine/wasm/exports_common.h"

namespace {
std::vector<uint32_t> g_wanted;
std::vector<uint32_t> g_run_counts;
std::string g_error;
uint64_t g_src_offset = 0;
uint32_t g_src_length = 0;
uint32_t g_tile_local = 0;
}  // namespace

extern "C" {

// Bundles of at least this many bytes open lazily (the worker's default; a page may pass less).
EMSCRIPTEN_KEEPALIVE double engine_bundle_lazy_bytes() {
  return static_cast<double>(strata::kLazyBundleBytes);
}
// 1 when the bundle of `total_bytes` (or a split bundle's manifest.strata) opened lazily.
EMSCRIPTEN_KEEPALIVE int engine_bundle_open_lazy(const char* name, double total_bytes) {
  strata::BrowserByteReader reader(static_cast<uint64_t>(total_bytes));
  return strata::wasm::engine().open_bundle_lazy(name, &reader) ? 1 : 0;
}
// 1 while the trace shown is a lazy bundle.
EMSCRIPTEN_KEEPALIVE int engine_bundle_lazy() {
  return strata::wasm::engine().lazy_tiles() ? 1 : 0;
}
// The tiles a kViewRequest needs and the bundle does not hold: their count, and the list at
// engine_bundle_wanted_list() until the next call.
EMSCRIPTEN_KEEPALIVE uint32_t engine_bundle_wanted(const uint8_t* request, uint32_t n) {
  g_wanted = strata::wasm::engine().bundle_wanted(request, n);
  return static_cast<uint32_t>(g_wanted.size());
}
EMSCRIPTEN_KEEPALIVE const uint32_t* engine_bundle_wanted_list() { return g_wanted.data(); }
// The n tiles at `tiles` as byte-range requests (core/bundle/fetch_runs.h), each within one
// bundle (a pod's host): the number of runs; engine_bundle_wanted_list() then holds the tiles in
// (bundle, offset) order and engine_bundle_run_counts()
// how many of them each run takes, in that order.
EMSCRIPTEN_KEEPALIVE uint32_t engine_bundle_runs(const uint32_t* tiles, uint32_t n) {
  g_wanted.assign(tiles, tiles + n);
  g_run_counts.clear();
  const strata::LazyTiles* s = strata::wasm::engine().lazy_tiles();
  if (!s) {
    g_wanted.clear();
    return 0;
  }
  const auto span = [s](uint32_t i, strata::bundle::TileSpan* at) {
    uint32_t local = 0;
    at->part = s->tile_part(i, &local);
    return at->part >= 0 && s->tile_range(i, &at->offset, &at->length);
  };
  for (const strata::bundle::FetchRun& r : strata::bundle::fetch_runs(&g_wanted, span))
    g_run_counts.push_back(r.count);
  return static_cast<uint32_t>(g_run_counts.size());
}
EMSCRIPTEN_KEEPALIVE const uint32_t* engine_bundle_run_counts() { return g_run_counts.data(); }
// Tile i's byte range in the one-file bundle (a split bundle's tiles/<i>.zst holds it alone).
EMSCRIPTEN_KEEPALIVE double engine_bundle_tile_offset(uint32_t i) {
  uint64_t off = 0;
  uint32_t len = 0;
  const strata::LazyTiles* s = strata::wasm::engine().lazy_tiles();
  return s && s->tile_range(i, &off, &len) ? static_cast<double>(off) : -1;
}
EMSCRIPTEN_KEEPALIVE uint32_t engine_bundle_tile_length(uint32_t i) {
  uint64_t off = 0;
  uint32_t len = 0;
  const strata::LazyTiles* s = strata::wasm::engine().lazy_tiles();
  return s && s->tile_range(i, &off, &len) ? len : 0;
}
// Which bundle tile i is in: 0 for one bundle, a pod's host (in the order opened) when its
// hosts opened lazily, -1 for no such tile; engine_bundle_tile_local(): its index there (a split
// bundle's tiles/<local>.zst).
EMSCRIPTEN_KEEPALIVE int engine_bundle_tile_part(uint32_t i) {
  const strata::LazyTiles* s = strata::wasm::engine().lazy_tiles();
  return s ? s->tile_part(i, &g_tile_local) : -1;
}
EMSCRIPTEN_KEEPALIVE uint32_t engine_bundle_tile_local() { return g_tile_local; }
EMSCRIPTEN_KEEPALIVE void engine_bundle_feed(uint32_t i, const uint8_t* data, uint32_t n) {
  if (strata::LazyTiles* s = strata::wasm::engine().lazy_tiles()) s->feed(i, data, n);
}
EMSCRIPTEN_KEEPALIVE void engine_bundle_fail(uint32_t i, const char* why) {
  if (strata::LazyTiles* s = strata::wasm::engine().lazy_tiles()) s->fail(i, why);
}

// Starts a search (`args` as the find query takes them): the count of tiles to fetch first, in
// engine_bundle_wanted_list(); -1 for a bad pattern (engine_bundle_error() says why).
EMSCRIPTEN_KEEPALIVE int engine_bundle_find_begin(const char* args) {
  if (!strata::wasm::engine().bundle_find_begin(args, &g_wanted, &g_error)) return -1;
  return static_cast<int>(g_wanted.size());
}
EMSCRIPTEN_KEEPALIVE const char* engine_bundle_error() { return g_error.c_str(); }
// The tiles to fetch before an event's details (its own, the rows above and below it): their
// count, the list at engine_bundle_wanted_list().
EMSCRIPTEN_KEEPALIVE uint32_t engine_bundle_details_wanted(uint32_t event) {
  g_wanted = strata::wasm::engine().bundle_details_wanted(event);
  return static_cast<uint32_t>(g_wanted.size());
}
// The tiles to fetch before query `kind` with `args` (a select, or an analysis' packed table)
// answers as on the trace loaded whole: their count, the list at engine_bundle_wanted_list().
EMSCRIPTEN_KEEPALIVE uint32_t engine_bundle_query_wanted(const char* kind, const char* args) {
  g_wanted = strata::wasm::engine().bundle_query_wanted(kind, args);
  return static_cast<uint32_t>(g_wanted.size());
}
// 1 when the event's record has a range in its source: engine_bundle_source_offset/length.
EMSCRIPTEN_KEEPALIVE int engine_bundle_event_source(uint32_t event) {
  return strata::wasm::engine().bundle_event_source(event, &g_src_offset, &g_src_length) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE double engine_bundle_source_offset() {
  return static_cast<double>(g_src_offset);
}
EMSCRIPTEN_KEEPALIVE uint32_t engine_bundle_source_length() { return g_src_length; }

}  // extern "C"
