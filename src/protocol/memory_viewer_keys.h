// Keys of the memory_viewer analysis: its args, and its `extra` value (the heap curve, the
// peak, the modules and memory spaces to choose from, the device's memory, the budget), read by
// the Memory Viewer chart (ui/analysis/memory_viewer_chart*) through these constants.
#pragma once
#include <string_view>

namespace strata::protocol::keys {

// strata.analysis('memory_viewer', {module, space, point, budget}).
namespace memory_viewer_args {
inline constexpr std::string_view kModule = "module";  // graph module index, or its name
inline constexpr std::string_view kSpace = "space";    // memory colour (0 = HBM)
inline constexpr std::string_view kPoint = "point";    // program-order point (default: peak)
inline constexpr std::string_view kBudget = "budget";  // bytes the user wants it to fit in
}  // namespace memory_viewer_args

namespace memory_viewer {
inline constexpr std::string_view kModules = "modules";  // [{index, name, source, ok, why}]
inline constexpr std::string_view kModule = "module";    // the chosen one's index, -1: none
inline constexpr std::string_view kModuleName = "moduleName";
inline constexpr std::string_view kProgramId = "programId";  // the module's, "" when unknown
inline constexpr std::string_view kSpaces = "spaces";        // [{color, label}], HBM first
inline constexpr std::string_view kSpace = "space";
inline constexpr std::string_view kPoints = "points";  // program-order points of the trace
inline constexpr std::string_view kStep = "step";      // points per curve sample (max of each)
inline constexpr std::string_view kPadded = "padded";  // heap bytes, one per sample
inline constexpr std::string_view kUnpadded = "unpadded";
inline constexpr std::string_view kPeak = "peak";    // {point, bytes, unpadded, instruction}
inline constexpr std::string_view kPoint = "point";  // the table's: {point, bytes, unpadded,
                                                     // instruction, live}
inline constexpr std::string_view kIndefinite = "indefiniteBytes";
inline constexpr std::string_view kDevice = "device";  // {bytes, share, source} | {why}
inline constexpr std::string_view kBudget = "budget";  // {bytes, fits, shrink:[row], bytesOver}
}  // namespace memory_viewer

// Fields of the objects above.
namespace memory_viewer_item {
inline constexpr std::string_view kIndex = "index";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kOk = "ok";
inline constexpr std::string_view kWhy = "why";
inline constexpr std::string_view kColor = "color";
inline constexpr std::string_view kLabel = "label";
inline constexpr std::string_view kPoint = "point";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kUnpadded = "unpadded";
inline constexpr std::string_view kInstruction = "instruction";
inline constexpr std::string_view kLive = "live";
inline constexpr std::string_view kShare = "share";
inline constexpr std::string_view kFits = "fits";
inline constexpr std::string_view kShrink = "shrink";
inline constexpr std::string_view kBytesOver = "bytesOver";
}  // namespace memory_viewer_item

// Added to the graph viewer's node details (graph_node) when the module has a buffer
// assignment: the buffers the instruction defines, each "name{index}: size, kind, allocation n
// at offset".
namespace graph_node_memory {
inline constexpr std::string_view kBuffers = "buffers";
}  // namespace graph_node_memory

}  // namespace strata::protocol::keys
