// strata-pack --open-pod: a pod manifest opened as the page opens it, through the same C++
// (PodSession for the host table, Engine::load_host* for the hosts as one trace), so a pod
// packed on a cluster is checked where it was packed.
#pragma once
#include <string>

namespace strata::bundle {

// Prints the host table, then opens every host's bundle (beside pod.json) as one trace and
// prints what each gave. 0 when every host opened and the trace holds exactly the events and
// tracks pod.json lists for them; 1 otherwise (each problem printed to stderr).
int open_pod(const std::string& manifest_path);

}  // namespace strata::bundle
