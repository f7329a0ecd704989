#include "core/diff/keyed_diff.h"

#include <algorithm>

namespace strata {

const char* diff_status_name(DiffStatus status) {
  switch (status) {
    case DiffStatus::kUnchanged:
      return "unchanged";
    case DiffStatus::kChanged:
      return "changed";
    case DiffStatus::kAdded:
      return "added";
    case DiffStatus::kRemoved:
      return "removed";
    case DiffStatus::kReplaced:
      return "replaced";
  }
  return "";
}

uint32_t KeyedJoin::add(DiffSide side, std::string_view key) {
  auto it = index_.find(key);
  uint32_t id;
  if (it == index_.end()) {
    id = static_cast<uint32_t>(keys_.size());
    keys_.emplace_back(key);
    sides_.push_back(0);
    index_.emplace(keys_.back(), id);
  } else {
    id = it->second;
  }
  sides_[id] |= static_cast<uint8_t>(side);
  return id;
}

void order_by_change(const KeyedJoin& join, std::vector<uint32_t>* ids, const KeyMeasure& primary,
                     const KeyMeasure& secondary, bool ties_by_key) {
  // Measures are read once per id, not once per comparison.
  std::vector<double> p(join.size()), s(secondary ? join.size() : 0);
  for (uint32_t id : *ids) {
    p[id] = primary(id);
    if (secondary) s[id] = secondary(id);
  }
  std::stable_sort(ids->begin(), ids->end(), [&](uint32_t x, uint32_t y) {
    if (p[x] != p[y]) return p[x] > p[y];
    if (secondary && s[x] != s[y]) return s[x] > s[y];
    return ties_by_key && join.key(x) < join.key(y);
  });
}

KeyedDiff split_keys(const KeyedJoin& join, const std::function<bool(uint32_t)>& same,
                     const KeyMeasure& change, const KeyMeasure& a_size, const KeyMeasure& b_size) {
  KeyedDiff d;
  for (uint32_t id = 0; id < join.size(); ++id) {
    if (join.in_a(id) && join.in_b(id)) {
      if (same(id))
        ++d.unchanged;
      else
        d.changed.push_back(id);
    } else if (join.in_b(id)) {
      d.added.push_back(id);
    } else {
      d.removed.push_back(id);
    }
  }
  order_by_change(join, &d.changed, change, nullptr, true);
  order_by_change(join, &d.added, b_size, nullptr, true);
  order_by_change(join, &d.removed, a_size, nullptr, true);
  return d;
}

}  // namespace strata
