// C exports for a pod (web/worker/pod.js, inside the engine worker): the pod manifest's host
// table (PodSession, engine/pod/pod_session.h) and the engine's load of picked hosts as one
// trace, each host's bundle read through self.strataDbRead as a database is (db.js).
#include <emscripten/emscripten.h>

#include <string>

#include "engine/engine.h"
#include "engine/pod/pod_session.h"
#include "engine/wasm/browser_byte_reader.h"
#include "engine/wasm/exports_common.h"

namespace {
strata::PodSession& pod() {
  static strata::PodSession* session = new strata::PodSession();
  return *session;
}
using strata::wasm::keep;
}  // namespace

extern "C" {

// pod.json's text: 1 when it is a pod manifest (the table lists its hosts), 0 when not (the
// table's errors say why).
EMSCRIPTEN_KEEPALIVE int pod_load(const char* json) { return pod().load(json) ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE const char* pod_table() { return keep(pod().table_json()); }
// The host named `name`, or -1; its bundle's path relative to pod.json.
EMSCRIPTEN_KEEPALIVE int pod_host_index(const char* name) { return pod().find(name); }
EMSCRIPTEN_KEEPALIVE const char* pod_host_bundle(int i) {
  return i >= 0 && static_cast<size_t>(i) < pod().hosts().size()
             ? keep(pod().hosts()[static_cast<size_t>(i)].bundle)
             : keep("");
}
EMSCRIPTEN_KEEPALIVE void pod_reset_open() { pod().reset_open(); }
// Host i opened (error "") or did not (error says why).
EMSCRIPTEN_KEEPALIVE void pod_mark(int i, const char* error) {
  if (i >= 0) pod().mark(static_cast<size_t>(i), error);
}

// The hosts as one trace: begin (lazy 1: each host's index only, its tiles fetched on demand
// through the engine_bundle_* exports), one engine_load_host per host (its bundle, or a split
// bundle's manifest.strata when `split` is 1, of total_bytes read through self.strataDbRead; a
// split host read whole takes its tiles through self.strataTileRead), end (1: the hosts' trace
// replaced the trace shown).
EMSCRIPTEN_KEEPALIVE void engine_load_hosts_begin(const char* name, int lazy) {
  strata::wasm::engine().load_hosts_begin(name, lazy != 0);
}
EMSCRIPTEN_KEEPALIVE int engine_load_host(const char* name, double total_bytes, int split) {
  strata::BrowserByteReader reader(static_cast<uint64_t>(total_bytes));
  return strata::wasm::engine().load_host(
             name, &reader,
             split ? strata::SplitTileReader(strata::browser_read_split_tile)
                   : strata::SplitTileReader())
             ? 1
             : 0;
}
EMSCRIPTEN_KEEPALIVE void engine_load_host_fail(const char* name, const char* why) {
  strata::wasm::engine().load_host_fail(name, why);
}
EMSCRIPTEN_KEEPALIVE int engine_load_hosts_end() {
  return strata::wasm::engine().load_hosts_end() ? 1 : 0;
}

}  // extern "C"
