// The keys of the graph viewer's replies beside those in reply_keys.h (graph_module...): a
// node's details (core/graph/graph_message.cc writes them; ui/graph reads them, the worker
// reads the name), a search's matches, what reading an xplane's HLO modules added, and the UI's
// download request. See
// reply_keys.h for how the constants are used and checked.
#pragma once
#include <string_view>

namespace strata::protocol::keys {

// graph_details(): one instruction (operands: graph_operand each; users: names; called: the
// computations it calls; source: "file:line"; stack: its call stack, innermost first, each
// "function (file:line)", present when the module has one). An empty string: not known.
namespace graph_node {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kOpcode = "opcode";
inline constexpr std::string_view kShape = "shape";
inline constexpr std::string_view kLayout = "layout";
inline constexpr std::string_view kMemorySpace = "memorySpace";
inline constexpr std::string_view kFusionKind = "fusionKind";
inline constexpr std::string_view kComputation = "computation";
inline constexpr std::string_view kOperands = "operands";
inline constexpr std::string_view kUsers = "users";
inline constexpr std::string_view kCalled = "called";
inline constexpr std::string_view kOpName = "opName";
inline constexpr std::string_view kOpType = "opType";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kSourceFunction = "sourceFunction";
inline constexpr std::string_view kStack = "stack";
inline constexpr std::string_view kCustomCallTarget = "customCallTarget";
inline constexpr std::string_view kAttrs = "attrs";
}  // namespace graph_node

// One of graph_node.operands.
namespace graph_operand {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kShape = "shape";
}  // namespace graph_operand

// graph_search(): the instructions whose name or opcode matches, each with its computation.
namespace graph_search {
inline constexpr std::string_view kInstr = "instr";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kOpcode = "opcode";
inline constexpr std::string_view kComputation = "computation";
}  // namespace graph_search

// graph_hlo_stream_end(): how many HLO modules reading the trace again added, and what failed.
namespace graph_added {
inline constexpr std::string_view kAdded = "added";
inline constexpr std::string_view kErrors = "errors";
}  // namespace graph_added

// The UI's download request to the page (the graph's SVG and DOT buttons): a JSON line with the
// file's name, then the text.
namespace graph_download {
inline constexpr std::string_view kName = "name";
}  // namespace graph_download

}  // namespace strata::protocol::keys
