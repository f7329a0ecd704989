// The pod manifest's field names (pod.json, docs/BUNDLE.md "Pods") and the keys of the engine's
// pod replies (engine/pod/pod_session.h: the host table the page's Pod view and strata.pod()
// read). One header for the writer (tools/pack/pod_manifest.cc), the reader (PodSession) and the
// UI, so the three cannot drift apart; web/shared/protocol.js mirrors the reply keys the worker
// reads (REPLY_KEYS.podHost, checked by tests/e2e/protocol.test.mjs through reply_keys_pod.h).
#pragma once
#include <cstdint>
#include <string_view>

namespace strata::protocol::pod {

// pod.json's "format" value, and the one version a reader takes.
inline constexpr std::string_view kFormatName = "strata-pod";
inline constexpr int64_t kVersion = 1;

// The manifest's top level.
namespace manifest {
inline constexpr std::string_view kFormat = "format";
inline constexpr std::string_view kVersion = "version";
inline constexpr std::string_view kBase = "base";  // earliest host start, ns, decimal text
inline constexpr std::string_view kHosts = "hosts";
inline constexpr std::string_view kErrors = "errors";
}  // namespace manifest

// One of manifest.hosts.
namespace host {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kBundle = "bundle";  // relative to pod.json
inline constexpr std::string_view kOrigin = "origin";  // the host's start, ns, decimal text
inline constexpr std::string_view kOffset = "offset";  // origin - base, ns
inline constexpr std::string_view kSpan = "span";
inline constexpr std::string_view kEvents = "events";
inline constexpr std::string_view kTracks = "tracks";
inline constexpr std::string_view kBusy = "busy";
inline constexpr std::string_view kSteps = "steps";
inline constexpr std::string_view kStep = "step";  // median step, ns
inline constexpr std::string_view kSources = "sources";
}  // namespace host

}  // namespace strata::protocol::pod
