#include "core/formats/loss_log/metrics_reader.h"

#include <algorithm>

#include "core/base/text.h"

namespace strata {

namespace {

// The last part of a flattened key ("train/global_step" → "global_step").
std::string_view last_part(std::string_view key) {
  const size_t slash = key.rfind('/');
  return slash == std::string_view::npos ? key : key.substr(slash + 1);
}

}  // namespace

bool is_step_name(std::string_view key, int* rank) {
  static const char* const kNames[] = {"step",  "global_step",         "iteration", "iter",
                                       "_step", "trainer/global_step", "epoch"};
  const std::string k = ascii_lower(key);
  for (int i = 0; i < static_cast<int>(std::size(kNames)); ++i) {
    if (k == kNames[i]) {
      if (rank) *rank = i;
      return true;
    }
  }
  // "train/step", "Step" under a prefix: after the exact names.
  const std::string tail = ascii_lower(last_part(key));
  for (int i = 0; i < static_cast<int>(std::size(kNames)); ++i) {
    if (tail == kNames[i]) {
      if (rank) *rank = static_cast<int>(std::size(kNames)) + i;
      return true;
    }
  }
  return false;
}

bool is_time_name(std::string_view key) {
  const std::string k = ascii_lower(last_part(key));
  return k == "wall time" || k == "wall_time" || k == "walltime" || k == "timestamp" ||
         k == "_timestamp" || k == "_runtime" || k == "time" || k == "runtime";
}

MetricsSelection guess_metrics_selection(const MetricsResult& found,
                                         std::string_view fallback_step) {
  MetricsSelection s;
  int best_rank = 1 << 30;
  for (const std::string& k : found.step_keys) {
    int rank = 0;
    if (is_step_name(k, &rank) && rank < best_rank) best_rank = rank, s.step = k;
  }
  if (s.step.empty()) s.step = std::string(fallback_step);
  // Loss names: 0 "loss", 1 "*/loss" or "* loss" or "*_loss", 2 anything holding "loss".
  int best = 3;
  size_t best_len = 0;
  for (const std::string& k : found.series_keys) {
    if (k == s.step || is_step_name(k) || is_time_name(k)) continue;
    const std::string l = ascii_lower(k);
    int r = 3;
    if (l == "loss")
      r = 0;
    else if (l.size() > 4 && l.compare(l.size() - 4, 4, "loss") == 0)
      r = 1;
    else if (l.find("loss") != std::string::npos)
      r = 2;
    if (s.series.empty() && r == 3) s.series = k;  // the first metric, if nothing says loss
    if (r < best || (r == best && r < 3 && k.size() < best_len)) {
      best = r, best_len = k.size();
      s.series = k;
    }
  }
  if (s.series.empty() && !found.series_keys.empty()) s.series = found.series_keys[0];
  return s;
}

}  // namespace strata
