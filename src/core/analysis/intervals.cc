#include "core/analysis/intervals.h"

#include <algorithm>

namespace strata {

void merge_intervals(std::vector<Interval>* v) {
  std::sort(v->begin(), v->end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  size_t n = 0;
  for (const Interval& it : *v) {
    if (it.end <= it.begin) continue;
    if (n && it.begin <= (*v)[n - 1].end)
      (*v)[n - 1].end = std::max((*v)[n - 1].end, it.end);
    else
      (*v)[n++] = it;
  }
  v->resize(n);
}

std::vector<Interval> subtract_intervals(const std::vector<Interval>& from,
                                         const std::vector<Interval>& cut) {
  std::vector<Interval> out;
  size_t j = 0;
  for (const Interval& f : from) {
    TimeNs at = f.begin;
    while (j < cut.size() && cut[j].end <= at) ++j;
    for (size_t k = j; k < cut.size() && cut[k].begin < f.end; ++k) {
      if (cut[k].begin > at) out.push_back({at, cut[k].begin});
      at = std::max(at, cut[k].end);
      if (at >= f.end) break;
    }
    if (at < f.end) out.push_back({at, f.end});
  }
  return out;
}

std::vector<Interval> intersect_intervals(const std::vector<Interval>& a,
                                          const std::vector<Interval>& b) {
  std::vector<Interval> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const TimeNs lo = std::max(a[i].begin, b[j].begin), hi = std::min(a[i].end, b[j].end);
    if (lo < hi) out.push_back({lo, hi});
    if (a[i].end < b[j].end)
      ++i;
    else
      ++j;
  }
  return out;
}

TimeNs total_length(const std::vector<Interval>& v) {
  TimeNs t = 0;
  for (const Interval& it : v) t += it.end - it.begin;
  return t;
}

}  // namespace strata
