// C exports of the compare session for web/worker/compare.js: each forwards to the one
// CompareSession (engine/compare/compare_session.h), whose A is the engine's current trace.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/compare/compare_session.h"
#include "engine/query_args.h"
#include "engine/wasm/browser_byte_reader.h"
#include "engine/wasm/exports_common.h"

namespace {
strata::CompareSession* g_compare = nullptr;
std::vector<uint8_t> g_out;    // B's last binary message
uint64_t g_record_offset = 0;  // compare_record_range()'s answer
uint32_t g_record_length = 0;

strata::CompareSession& compare() {
  if (!g_compare) g_compare = new strata::CompareSession();
  return *g_compare;
}
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void compare_load_begin(const char* name, double total_bytes) {
  compare().load_begin(name ? name : "", static_cast<uint64_t>(total_bytes));
}
EMSCRIPTEN_KEEPALIVE uint8_t* compare_load_buffer(uint32_t n) { return compare().load_buffer(n); }
EMSCRIPTEN_KEEPALIVE void compare_load_commit(uint32_t n) { compare().load_commit(n); }
EMSCRIPTEN_KEEPALIVE int compare_load_next_file(const char* name, double bytes) {
  return compare().load_next_file(name ? name : "", static_cast<uint64_t>(bytes)) ? 1 : 0;
}
// 1: B replaced the previous B; 0: the previous B stays, compare_last_error() says why.
EMSCRIPTEN_KEEPALIVE int compare_load_end() { return compare().load_end() ? 1 : 0; }
// A SQLite profile of `total_bytes` as B, read through the worker's self.strataDbRead (db.js).
EMSCRIPTEN_KEEPALIVE int compare_load_sqlite(const char* name, double total_bytes) {
  strata::BrowserByteReader reader(static_cast<uint64_t>(total_bytes));
  return compare().load_sqlite(name ? name : "", &reader) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void compare_load_fail(const char* message) {
  compare().load_fail(message ? message : "");
}
EMSCRIPTEN_KEEPALIVE const char* compare_last_error() { return compare().last_error().c_str(); }
// The diff of the current trace against B (protocol/reply_keys_compare.h).
EMSCRIPTEN_KEEPALIVE const char* compare_result() {
  return strata::wasm::keep(compare().result_json(strata::wasm::engine()));
}
EMSCRIPTEN_KEEPALIVE void compare_clear() { compare().clear(); }
// What the timelines line up on (mode: timeline_align.h's names; an unknown one is the starts).
EMSCRIPTEN_KEEPALIVE void compare_set_alignment(const char* mode, double step, const char* event) {
  strata::AlignRequest r;
  if (!strata::align_mode_from_name(mode ? mode : "", &r.mode)) r.mode = strata::AlignMode::kStart;
  r.step = static_cast<int64_t>(step);
  r.event = event ? event : "";
  compare().set_alignment(r);
}

// B's timeline: binary protocol messages as engine_track_list / engine_view, with
// compare_out_size() giving the length; B's panel queries as engine_query.
EMSCRIPTEN_KEEPALIVE const uint8_t* compare_track_list() {
  g_out = compare().b_track_list();
  return g_out.data();
}
EMSCRIPTEN_KEEPALIVE const uint8_t* compare_view(const uint8_t* request, uint32_t n) {
  g_out = compare().b_view(request, n);
  return g_out.data();
}
EMSCRIPTEN_KEEPALIVE uint32_t compare_out_size() { return static_cast<uint32_t>(g_out.size()); }
EMSCRIPTEN_KEEPALIVE const char* compare_query(const char* kind, const char* args) {
  return strata::wasm::keep(compare().b_query_json(kind ? kind : "", args ? args : ""));
}

// The linked selection: the counterparts of args {"events": [indices]} of A (from_b 0) in B,
// or of B's in A (REPLY_KEYS.compareMatch).
EMSCRIPTEN_KEEPALIVE const char* compare_match(int from_b, const char* args) {
  strata::QueryArgs q;
  std::string err;
  std::vector<uint32_t> list;
  if (q.parse(args ? args : "", &err))
    for (double e : q.numbers("events"))
      if (e >= 0) list.push_back(static_cast<uint32_t>(e));
  return strata::wasm::keep(compare().match_json(strata::wasm::engine(), from_b != 0, list));
}
// B's event details: 1 when its record can be read from B's file at compare_record_offset() /
// compare_record_length() (0: compressed or none; details without it).
EMSCRIPTEN_KEEPALIVE int compare_record_range(uint32_t event) {
  return compare().b_record_range(event, &g_record_offset, &g_record_length) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE double compare_record_offset() { return static_cast<double>(g_record_offset); }
EMSCRIPTEN_KEEPALIVE uint32_t compare_record_length() { return g_record_length; }
EMSCRIPTEN_KEEPALIVE const char* compare_details(uint32_t event, const char* record, uint32_t len) {
  return strata::wasm::keep(
      compare().b_details_json(event, std::string_view(record ? record : "", len)));
}

}  // extern "C"
