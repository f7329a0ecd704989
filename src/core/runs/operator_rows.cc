#include "core/runs/operator_rows.h"

#include <algorithm>

#include "core/runs/runs_util.h"

namespace strata::runs {

void OperatorGrouper::add(const OperatorCall& c) {
  std::string key(c.name);
  if (by_shape_) {
    key.push_back('\x1f');
    key.append(c.input_shape);
  }
  auto [it, fresh] = index_.try_emplace(std::move(key), rows_.size());
  if (fresh) {
    OperatorRow r;
    r.name = std::string(c.name);
    if (by_shape_) r.input_shape = std::string(c.input_shape);
    rows_.push_back(std::move(r));
    extra_.emplace_back();
  }
  OperatorRow& r = rows_[it->second];
  Extra& x = extra_[it->second];
  ++r.calls;
  r.host_self_us += or_zero(c.host_self_us);
  r.host_total_us += or_zero(c.host_total_us);
  r.device_self_us += or_zero(c.device_self_us);
  r.device_total_us += or_zero(c.device_total_us);
  if (!is_missing(c.ai_core_self_us) || !is_missing(c.ai_core_total_us)) {
    x.has_ai = true;
    x.ai_self += or_zero(c.ai_core_self_us);
    x.ai_total += or_zero(c.ai_core_total_us);
  }
  if (!c.call_stack.empty()) ++x.stacks[std::string(c.call_stack)];
}

std::vector<OperatorRow> OperatorGrouper::finish() {
  for (size_t i = 0; i < rows_.size(); ++i) {
    OperatorRow& r = rows_[i];
    Extra& x = extra_[i];
    if (x.has_ai) {
      // The plugin's "AI Core eligible" column: the operator ran some of its device time on AI
      // Core (torch_npu writes "Device ... Duration With AICore(us)" per call); its self/total
      // percentages are that time over the device self/total time.
      r.ai_core_eligible = x.ai_total > 0 || x.ai_self > 0;
      r.ai_core_self_pct = r.device_self_us > 0 ? 100.0 * x.ai_self / r.device_self_us : kMissing;
      r.ai_core_total_pct =
          r.device_total_us > 0 ? 100.0 * x.ai_total / r.device_total_us : kMissing;
    }
    r.call_stacks.reserve(x.stacks.size());
    for (auto& [stack, n] : x.stacks) r.call_stacks.push_back({stack, n});
    std::sort(r.call_stacks.begin(), r.call_stacks.end(),
              [](const CallStackCount& a, const CallStackCount& b) {
                return a.count != b.count ? a.count > b.count : a.stack < b.stack;
              });
  }
  std::stable_sort(rows_.begin(), rows_.end(), [](const OperatorRow& a, const OperatorRow& b) {
    if (a.device_self_us != b.device_self_us) return a.device_self_us > b.device_self_us;
    if (a.host_self_us != b.host_self_us) return a.host_self_us > b.host_self_us;
    return a.name < b.name;
  });
  index_.clear();
  extra_.clear();
  return std::move(rows_);
}

}  // namespace strata::runs
