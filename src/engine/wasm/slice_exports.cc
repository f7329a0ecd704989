// C exports for a slice worker (web/worker/slice-worker.js): each forwards to the one
// SliceSession (engine/slice_session.h). The worker loads the whole engine module but uses only
// these: a later slice of a big Chrome JSON or XSpace in, its encoded partial result out.
#include <emscripten/emscripten.h>

#include <string_view>
#include <vector>

#include "core/formats/chrome_json/sliced_import.h"
#include "core/formats/xplane/xplane_sliced.h"
#include "engine/slice_session.h"

namespace {
strata::SliceSession g_slice;
std::vector<uint8_t> g_slice_out;
strata::XSpaceField g_field;                  // slice_xspace_field's answer
std::vector<strata::XSpaceSliceSpec> g_plan;  // slice_xspace_plan's
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

// An XSpace's plan (formats/xplane/xplane_sliced.h): its top-level fields read one window at a
// time from the file's start. 1 when `window` (the file's bytes from `at`) starts with a whole
// field header of a field inside the file, whose figures slice_xspace_field_value gives:
// 0 the next field's offset, 1 a plane's message offset, 2 its length, 3 a plane (1/0), 4 a
// plane whose metadata later slices read (1/0).
EMSCRIPTEN_KEEPALIVE int slice_xspace_field(const char* window, uint32_t n, double at,
                                            double size) {
  return strata::xspace_field_at(std::string_view(window, n), static_cast<uint64_t>(at),
                                 static_cast<uint64_t>(size), &g_field)
             ? 1
             : 0;
}
EMSCRIPTEN_KEEPALIVE double slice_xspace_field_value(int k) {
  const uint64_t v[] = {g_field.end, g_field.body, g_field.len, g_field.plane ? 1u : 0u,
                        g_field.context ? 1u : 0u};
  return k >= 0 && k < 5 ? static_cast<double>(v[k]) : 0;
}
// Plans `slices` slices of a file of `size` bytes whose top-level fields are `fields`, `count`
// numbers, 5 per field: at, end, body, len, flags (1 a plane, 2 a context plane). Returns how
// many slices (1: no cut).
EMSCRIPTEN_KEEPALIVE uint32_t slice_xspace_plan(const double* fields, uint32_t count, double size,
                                                uint32_t slices) {
  std::vector<strata::XSpaceField> fs(count / 5);
  for (size_t i = 0; i < fs.size(); ++i) {
    const double* f = fields + 5 * i;
    fs[i].at = static_cast<uint64_t>(f[0]), fs[i].end = static_cast<uint64_t>(f[1]);
    fs[i].body = static_cast<uint64_t>(f[2]), fs[i].len = static_cast<uint64_t>(f[3]);
    const auto flags = static_cast<uint32_t>(f[4]);
    fs[i].plane = flags & 1, fs[i].context = flags & 2;
  }
  const auto total = static_cast<uint64_t>(size);
  g_plan = strata::xspace_specs_of(fs, total, strata::xspace_cuts_of(fs, total, slices));
  return static_cast<uint32_t>(g_plan.size());
}
// Slice k of the plan: 0 begin, 1 end, 2 planes before it, 3 its context planes' count; then
// 4 + 2 i, 5 + 2 i: context plane i's offset and length.
EMSCRIPTEN_KEEPALIVE double slice_xspace_plan_value(uint32_t k, uint32_t what) {
  if (k >= g_plan.size()) return -1;
  const strata::XSpaceSliceSpec& s = g_plan[k];
  if (what < 4) {
    const uint64_t v[] = {s.begin, s.end, s.planes_before, s.context.size()};
    return static_cast<double>(v[what]);
  }
  const size_t i = (what - 4) / 2;
  if (i >= s.context.size()) return -1;
  return static_cast<double>((what - 4) % 2 ? s.context[i].second : s.context[i].first);
}

EMSCRIPTEN_KEEPALIVE void slice_begin(double base, int object_form) {
  std::vector<uint8_t>().swap(g_slice_out);
  g_slice.begin(static_cast<uint64_t>(base), object_form != 0);
}
// A later XSpace slice from `base` after `planes_before` planes; its context planes, each
// copied into slice_buffer(n), through slice_context before its bytes.
EMSCRIPTEN_KEEPALIVE void slice_begin_xspace(double base, uint32_t planes_before) {
  std::vector<uint8_t>().swap(g_slice_out);
  g_slice.begin_xspace(static_cast<uint64_t>(base), planes_before);
}
EMSCRIPTEN_KEEPALIVE void slice_context(uint32_t n, double offset) {
  g_slice.context(n, static_cast<uint64_t>(offset));
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
