// The Graph tab's calls out to the page (web/page/graph.js): one entry, `kind` + JSON arguments.
#pragma once

namespace strata {

// kind: "layout" {seq, module, computation, expanded:[...], focus, hops}; "details" {module,
// instr}; "timeline" {name} (show the op's occurrences in the timeline); "download" {name, text}.
void host_graph(const char* kind, const char* args_json);

}  // namespace strata
