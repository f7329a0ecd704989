// Exports for the Pod tab (web/page/pod.js calls these): the engine's host table in, the picks
// and what the tab shows out.
#include <emscripten/emscripten.h>

#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "platform/browser/redraw.h"
#include "ui/exports/ui_app.h"

namespace {
strata::PodView* pod() { return &strata::ui_app()->pod; }
}  // namespace

extern "C" {

// The pod's host table (the worker's podLoaded, or a load of hosts: REPLY_KEYS.pod) for pod.json
// named `name`; show: bring the Pod tab to the front. 0 when the JSON does not parse.
EMSCRIPTEN_KEEPALIVE int ui_pod_table(const char* name, const char* json, int show) {
  const bool ok = strata::pod_view_set_table(pod(), name, json);
  if (ok && show) strata::ui_app()->tab = strata::ViewTab::kPod;
  strata::request_redraw();
  return ok ? 1 : 0;
}
// The picks (a JSON array of host names): exactly those hosts' checkboxes; 0 when a name is not
// a host of the pod.
EMSCRIPTEN_KEEPALIVE int ui_pod_pick(const char* names_json) {
  std::vector<strata::JsonLine> lines;
  std::string error;
  std::vector<std::string> names;
  if (names_json && strata::json_flatten(names_json, &lines, &error))
    for (const strata::JsonLine& l : lines)
      if (l.depth == 0 && l.kind == 's') names.push_back(l.value);
  const bool ok = strata::pod_view_pick(pod(), names);
  strata::request_redraw();
  return ok ? 1 : 0;
}
// A load of hosts ended without a new table (it failed before the worker answered with one).
EMSCRIPTEN_KEEPALIVE void ui_pod_open_ended() {
  pod()->opening = false;
  strata::request_redraw();
}
// What the tab shows, in its order: {hosts: [names], picked: [names], sort, descending, opening}.
EMSCRIPTEN_KEEPALIVE const char* ui_pod_view_json() {
  static std::string o;
  const strata::PodView& v = *pod();
  o = "{\"hosts\":[";
  for (size_t i = 0; i < v.rows.size(); ++i) {
    if (i) o += ',';
    strata::json_append_string(&o, v.rows[i].name);
  }
  o += "],\"picked\":" + strata::pod_view_picked_json(v);
  o += ",\"sort\":" + std::to_string(static_cast<int>(v.sort));
  o += std::string(",\"descending\":") + (v.descending ? "true" : "false");
  o += std::string(",\"opening\":") + (v.opening ? "true" : "false") + "}";
  return o.c_str();
}

}  // extern "C"
