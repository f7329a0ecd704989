// Reply keys strata.details() copies from the details pane's JSON besides kDetailsKeys: the stack
// around the selected event (its index and process, self time, parent, children as
// {event, name, startNs, durNs}), which the page's tests compare between a trace read whole and
// lazily. The namespaces are reply_keys.h's.
#pragma once
#include <string_view>

#include "protocol/reply_keys.h"

namespace strata::protocol {

inline constexpr std::string_view kDetailsStackKeys[] = {
    keys::event::kEvent,    keys::event::kProcess,      keys::details::kSelfNs,
    keys::details::kParent, keys::details::kChildCount, keys::details::kChildren};

}  // namespace strata::protocol
