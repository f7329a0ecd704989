#include "core/query/find.h"

#include <algorithm>
#include <queue>

namespace strata {

namespace {
inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
}  // namespace

bool contains_ignore_case(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  if (needle.size() > hay.size()) return false;
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    size_t j = 0;
    while (j < needle.size() && lower(hay[i + j]) == lower(needle[j])) ++j;
    if (j == needle.size()) return true;
  }
  return false;
}

FindResult find_events(const TraceStore& s, std::string_view text, size_t limit) {
  FindResult r;
  if (text.empty()) return r;
  std::vector<uint8_t> name_matches(s.strings.size(), 0);
  bool any = false;
  for (StrId id = 0; id < s.strings.size(); ++id) {
    if (contains_ignore_case(s.strings.get(id), text)) name_matches[id] = 1, any = true;
  }
  if (!any) return r;
  return find_matching(s, name_matches, limit);
}

FindResult find_matching(const TraceStore& s, const std::vector<uint8_t>& name_matches,
                         size_t limit, size_t bins) {
  FindResult r;
  r.bins.assign(bins, 0);
  const double span = static_cast<double>(std::max<TimeNs>(1, s.end_ns - s.start_ns));
  const double per_ns = static_cast<double>(bins) / span;
  // Keep the `limit` earliest matches in a max-heap keyed by (start, index).
  using Key = std::pair<TimeNs, uint32_t>;
  std::priority_queue<Key> heap;
  const size_t n = s.events.size();
  for (uint32_t i = 0; i < n; ++i) {
    const StrId name = s.events.name[i];
    if (name >= name_matches.size() || !name_matches[name]) continue;
    ++r.count;
    if (bins) {
      const double at = static_cast<double>(s.events.start[i] - s.start_ns) * per_ns;
      r.bins[static_cast<size_t>(std::clamp(at, 0.0, static_cast<double>(bins - 1)))]++;
    }
    if (limit == 0) continue;
    Key k{s.events.start[i], i};
    if (heap.size() < limit) {
      heap.push(k);
    } else if (k < heap.top()) {
      heap.pop();
      heap.push(k);
    }
  }
  r.events.resize(heap.size());
  for (size_t i = heap.size(); i-- > 0;) {
    r.events[i] = heap.top().second;
    heap.pop();
  }
  return r;
}

}  // namespace strata
