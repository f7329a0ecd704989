// The pod manifest (docs/BUNDLE.md, "Pods"): one JSON file listing the bundles of a pod's hosts
// (or ranks), packed one job per file, with each host's time base and the summary its bundle
// carries, so a page can list the hosts before it fetches any tile.
#pragma once
#include <string>
#include <vector>

namespace strata::bundle {

struct PodMergeResult {
  std::string json;                 // pod.json's text
  std::vector<std::string> errors;  // bundles that could not be read (left out of the hosts)
  size_t hosts = 0;
};

// Every `*.strata` file and split bundle directory directly in `dir`, by name.
PodMergeResult merge_pod(const std::string& dir);

}  // namespace strata::bundle
