// C exports for a pod (web/worker/pod.js, inside the engine worker): the pod manifest's host
// table (PodSession, engine/pod/pod_session.h) and the engine's load of picked hosts as one
// trace, each host's bundle read through self.strataDbRead as a database is (db.js).
#include <emscripten/emscripten.h>

#include <string>

#include "engine/engine.h"
#include "engine/pod/pod_session.h"
#include "engine/wasm/browser_byte_reader.h"

// engine_exports.cc: the engine and its current trace.
strata::Engine& engine_mutable();

namespace {
strata::PodSession& pod() {
  static strata::PodSession* session = new strata::PodSession();
  return *session;
}
std::string g_json;
const char* keep(std::string s) {
  g_json = std::move(s);
  return g_json.c_str();
}
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

// The hosts as one trace: begin, one engine_load_host per host (its bundle of total_bytes read
// through self.strataDbRead), end (1: the hosts' trace replaced the trace shown).
EMSCRIPTEN_KEEPALIVE void engine_load_hosts_begin(const char* name) {
  engine_mutable().load_hosts_begin(name);
}
EMSCRIPTEN_KEEPALIVE int engine_load_host(const char* name, double total_bytes) {
  strata::BrowserByteReader reader(static_cast<uint64_t>(total_bytes));
  return engine_mutable().load_host(name, &reader) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void engine_load_host_fail(const char* name, const char* why) {
  engine_mutable().load_host_fail(name, why);
}
EMSCRIPTEN_KEEPALIVE int engine_load_hosts_end() {
  return engine_mutable().load_hosts_end() ? 1 : 0;
}

}  // extern "C"
