#include "core/memory/memory_query.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace strata {

MemoryPeak series_peak(const MemorySeries& s, bool reserved) {
  const std::vector<double>& v = reserved ? s.reserved : s.allocated;
  MemoryPeak p;
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) continue;
    if (!p.valid || v[i] > p.bytes) p = {true, v[i], s.ts[i]};
  }
  return p;
}

std::vector<MemoryBucket> memory_buckets(const MemorySeries& s, double t0, double t1,
                                         uint32_t columns) {
  std::vector<MemoryBucket> out(columns);
  if (s.ts.empty() || columns == 0 || !(t1 > t0)) return out;
  const double w = (t1 - t0) / columns;
  auto first_after = [&](double t) {  // index of the first sample with ts > t
    return static_cast<size_t>(
        std::upper_bound(s.ts.begin(), s.ts.end(), t,
                         [](double x, TimeNs y) { return x < static_cast<double>(y); }) -
        s.ts.begin());
  };
  size_t next = first_after(t0);
  for (uint32_t c = 0; c < columns; ++c) {
    const double c1 = t0 + w * (c + 1);
    // The sample in effect at the column start, and every sample inside the column.
    const size_t a = next > 0 ? next - 1 : 0;
    // First sample at or after the column's end: a binary search, so a reply costs
    // O(columns · log n) whatever the number of samples in view.
    const size_t b = static_cast<size_t>(
        std::lower_bound(s.ts.begin() + static_cast<std::ptrdiff_t>(next), s.ts.end(), c1,
                         [](TimeNs x, double y) { return static_cast<double>(x) < y; }) -
        s.ts.begin());
    if (next == 0 && b == 0) continue;  // before the first sample
    MemoryBucket& k = out[c];
    k.has_alloc = range_minmax(s.allocated_pyramid, s.allocated, a, b, &k.alloc_min, &k.alloc_max);
    k.has_resv = range_minmax(s.reserved_pyramid, s.reserved, a, b, &k.resv_min, &k.resv_max);
    next = b;
  }
  return out;
}

std::vector<uint32_t> memory_live_at(const MemoryData& m, const std::string& device, TimeNs t) {
  const MemoryAllocations& a = m.allocations;
  std::vector<uint32_t> live;
  for (uint32_t i = 0; i < a.size(); ++i)
    if (a.device[i] == device && a.alloc_ts[i] <= t && t < a.release_ts[i]) live.push_back(i);
  std::stable_sort(live.begin(), live.end(),
                   [&](uint32_t x, uint32_t y) { return a.bytes[x] > a.bytes[y]; });
  return live;
}

double memory_untracked_at(const MemoryData& m, const std::string& device, TimeNs t,
                           const std::vector<uint32_t>& live) {
  if (std::find(m.paired_devices.begin(), m.paired_devices.end(), device) == m.paired_devices.end())
    return 0;
  const uint32_t primary = memory_primary_series(m, device);
  if (primary == kNone) return 0;
  const MemorySeries& s = m.series[primary];
  const auto at = std::upper_bound(s.ts.begin(), s.ts.end(), t);
  if (at == s.ts.begin()) return 0;
  const double held = s.allocated[static_cast<size_t>(at - s.ts.begin()) - 1];
  if (std::isnan(held)) return 0;
  double rows = 0;
  for (uint32_t i : live) rows += m.allocations.bytes[i];
  // Below a byte is rounding in the file's totals, not a buffer.
  return held - rows >= 1 ? held - rows : 0;
}

std::vector<MemoryGroup> memory_breakdown(const MemoryData& m, const std::vector<uint32_t>& live,
                                          MemoryGroupBy by) {
  const MemoryAllocations& a = m.allocations;
  std::unordered_map<std::string, size_t> index;
  std::vector<MemoryGroup> groups;
  for (uint32_t i : live) {
    const std::string& raw = by == MemoryGroupBy::kOperator ? a.name[i]
                             : by == MemoryGroupBy::kShape  ? a.shape[i]
                                                            : a.region[i];
    const std::string key = raw.empty() ? "(unknown)" : raw;
    auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.push_back({key, 0, 0});
    groups[it->second].bytes += a.bytes[i];
    groups[it->second].count += 1;
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const MemoryGroup& x, const MemoryGroup& y) { return x.bytes > y.bytes; });
  return groups;
}

}  // namespace strata
