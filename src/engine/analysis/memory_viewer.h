// The Memory Viewer: what XLA's buffer assignment keeps in one memory space of a module over its
// program order (core/memory_viewer/), for the modules the graph viewer holds (HLO files and the
// trace's HloProtos: the engine's graph session, Engine::graph_session()). Rows: the buffers
// live at a point (default: the peak), see live_rows.h.
//   args {"module": index | name, "space": colour, "point": n, "budget": bytes}
//   extra (protocol/memory_viewer_keys.h) {modules, module, moduleName, programId, spaces, space,
//     points, step, padded, unpadded, peak, point, indefiniteBytes, device, budget}
#pragma once
#include <cstdint>
#include <string>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;
struct TraceStore;

bool memory_viewer_available(const Engine& engine, std::string* why);
AnalysisTable memory_viewer_table(const Engine& engine, const QueryArgs& args);

// The device memory the profile states: the first device plane's `memory_size` stat (bytes);
// 0 when none, with *source naming the plane otherwise.
int64_t profile_device_memory(const TraceStore& s, std::string* source);

}  // namespace strata
