// Groups operator calls into OperatorRows (by name, or name + input shape), shared by the
// Ascend CSV and the trace paths so both tables aggregate the same way.
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/runs/run_stats.h"

namespace strata::runs {

struct OperatorCall {
  std::string_view name;
  std::string_view input_shape;
  std::string_view call_stack;  // "" = none
  double host_self_us = 0, host_total_us = 0;
  double device_self_us = 0, device_total_us = 0;
  double ai_core_self_us = kMissing, ai_core_total_us = kMissing;  // Ascend only
};

class OperatorGrouper {
 public:
  explicit OperatorGrouper(bool group_by_shape) : by_shape_(group_by_shape) {}
  void add(const OperatorCall& c);
  // Sorted rows with percentages and call stacks (most frequent first) filled in.
  std::vector<OperatorRow> finish();

 private:
  struct Extra {
    double ai_self = 0, ai_total = 0;
    bool has_ai = false;
    std::unordered_map<std::string, uint32_t> stacks;
  };
  bool by_shape_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<OperatorRow> rows_;
  std::vector<Extra> extra_;
};

}  // namespace strata::runs
