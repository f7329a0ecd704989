#include "core/memory/memory_data.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "core/memory/memory_query.h"

namespace strata {

namespace {

void sort_series(MemorySeries* s) {
  if (std::is_sorted(s->ts.begin(), s->ts.end())) return;
  std::vector<uint32_t> order(s->ts.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return s->ts[a] < s->ts[b]; });
  MemorySeries out;
  for (uint32_t i : order) out.add(s->ts[i], s->allocated[i], s->reserved[i]);
  s->ts = std::move(out.ts);
  s->allocated = std::move(out.allocated);
  s->reserved = std::move(out.reserved);
}

}  // namespace

void memory_finish(MemoryData* m) {
  auto& v = m->series;
  v.erase(std::remove_if(v.begin(), v.end(), [](const MemorySeries& s) { return s.ts.empty(); }),
          v.end());
  // Devices keep the order they first appeared in; components sort by name within a device.
  std::vector<std::string> devices = memory_devices(*m);
  auto rank = [&](const std::string& d) {
    return std::find(devices.begin(), devices.end(), d) - devices.begin();
  };
  std::stable_sort(v.begin(), v.end(), [&](const MemorySeries& a, const MemorySeries& b) {
    if (a.device != b.device) return rank(a.device) < rank(b.device);
    return a.component < b.component;
  });
  for (MemorySeries& s : v) {
    sort_series(&s);
    s.allocated_pyramid = build_minmax_pyramid(s.allocated);
    s.reserved_pyramid = build_minmax_pyramid(s.reserved);
  }
}

void memory_merge(MemoryData* into, MemoryData from) {
  for (MemorySeries& s : from.series) {
    auto it = std::find_if(into->series.begin(), into->series.end(), [&](const MemorySeries& x) {
      return x.device == s.device && x.component == s.component;
    });
    if (it == into->series.end()) {
      into->series.push_back(std::move(s));
      continue;
    }
    for (size_t i = 0; i < s.size(); ++i) it->add(s.ts[i], s.allocated[i], s.reserved[i]);
  }
  const MemoryAllocations& a = from.allocations;
  for (size_t i = 0; i < a.size(); ++i)
    into->allocations.add(a.name[i], a.device[i], a.bytes[i], a.alloc_ts[i], a.release_ts[i],
                          a.shape[i], a.region[i]);
  for (std::string& s : from.sources)
    if (std::find(into->sources.begin(), into->sources.end(), s) == into->sources.end())
      into->sources.push_back(s);
  for (std::string& w : from.warnings) into->warnings.push_back(std::move(w));
  for (auto [to, list] : {std::make_pair(&into->paired_devices, &from.paired_devices),
                          std::make_pair(&into->addressless_devices, &from.addressless_devices)})
    for (std::string& d : *list)
      if (std::find(to->begin(), to->end(), d) == to->end()) to->push_back(std::move(d));
  for (MemoryCapacity& c : from.capacities)
    if (std::none_of(into->capacities.begin(), into->capacities.end(),
                     [&](const MemoryCapacity& x) { return x.device == c.device; }))
      into->capacities.push_back(std::move(c));
  memory_finish(into);
}

std::vector<std::string> memory_devices(const MemoryData& m) {
  std::vector<std::string> out;
  auto add = [&](const std::string& d) {
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  };
  for (const MemorySeries& s : m.series) add(s.device);
  for (const std::string& d : m.allocations.device) add(d);
  return out;
}

uint32_t memory_primary_series(const MemoryData& m, const std::string& device) {
  uint32_t best = kNone;
  double best_alloc = -1, best_resv = -1;
  for (uint32_t i = 0; i < m.series.size(); ++i) {
    const MemorySeries& s = m.series[i];
    if (s.device != device) continue;
    if (s.component.empty()) return i;
    MemoryPeak a = series_peak(s, false), r = series_peak(s, true);
    const double av = a.valid ? a.bytes : -1, rv = r.valid ? r.bytes : -1;
    if (best == kNone || av > best_alloc || (av == best_alloc && rv > best_resv)) {
      best = i;
      best_alloc = av;
      best_resv = rv;
    }
  }
  return best;
}

bool memory_time_span(const MemoryData& m, const std::string* device, TimeNs* lo, TimeNs* hi) {
  bool any = false;
  auto span = [&](TimeNs t) {
    if (t == kNoRelease) return;
    *lo = any ? std::min(*lo, t) : t;
    *hi = any ? std::max(*hi, t) : t;
    any = true;
  };
  for (const MemorySeries& sr : m.series)
    if ((!device || sr.device == *device) && !sr.ts.empty())
      span(sr.ts.front()), span(sr.ts.back());
  for (size_t i = 0; i < m.allocations.size(); ++i)
    if (!device || m.allocations.device[i] == *device)
      span(m.allocations.alloc_ts[i]), span(m.allocations.release_ts[i]);
  return any;
}

}  // namespace strata
