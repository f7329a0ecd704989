// C exports for the loss view's logs (web/worker/loss.js): each forwards to the LossSession
// (engine/loss_session.h). The worker keeps each log's File/Blob and streams it again when its
// tags change; loss_scan_commit takes its bytes plain, gzip or zstd.
#include <emscripten/emscripten.h>

#include <string>

#include "core/formats/loss_log/log_name.h"
#include "engine/loss_session.h"
#include "engine/wasm/exports_common.h"

namespace {
strata::LossSession g_loss;
}  // namespace

extern "C" {

// The Loss tab's name for a log at `path` (a folder's event file is named by its run).
EMSCRIPTEN_KEEPALIVE const char* loss_log_name(const char* path) {
  return strata::wasm::keep(strata::loss_log_name(path ? path : ""));
}

// Default tags from a log's first bytes (plain, gzip or zstd).
EMSCRIPTEN_KEEPALIVE const char* loss_guess_tags(const char* head, uint32_t n) {
  return strata::wasm::keep(strata::LossSession::guess_tags_json(std::string_view(head, n)));
}

EMSCRIPTEN_KEEPALIVE void loss_scan_begin(const char* loss_tag, const char* iteration_tag) {
  g_loss.scan_begin(strata::LossTags{loss_tag, iteration_tag});
}
EMSCRIPTEN_KEEPALIVE uint8_t* loss_scan_buffer(uint32_t n) { return g_loss.buffer(n); }
EMSCRIPTEN_KEEPALIVE void loss_scan_commit(uint32_t n) { g_loss.scan_commit(n); }
EMSCRIPTEN_KEEPALIVE uint32_t loss_scan_end() { return static_cast<uint32_t>(g_loss.scan_end()); }
EMSCRIPTEN_KEEPALIVE const double* loss_scan_points() { return g_loss.points(); }
// After loss_scan_end: the tags as read, the format, the keys found and a note (JSON).
EMSCRIPTEN_KEEPALIVE const char* loss_scan_detail() {
  return strata::wasm::keep(g_loss.detail_json());
}
EMSCRIPTEN_KEEPALIVE void loss_scan_release() { g_loss.release(); }

}  // extern "C"
