// The keys of the graph benchmark's reply (graphBench with a module: GraphSession::
// bench_module_json; scripts/bench-graph reads them through web/shared/protocol.js). A header of
// its own beside reply_keys.h (which does not include it): only the benchmark uses these.
// ms: building the visible graph and laying it out (wall ms); nodes, edges: of the visible
// graph; crossings: edge crossings of the layout.
#pragma once
#include <string_view>

namespace strata::protocol {
namespace keys {

namespace graph_bench {
inline constexpr std::string_view kMs = "ms";
inline constexpr std::string_view kNodes = "nodes";
inline constexpr std::string_view kEdges = "edges";
inline constexpr std::string_view kCrossings = "crossings";
}  // namespace graph_bench

}  // namespace keys

inline constexpr std::string_view kGraphBenchKeys[] = {
    keys::graph_bench::kMs, keys::graph_bench::kNodes, keys::graph_bench::kEdges,
    keys::graph_bench::kCrossings};

}  // namespace strata::protocol
