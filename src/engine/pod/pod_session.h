// A pod opened from its manifest (pod.json, docs/BUNDLE.md "Pods"): the host table with each
// host's summary as the merge step wrote it, the stragglers marked, and which hosts are part of
// the trace shown. No tile is read here: the table is what the page lists before any bundle is
// fetched; Engine::load_host (engine/pod/pod_load.cc) opens the hosts picked from it.
// engine/wasm/pod_exports.cc forwards to one instance; native tests drive it the same.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// A straggler is a host whose median training step is more than kSlowStepRatio times the
// pod's median step (the median of the hosts' medians, over hosts with steps): in a
// synchronous job every other host waits for it. A host is also marked when its busy share
// (busy time over its span) is below kLowBusyRatio times the pod's median share: it spends the
// job waiting (on a slow input pipeline, a slow link or a slow peer). Either mark needs at least
// kMinHostsToJudge hosts with the figure, since a median of one or two says nothing.
inline constexpr double kSlowStepRatio = 1.1;
inline constexpr double kLowBusyRatio = 0.8;
inline constexpr size_t kMinHostsToJudge = 3;

struct PodHost {
  // As pod.json lists it.
  std::string name, bundle;  // bundle: relative to pod.json
  std::string origin;        // its start, ns, decimal text
  int64_t offset_ns = 0, span_ns = 0, busy_ns = 0, step_ns = 0;
  uint64_t events = 0;
  uint32_t tracks = 0, steps = 0;
  std::vector<std::string> sources;
  // What the session judged.
  double busy_pct = 0;    // busy_ns over span_ns, %
  double step_ratio = 0;  // step_ns over the pod's median step (0: no steps to compare)
  bool straggler = false;
  std::string why;  // the marks' reasons, "; " between them
  // The last open: part of the trace shown, or why it did not open.
  bool open = false;
  std::string error;
};

class PodSession {
 public:
  // Replaces the pod with the manifest's. False when the text is not a version 1 pod manifest
  // (errors() says why: the pod is then empty); a host entry that cannot be used (no name, a
  // repeated name, a bundle path that leaves pod.json's directory) is left out and listed.
  bool load(std::string_view json);
  void clear();

  const std::vector<PodHost>& hosts() const { return hosts_; }
  // The manifest's own errors (bundles the merge could not read) and the entries left out.
  const std::vector<std::string>& errors() const { return errors_; }
  const std::string& base() const { return base_; }
  int64_t median_step_ns() const { return median_step_ns_; }
  double median_busy_pct() const { return median_busy_pct_; }
  // The host named `name`, or -1.
  int find(std::string_view name) const;

  // Before a new open: no host is open nor failed.
  void reset_open();
  // Host `i` is part of the trace shown (error empty) or did not open (error says why).
  void mark(size_t i, std::string error);

  // {base, medianStepNs, medianBusyPct, stragglers, hosts: [...], errors} (reply_keys_pod.h).
  std::string table_json() const;

  // True when `path` is a plain relative path below pod.json's directory: no scheme, host,
  // absolute path, query, ".." segment or backslash, so fetching it stays on pod.json's origin.
  static bool safe_bundle_path(std::string_view path, std::string* why);

 private:
  void judge();
  std::vector<PodHost> hosts_;
  std::vector<std::string> errors_;
  std::string base_;
  int64_t median_step_ns_ = 0;
  double median_busy_pct_ = 0;
};

}  // namespace strata
