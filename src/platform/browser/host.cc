#include "platform/browser/host.h"

#include <emscripten/emscripten.h>

// The bytes are copied out of wasm memory (slice), so the ArrayBuffer can be transferred to the
// worker and wasm memory may grow meanwhile.
EM_JS(void, strata_js_post_to_engine, (const void* p, size_t n), {
  const a = p >>> 0;
  Module.strataHost.postToEngine(HEAPU8.slice(a, a + n).buffer);
});
EM_JS(void, strata_js_request_details, (uint32_t ev),
      { Module.strataHost.requestDetails(ev >>> 0); });
EM_JS(void, strata_js_request_hover_details, (uint32_t ev),
      { Module.strataHost.requestHoverDetails(ev >>> 0); });
EM_JS(void, strata_js_open_picker, (), { Module.strataHost.openFilePicker(); });
EM_JS(void, strata_js_compare_picker, (), { Module.strataHost.compareFilePicker(); });
EM_JS(void, strata_js_compare_post, (const void* p, size_t n), {
  const a = p >>> 0;
  Module.strataHost.compareView(HEAPU8.slice(a, a + n).buffer);
});
EM_JS(void, strata_js_compare_query, (uint32_t id, const char* kind, const char* args),
      { Module.strataHost.compareQuery(id >>> 0, UTF8ToString(kind), UTF8ToString(args)); });
EM_JS(void, strata_js_compare_match, (uint32_t id, const char* from, const char* args),
      { Module.strataHost.compareMatch(id >>> 0, UTF8ToString(from), UTF8ToString(args)); });
EM_JS(void, strata_js_compare_details, (uint32_t event),
      { Module.strataHost.compareDetails(event >>> 0); });
EM_JS(void, strata_js_compare_align, (const char* mode, double step, const char* event),
      { Module.strataHost.compareAlign(UTF8ToString(mode), step, UTF8ToString(event)); });
EM_JS(void, strata_js_query, (uint32_t id, const char* kind, const char* args),
      { Module.strataHost.query(id >>> 0, UTF8ToString(kind), UTF8ToString(args)); });
EM_JS(void, strata_js_selection_changed, (double ev), { Module.strataHost.selectionChanged(ev); });
EM_JS(void, strata_js_loss_set_tags, (uint32_t id, const char* l, const char* i),
      { Module.strataHost.lossSetTags(id >>> 0, UTF8ToString(l), UTF8ToString(i)); });
EM_JS(void, strata_js_loss_remove, (uint32_t id), { Module.strataHost.lossRemove(id >>> 0); });
EM_JS(void, strata_js_pod_open, (const char* names),
      { Module.strataHost.podOpen(JSON.parse(UTF8ToString(names))); });
EM_JS(void, strata_js_load_whole, (), { Module.strataHost.loadWhole(); });
EM_JS(void, strata_js_download, (const char* name, const char* text),
      { Module.strataHost.download(UTF8ToString(name), UTF8ToString(text)); });

namespace strata {

void host_post_to_engine(const void* bytes, size_t n) { strata_js_post_to_engine(bytes, n); }
void host_request_details(uint32_t event) { strata_js_request_details(event); }
void host_request_hover_details(uint32_t event) { strata_js_request_hover_details(event); }
void host_open_file_picker() { strata_js_open_picker(); }
void host_compare_file_picker() { strata_js_compare_picker(); }
void host_compare_post_to_engine(const void* bytes, size_t n) { strata_js_compare_post(bytes, n); }
void host_compare_query(uint32_t id, const char* kind, const char* args_json) {
  strata_js_compare_query(id, kind, args_json);
}
void host_compare_match(uint32_t id, bool from_b, const char* args_json) {
  strata_js_compare_match(id, from_b ? "b" : "a", args_json);
}
void host_compare_details(uint32_t event) { strata_js_compare_details(event); }
void host_compare_align(const char* mode, double step, const char* event) {
  strata_js_compare_align(mode, step, event);
}
void host_query(uint32_t id, const char* kind, const char* args_json) {
  strata_js_query(id, kind, args_json);
}
void host_selection_changed(int64_t event) {
  strata_js_selection_changed(static_cast<double>(event));
}
double host_now_ms() { return emscripten_get_now(); }
void host_loss_set_tags(uint32_t id, const char* loss_tag, const char* iteration_tag) {
  strata_js_loss_set_tags(id, loss_tag, iteration_tag);
}
void host_loss_remove(uint32_t id) { strata_js_loss_remove(id); }
void host_download(const char* file_name, const char* text) { strata_js_download(file_name, text); }
void host_pod_open(const char* names_json) { strata_js_pod_open(names_json); }
void host_load_whole() { strata_js_load_whole(); }

}  // namespace strata
