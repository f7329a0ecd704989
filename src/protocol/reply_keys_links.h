// Reply keys of small additions, read by few files: an analysis row's per-cell links (the
// overview's part cells, engine/analysis/analysis_table.h) with the select query's part mode
// that answers them, and the Runs tab's head request (a JSON trace's rank from its first
// bytes, engine/runs_session.h). The namespaces are reply_keys.h's.
#pragma once
#include <string_view>

namespace strata::protocol::keys {

namespace analysis_row {
inline constexpr std::string_view kCellLinks = "cellLinks";  // {column key: link}
}  // namespace analysis_row

// A step part's events (select query part mode): the step's event (-1: none) and the part key.
namespace analysis_link {
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kPart = "part";
// A framework op row of an xplane: its op name (select query framework op mode: that op's own
// events, engine/analysis/framework_op_xplane.h).
inline constexpr std::string_view kFrameworkOp = "frameworkOp";
}  // namespace analysis_link

// A `head` request's reply: the trace head's distributedInfo.rank / world_size (-1: none).
namespace runs_stats {
inline constexpr std::string_view kRank = "rank";
inline constexpr std::string_view kWorldSize = "worldSize";
}  // namespace runs_stats

}  // namespace strata::protocol::keys
