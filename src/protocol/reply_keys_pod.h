// The keys of the engine's pod replies (engine/pod/pod_session.h): the host table that the Pod
// view, the worker and strata.pod() read, and the answer of opening hosts. pod.json's own field
// names are in pod_keys.h. See reply_keys.h for how the constants are used and checked.
#pragma once
#include <string_view>

namespace strata::protocol::keys {

// PodSession::table_json(): the pod (hosts: pod_host each; errors: the manifest's problems).
namespace pod {
inline constexpr std::string_view kBase = "base";  // earliest host start, ns, decimal text
inline constexpr std::string_view kMedianStepNs = "medianStepNs";
inline constexpr std::string_view kMedianBusyPct = "medianBusyPct";
inline constexpr std::string_view kStragglers = "stragglers";
inline constexpr std::string_view kHosts = "hosts";
inline constexpr std::string_view kErrors = "errors";
}  // namespace pod

// One of pod.hosts: pod.json's summary, what the session judged and what opening it gave.
namespace pod_host {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kBundle = "bundle";
inline constexpr std::string_view kOffsetNs = "offsetNs";
inline constexpr std::string_view kSpanNs = "spanNs";
inline constexpr std::string_view kEvents = "events";
inline constexpr std::string_view kTracks = "tracks";
inline constexpr std::string_view kBusyNs = "busyNs";
inline constexpr std::string_view kBusyPct = "busyPct";
inline constexpr std::string_view kSteps = "steps";
inline constexpr std::string_view kStepMedianNs = "stepMedianNs";
inline constexpr std::string_view kStepRatio = "stepRatio";  // its median step / the pod's
inline constexpr std::string_view kStraggler = "straggler";
inline constexpr std::string_view kWhy = "why";      // why it is a straggler ("" when not)
inline constexpr std::string_view kError = "error";  // why it did not open ("" when it did)
inline constexpr std::string_view kOpen = "open";    // part of the trace shown
}  // namespace pod_host

}  // namespace strata::protocol::keys

namespace strata::protocol {

inline constexpr std::string_view kPodKeys[] = {keys::pod::kBase,          keys::pod::kMedianStepNs,
                                                keys::pod::kMedianBusyPct, keys::pod::kStragglers,
                                                keys::pod::kHosts,         keys::pod::kErrors};
inline constexpr std::string_view kPodHostKeys[] = {
    keys::pod_host::kName,         keys::pod_host::kBundle,    keys::pod_host::kOffsetNs,
    keys::pod_host::kSpanNs,       keys::pod_host::kEvents,    keys::pod_host::kTracks,
    keys::pod_host::kBusyNs,       keys::pod_host::kBusyPct,   keys::pod_host::kSteps,
    keys::pod_host::kStepMedianNs, keys::pod_host::kStepRatio, keys::pod_host::kStraggler,
    keys::pod_host::kWhy,          keys::pod_host::kError,     keys::pod_host::kOpen};

}  // namespace strata::protocol
