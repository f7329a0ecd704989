#include "ui/graph/graph_host.h"

#include <emscripten/emscripten.h>

EM_JS(void, strata_js_graph, (const char* kind, const char* args), {
  if (Module.strataHost.graph) Module.strataHost.graph(UTF8ToString(kind), UTF8ToString(args));
});

namespace strata {

void host_graph(const char* kind, const char* args_json) { strata_js_graph(kind, args_json); }

}  // namespace strata
