// Reply keys of two small additions read by few files: the flows strata.details() copies from
// the details pane's JSON (the arrows in and out of the selected event, e.g. an Nsight Systems
// kernel's launch), and the Runs statistics' note on what an Ascend profile is read from. The
// namespaces are reply_keys.h's.
#pragma once
#include <string_view>

#include "protocol/reply_keys.h"

namespace strata::protocol {

namespace keys {
// strata.stats(): "read ascend_pytorch_profiler_0.db; the CSV export beside it was not read".
namespace runs_stats {
inline constexpr std::string_view kNote = "note";
}  // namespace runs_stats
}  // namespace keys

// The details pane's flows (each {event, name, startNs, durNs, track, incoming, depth}).
inline constexpr std::string_view kDetailsFlowKeys[] = {keys::details::kFlows};

}  // namespace strata::protocol
