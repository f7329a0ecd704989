// C exports for the Runs tab (web/worker/runs.js, inside the engine worker): each forwards to
// the RunsSession (engine/runs_session.h). The JSON a call returns stays here until the next.
#include <emscripten/emscripten.h>

#include <string>

#include "engine/engine.h"
#include "engine/runs_session.h"
#include "engine/wasm/exports_common.h"

namespace {
strata::RunsSession& runs() {
  static strata::RunsSession* session = new strata::RunsSession(strata::wasm::engine());
  return *session;
}
using strata::wasm::keep;
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uint8_t* runs_buffer(uint32_t n) { return runs().buffer(n); }
EMSCRIPTEN_KEEPALIVE void runs_put(const char* key, uint32_t n) { runs().put(key, n); }
EMSCRIPTEN_KEEPALIVE void runs_clear() { runs().clear(); }

EMSCRIPTEN_KEEPALIVE const char* runs_ascend_stats(int group_by_shape, const char* step,
                                                   int cards) {
  return keep(runs().ascend_stats_json(group_by_shape != 0, step, cards));
}

// The records pass: runs_records_begin → records wanted; the source through runs_buffer +
// runs_records_commit until it returns 1.
EMSCRIPTEN_KEEPALIVE uint32_t runs_records_begin() { return runs().records_begin(); }
EMSCRIPTEN_KEEPALIVE int runs_records_commit(uint32_t n) {
  return runs().records_commit(n) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void runs_records_clear() { runs().records_clear(); }

EMSCRIPTEN_KEEPALIVE void runs_trace_keep(const char* slot, int group_by_shape) {
  runs().trace_keep(slot, group_by_shape != 0);
}
EMSCRIPTEN_KEEPALIVE const char* runs_diff(int group_by_shape, const char* step) {
  return keep(runs().diff_json(group_by_shape != 0, step));
}
EMSCRIPTEN_KEEPALIVE const char* runs_trace_stats(int group_by_shape, int card) {
  return keep(runs().trace_stats_json(group_by_shape != 0, card));
}
// A JSON trace's first n bytes (put in runs_buffer): its distributedInfo rank.
EMSCRIPTEN_KEEPALIVE const char* runs_head(uint32_t n) { return keep(runs().trace_head_json(n)); }

}  // extern "C"
