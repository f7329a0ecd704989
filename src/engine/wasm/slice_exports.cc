// C exports for a slice worker (web/worker/slice-worker.js): each forwards to the one
// SliceSession (engine/slice_session.h). The worker loads the whole engine module but uses only
// these: a later slice of a big Chrome JSON in, its encoded partial result out.
#include <emscripten/emscripten.h>

#include <string_view>
#include <vector>

#include "core/formats/chrome_json/sliced_import.h"
#include "engine/slice_session.h"

namespace {
strata::SliceSession g_slice;
std::vector<uint8_t> g_slice_out;
}  // namespace

extern "C" {

// Where a later slice may start in `window` (bytes of the file read around an approximate
// offset), at or after `from`: its offset in the window, or -1
// (formats/chrome_json/sliced_import.h).
EMSCRIPTEN_KEEPALIVE double slice_cut_in(const char* window, uint32_t n, uint32_t from) {
  const size_t at = strata::chrome_json_cut_in(std::string_view(window, n), from);
  return at == std::string_view::npos ? -1 : static_cast<double>(at);
}
// 1 when the file whose first bytes are `head` is {"traceEvents": [...]}, 0 for a bare array.
EMSCRIPTEN_KEEPALIVE int slice_object_form(const char* head, uint32_t n) {
  return strata::chrome_json_object_form(std::string_view(head, n)) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void slice_begin(double base, int object_form) {
  std::vector<uint8_t>().swap(g_slice_out);
  g_slice.begin(static_cast<uint64_t>(base), object_form != 0);
}
EMSCRIPTEN_KEEPALIVE uint8_t* slice_buffer(uint32_t n) { return g_slice.buffer(n); }
EMSCRIPTEN_KEEPALIVE void slice_commit(uint32_t n) { g_slice.commit(n); }
EMSCRIPTEN_KEEPALIVE double slice_records() { return static_cast<double>(g_slice.records()); }
// The encoded result: a pointer, slice_out_size() bytes (0: the slice ran out of memory); valid
// until the next slice_begin.
EMSCRIPTEN_KEEPALIVE const uint8_t* slice_end() {
  g_slice_out = g_slice.end();
  return g_slice_out.data();
}
EMSCRIPTEN_KEEPALIVE uint32_t slice_out_size() { return static_cast<uint32_t>(g_slice_out.size()); }
EMSCRIPTEN_KEEPALIVE void slice_release() { std::vector<uint8_t>().swap(g_slice_out); }

}  // extern "C"
